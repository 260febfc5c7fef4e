// The index writer's SQL: the queue of bibs to index, the bibs' indexable rows, and the index's
// documents and compressed lists as the indexer (indexer.ts) writes them; a rebuild (rebuild.ts)
// writes the same rows, postings among them, into the tables it builds.
import { copyText } from '../db/copy-text.ts';
import type { Queryable } from '../db/types.ts';
import { LOCK_KEYS } from '../db/lock-keys.ts';
import type { MarcInJson } from '../marc/marc-in-json.ts';
import { pairKeys, type SearchDocument } from './document.ts';
import { COUNTED_KEY_LIKE, KEY } from './keys.ts';
import { replaceSegments, segmentsAt } from './segment-repository.ts';
import { applyChanges, type ListChanges, type Segment, type SegmentWrites } from './segments.ts';
import { decodeTermIds, termIdsLiteral } from './term-ids.ts';

/** Takes up to `limit` bibs off the queue (others' claims skipped), in this transaction. */
export async function takeQueued(tx: Queryable, limit: number): Promise<string[]> {
  const rows = await tx.query<{ bib_id: string }>(
    `delete from search_queue where bib_id in (select bib_id from search_queue order by bib_id limit $1 for update skip locked)
     returning bib_id::text`,
    [limit],
  );
  return rows.map((r) => r.bib_id);
}

export interface IndexableBib {
  id: string;
  marc: MarcInJson | null;
  title: string | null;
  publish_year: number | null;
  material_type: string | null;
  lang: string | null;
  isbns: string[];
  issns: string[];
  searchable: boolean;
  call_numbers: string[];
}

/** A bib that search shows: neither deleted nor suppressed. */
export const SEARCHABLE = 'b.deleted_date is null and not b.suppressed';

/** What a bib's search document is made of (IndexableBib), from "bibs b"; the caller adds the where. */
export const INDEXABLE_SELECT = `select b.id::text, b.marc, b.title, b.publish_year, b.material_type, b.lang, b.isbns, b.issns,
    (${SEARCHABLE}) as searchable,
    array(select i.call_number from item_bibs ib join items i on i.id = ib.item_id
          where ib.bib_id = b.id and i.deleted_date is null and i.call_number is not null) as call_numbers
  from bibs b`;

export async function readIndexable(tx: Queryable, ids: string[]): Promise<IndexableBib[]> {
  return tx.query<IndexableBib>(`${INDEXABLE_SELECT} where b.id = any($1::bigint[])`, [ids]);
}

/** Replaces the index entries of these bibs with these documents (bibs without one leave the index). */
export async function writeIndex(tx: Queryable, bibIds: string[], docs: SearchDocument[]): Promise<void> {
  // The docs' writing turn, held to the commit, then their version: versions then rise in commit
  // order, so a process reading the docs written since a version (facet-columns.ts) never misses
  // one committed after it read. (Taken first: every writer takes its locks in this order.)
  await tx.query('select pg_advisory_xact_lock($1)', [LOCK_KEYS.searchDocs]);
  const version = Number((await tx.query<{ v: string }>(`select nextval('search_versions')::text as v`))[0]!.v);
  const gone = await removeDocs(tx, bibIds);
  const counts = new Map(gone.filter((r) => r.counted).map((r) => [r.term_id, -r.bibs.length]));
  const postings = docs.length > 0 ? await addDocs(tx, docs, version, counts) : undefined;
  // Every key whose bibs changed (even by as many in as out, or only in weight), counted or not,
  // gets a new version drawn from one sequence: a list kept under its old version (list-cache.ts)
  // is then no longer read, in any process.
  const lists = listChanges(gone, postings);
  const changed = [...lists.keys()].sort((a, b) => a - b);
  if (changed.length === 0) return;
  // Locked in id order first: indexers updating the same common keys at once then queue (each
  // rewrites their segments whole), never deadlock. Each version is drawn once its key is locked,
  // so a key's versions rise in commit order.
  await tx.query('select 1 from search_terms where id = any($1::int[]) order by id for update', [changed]);
  await updateSegments(tx, lists);
  await tx.query(
    `update search_terms t set df = t.df + d.n, version = nextval('search_versions')
       from unnest($1::int[], $2::int[]) as d(id, n) where t.id = d.id`,
    [changed, changed.map((id) => counts.get(id) ?? 0)],
  );
}

/**
 * Deletes the bibs' docs; answers, for each key they were indexed under that still exists, the
 * bibs that leave its list, and whether it is counted (KEY.isCounted: its count loses them).
 */
async function removeDocs(tx: Queryable, bibIds: string[]): Promise<{ term_id: number; counted: boolean; bibs: string[] }[]> {
  // What leaves each key's list is read from the old docs' key ids (the keys of the postings they
  // were written with), and their pair keys from their words (a doc keeps no pair's id: about 45
  // bytes a bib): the lists themselves are only in the compressed segments.
  const docs = await tx.query<{ bib_id: string; term_ids: Uint8Array; words: string }>(
    'delete from search_docs where bib_id = any($1::bigint[]) returning bib_id::text, term_ids, words',
    [bibIds],
  );
  if (docs.length === 0) return [];
  const pairs = docs.map((doc) => pairKeys(doc.words));
  const own = docs.map((doc) => decodeTermIds(doc.term_ids));
  const keys = await tx.query<{ id: number; key: string; counted: boolean }>(
    `select id, key, key like '${COUNTED_KEY_LIKE}' as counted from search_terms where id = any($1::int[]) or key = any($2::text[])`,
    [[...new Set(own.flat())], [...new Set(pairs.flat())]],
  );
  const idOf = new Map(keys.map((k) => [k.key, k.id]));
  const bibsOf = new Map<number, string[]>();
  docs.forEach((doc, i) => {
    // A Set: a doc written before its pairs were left out holds their ids too.
    const ids = new Set(own[i]);
    for (const key of pairs[i]!) if (idOf.has(key)) ids.add(idOf.get(key)!);
    for (const id of ids) (bibsOf.get(id) ?? bibsOf.set(id, []).get(id)!).push(doc.bib_id);
  });
  return keys.filter((k) => bibsOf.has(k.id)).map((k) => ({ term_id: k.id, counted: k.counted, bibs: bibsOf.get(k.id)! }));
}

/** Each key's changes: the bibs that left its list (null), and those added with their weights (a bib in both stays, weighed anew). */
function listChanges(gone: { term_id: number; bibs: string[] }[], postings: Postings | undefined): Map<number, ListChanges> {
  const lists = new Map<number, ListChanges>();
  const of = (id: number) => lists.get(id) ?? lists.set(id, new Map()).get(id)!;
  for (const { term_id, bibs } of gone) for (const bib of bibs) of(term_id).set(Number(bib), null);
  if (postings)
    for (let i = 0; i < postings.termIds.length; i++) of(postings.termIds[i]!).set(Number(postings.bibIds[i]), postings.weights[i]!);
  return lists;
}

/** Rewrites the segments (segments.ts) the keys' changes fall in. */
async function updateSegments(tx: Queryable, lists: Map<number, ListChanges>): Promise<void> {
  const termIds: number[] = [];
  const bibs: number[] = [];
  for (const [id, changes] of lists)
    for (const bib of changes.keys()) {
      termIds.push(id);
      bibs.push(bib);
    }
  const read = new Map<number, Segment[]>();
  for (const segment of await segmentsAt(tx, termIds, bibs))
    (read.get(segment.termId) ?? read.set(segment.termId, []).get(segment.termId)!).push(segment);
  const writes: SegmentWrites = { deleted: [], written: [] };
  for (const [id, changes] of lists) {
    const { deleted, written } = applyChanges(id, read.get(id) ?? [], changes);
    writes.deleted.push(...deleted);
    writes.written.push(...written);
  }
  await replaceSegments(tx, writes.deleted, writes.written);
}

/**
 * Writes the documents' docs (at this version), adding to `counts` a bib for each counted key
 * (KEY.isCounted); answers the postings.
 */
async function addDocs(tx: Queryable, docs: SearchDocument[], version: number, counts: Map<number, number>): Promise<Postings> {
  // Sorted, so that indexers adding the same new keys at once take their locks in one order.
  const keys = [...new Set(docs.flatMap((d) => [...d.keys.keys()]))].sort();
  await tx.query('insert into search_terms (key) select unnest($1::text[]) order by 1 on conflict do nothing', [keys]);
  const ids = new Map(
    (await tx.query<{ id: number; key: string }>('select id, key from search_terms where key = any($1::text[])', [keys])).map((r) => [
      r.key,
      r.id,
    ]),
  );
  const rows = indexRows(
    docs,
    version,
    (key) => ids.get(key)!,
    (id) => counts.set(id, (counts.get(id) ?? 0) + 1),
  );
  await writeDocs(tx, rows.docs);
  return rows.postings;
}

type DocRow = [
  bibId: string,
  title: string,
  words: string,
  sortTitle: string,
  year: number | null,
  materialType: string | null,
  lang: string | null,
  termIds: string,
  version: number,
];
const DOC_COLUMNS = ['bib_id', 'title', 'words', 'sort_title', 'year', 'material_type', 'lang', 'term_ids', 'version'];

/**
 * Postings as three columns: a rebuild makes about 90 of them a bib, and an array for each (and a
 * COPY line made by the general copyText) made a tenth of its time, and much of its garbage.
 */
export interface Postings {
  termIds: number[];
  bibIds: string[];
  weights: number[];
}

export interface IndexRows {
  postings: Postings;
  docs: DocRow[];
}

/**
 * The index rows of some documents (their docs at this version), each key numbered by termId. counted is told the key id of each
 * counted key (KEY.isCounted: a stem's) a document has: those keys' lengths are kept as
 * their df.
 */
export function indexRows(
  docs: SearchDocument[],
  version: number,
  termId: (key: string) => number,
  counted: (id: number) => void,
): IndexRows {
  const rows: IndexRows = { postings: { termIds: [], bibIds: [], weights: [] }, docs: [] };
  const { termIds, bibIds, weights } = rows.postings;
  for (const doc of docs) {
    const own: number[] = [];
    for (const [key, weight] of doc.keys) {
      const id = termId(key);
      termIds.push(id);
      bibIds.push(doc.bibId);
      weights.push(Math.round(weight * 100) / 100);
      if (KEY.isCounted(key)) counted(id);
      if (!KEY.isPair(key)) own.push(id);
    }
    // The document keeps its postings' keys but its pairs' (removeDocs finds those from its words):
    // a bib's postings are found through them when it changes.
    const keys = termIdsLiteral(own);
    rows.docs.push([doc.bibId, doc.title, doc.words, doc.sortTitle, doc.year, doc.materialType, doc.lang, keys, version]);
  }
  return rows;
}

/** Postings as COPY text: numbers only, so nothing to escape. */
function postingsText({ termIds, bibIds, weights }: Postings): string {
  let out = '';
  for (let i = 0; i < termIds.length; i++) out += `${termIds[i]}\t${bibIds[i]}\t${weights[i]}\n`;
  return out;
}

/** Writes documents' rows into search_docs (or, for a rebuild, the docs table it builds). */
export async function writeDocs(tx: Queryable, docs: DocRow[], table = 'search_docs'): Promise<void> {
  if (tx.copyFrom) return tx.copyFrom(table, DOC_COLUMNS, copyText(docs));
  await tx.query(
    `insert into ${table} (${DOC_COLUMNS.join(', ')})
     select b, t, w, s, y, m, l, k::bytea, v
       from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::text[], $9::bigint[])
         as u(b, t, w, s, y, m, l, k, v)`,
    DOC_COLUMNS.map((_, c) => docs.map((r) => r[c])),
  );
}

/**
 * Writes postings into a table of (term_id, bib_id, weight): a rebuild's scratch table, from which
 * its lists are read back in key order (the index itself keeps them only in segments).
 */
export async function writePostings(tx: Queryable, postings: Postings, table: string): Promise<void> {
  // COPY: a batch's tens of thousands of postings without building and parsing arrays.
  if (tx.copyFrom) return tx.copyFrom(table, ['term_id', 'bib_id', 'weight'], postingsText(postings));
  await tx.query(`insert into ${table} (term_id, bib_id, weight) select * from unnest($1::int[], $2::int[], $3::real[])`, [
    postings.termIds,
    postings.bibIds,
    postings.weights,
  ]);
}
