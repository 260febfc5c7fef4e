// SQL for rebuilding the search index whole (rebuild.ts): new tables filled without indexes, their
// indexes built once at the end, then swapped in for the old ones in one short transaction.
import { copyText } from '../db/copy-text.ts';
import type { Db, Queryable } from '../db/types.ts';
import { INDEXABLE_SELECT, SEARCHABLE, type IndexableBib } from './index-repository.ts';

/**
 * The index tables, as the migrations leave them (0009, 0010, 0015, 0020, 0072, 0073, 0075, 0077, 0078), built under other names
 * (the keys' versions added at the swap). The names of their constraints and indexes are given back
 * at the swap, so that later migrations find them; test/search/rebuild.test.ts compares the
 * swapped-in tables with the migrated ones. postings is no index table but the build's scratch:
 * every posting written as a row, so that PostgreSQL sorts them into key order for the lists to be
 * cut into segments without the build holding them all in memory; dropped before the swap.
 */
export const BUILD = {
  terms: 'search_terms_build',
  postings: 'search_postings_build',
  docs: 'search_docs_build',
  segments: 'search_segments_build',
} as const;

export async function createBuildTables(db: Queryable): Promise<void> {
  await db.exec(`
    drop table if exists ${BUILD.terms}, ${BUILD.postings}, ${BUILD.docs}, ${BUILD.segments};
    create table ${BUILD.terms} (id integer not null, key text not null, df integer not null default 0);
    -- Unlogged: a scratch table, rebuilt from the bibs if the server stops, so not worth its WAL.
    create unlogged table ${BUILD.postings} (term_id integer not null, bib_id integer not null, weight real not null);
    create table ${BUILD.docs} (bib_id bigint not null, title text not null, words text not null, sort_title text not null,
      year integer, material_type text, lang text, term_ids bytea not null, version bigint not null);
    create table ${BUILD.segments} (term_id integer not null, last_bib integer not null, postings bytea not null,
      constraint ${BUILD.segments}_pkey primary key (term_id, last_bib));`);
}

export async function dropBuildTables(db: Queryable): Promise<void> {
  await db.exec(`drop table if exists ${BUILD.terms}, ${BUILD.postings}, ${BUILD.docs}, ${BUILD.segments}`);
}

/** The scratch postings dropped once the lists are cut from them (before the swap, which then stays short). */
export async function dropBuildPostings(db: Queryable): Promise<void> {
  await db.exec(`drop table if exists ${BUILD.postings}`);
}

export async function countSearchable(db: Queryable): Promise<number> {
  return (await db.query<{ n: number }>(`select count(*)::int as n from bibs b where ${SEARCHABLE}`))[0]!.n;
}

/** Searchable bibs after `afterId`, in id order, with what their documents are made of. */
export async function readSearchablePage(db: Queryable, afterId: string, limit: number): Promise<IndexableBib[]> {
  return db.query<IndexableBib>(`${INDEXABLE_SELECT} where b.id > $1 and ${SEARCHABLE} order by b.id limit $2`, [afterId, limit]);
}

/** The keys, with their ids and (for stem keys) counts, a hundred thousand per statement. */
export async function writeBuildTerms(db: Queryable, ids: Map<string, number>, df: Int32Array): Promise<void> {
  let part: [number, string, number][] = [];
  const flush = async () => {
    if (db.copyFrom) await db.copyFrom(BUILD.terms, ['id', 'key', 'df'], copyText(part));
    else
      await db.query(`insert into ${BUILD.terms} (id, key, df) select * from unnest($1::int[], $2::text[], $3::int[])`, [
        part.map((t) => t[0]),
        part.map((t) => t[1]),
        part.map((t) => t[2]),
      ]);
    part = [];
  };
  for (const [key, id] of ids) {
    part.push([id, key, df[id]!]);
    if (part.length === 100_000) await flush();
  }
  if (part.length) await flush();
}

/**
 * The build tables' keys and indexes, each built in one pass over its table (PostgreSQL sorts the
 * rows once, with parallel workers where it has them), where the indexer adds entry by entry.
 */
export async function indexBuildTables(db: Db, onStep: (step: string) => void): Promise<void> {
  const steps: [string, string][] = [
    // The postings sorted once into key and bib order, weights included: buildLists reads a run of
    // keys' lists from it without visiting the table.
    ['postings in key order', `create index ${BUILD.postings}_order on ${BUILD.postings} (term_id, bib_id) include (weight)`],
    ['documents', `alter table ${BUILD.docs} add constraint ${BUILD.docs}_pkey primary key (bib_id)`],
    ['documents by version', `create index ${BUILD.docs}_version on ${BUILD.docs} (version)`],
    [
      'keys',
      `alter table ${BUILD.terms} add constraint ${BUILD.terms}_pkey primary key (id), add constraint ${BUILD.terms}_key_key unique (key),
       alter column id add generated always as identity`,
    ],
  ];
  // A bigger sort memory than PostgreSQL's default 64 MB: tens of millions of postings sort in far
  // fewer runs. (The embedded engine keeps its default: its memory is the process's.)
  const memory = db.engine === 'postgres' ? "set local maintenance_work_mem = '1GB';" : '';
  for (const [step, sql] of steps) {
    onStep(step);
    await db.transaction((tx) => tx.exec(`${memory} ${sql}`));
  }
  await db.query(`select setval(pg_get_serial_sequence('${BUILD.terms}', 'id'), greatest(max(id), 1)) from ${BUILD.terms}`);
}

/**
 * A key's postings (of rows s) as one bytea, int4send(bib) || float4send(weight) each, in bib order:
 * what parsePostings reads. Node decodes the bytea (sent as base64) natively and parses it without a
 * value made per posting, and each weight arrives with its float4 bits exactly.
 */
const POSTINGS_AGG = `string_agg(int4send(s.bib_id) || float4send(s.weight), ''::bytea order by s.bib_id)`;

/** Bytes of one posting as POSTINGS_AGG sends it: its bib (int4send) then its weight (float4send). */
const POSTING_BYTES = 8;

/** The bibs and weights of a list sent as int4send(bib) || float4send(weight) per posting. */
function parsePostings(bytes: Uint8Array): { bibs: Int32Array; weights: Float32Array } {
  const length = bytes.byteLength;
  if (length % POSTING_BYTES !== 0) throw new Error(`a posting list of ${length} bytes is not whole postings`);
  const n = length / POSTING_BYTES;
  const bibs = new Int32Array(n);
  const weights = new Float32Array(n);
  const bits = new Uint32Array(weights.buffer);
  const view = new DataView(bytes.buffer, bytes.byteOffset, length);
  for (let i = 0, p = 0; i < n; i++, p += POSTING_BYTES) {
    bibs[i] = view.getInt32(p);
    bits[i] = view.getUint32(p + 4);
  }
  return { bibs, weights };
}

/** The build's lists of the keys from `first` to `last` (ids), read through the postings' index in key order. */
export async function buildLists(
  db: Queryable,
  first: number,
  last: number,
): Promise<{ termId: number; bibs: Int32Array; weights: Float32Array }[]> {
  const rows = await db.query<{ term_id: number; postings: string }>(
    `select s.term_id, encode(${POSTINGS_AGG}, 'base64') as postings
       from ${BUILD.postings} s where s.term_id between $1 and $2 group by s.term_id`,
    [first, last],
  );
  return rows.map((r) => ({ termId: r.term_id, ...parsePostings(Buffer.from(r.postings, 'base64')) }));
}

/**
 * Puts the built index in place of the old one, in one transaction: searches wait for it (a moment),
 * never see half of either. The queue is left holding the bibs written since `since`, for the
 * indexer to bring in what the build read before they changed. Every key of the new index gets one version, drawn from
 * search_versions once the old index is locked: above any version the old index's keys reached,
 * so a key id's versions keep rising though it now names another key, and a list kept under an
 * old version (list-cache.ts) is never taken for the new list.
 */
export async function swapInBuild(db: Db, since: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.exec(`
      lock table search_terms, search_docs, search_segments in access exclusive mode;
      -- Added with the version as its default, the column's value is kept once, not written into
      -- each of millions of rows while searches wait; later keys draw their own.
      do $$ begin
        execute format('alter table ${BUILD.terms} add column version bigint not null default %s', nextval('search_versions'));
      end $$;
      alter table ${BUILD.terms} alter column version set default nextval('search_versions');
      drop table search_docs, search_terms, search_segments;
      alter table ${BUILD.terms} rename to search_terms;
      alter table ${BUILD.docs} rename to search_docs;
      alter table ${BUILD.segments} rename to search_segments;
      alter index ${BUILD.segments}_pkey rename to search_segments_pkey;
      alter index ${BUILD.terms}_pkey rename to search_terms_pkey;
      alter index ${BUILD.terms}_key_key rename to search_terms_key_key;
      alter sequence ${BUILD.terms}_id_seq rename to search_terms_id_seq;
      alter index ${BUILD.docs}_pkey rename to search_docs_pkey;
      alter index ${BUILD.docs}_version rename to search_docs_version;
      do $$
      declare c record;
      begin
        -- PostgreSQL 18 names NOT NULL constraints too (the embedded engine's is 18): they take the tables' names.
        for c in select conrelid::regclass::text as tab, conname from pg_constraint
                 where conrelid in ('search_terms'::regclass, 'search_docs'::regclass, 'search_segments'::regclass) and conname like 'search\\_%\\_build\\_%' loop
          execute format('alter table %I rename constraint %I to %I', c.tab, c.conname, replace(c.conname, '_build_', '_'));
        end loop;
      end $$;`);
    // Every write of a bib stamps its updatedDate (src/db/change-clock.ts): one stamped before
    // `since` was read by the build, so its place in the queue is done; one stamped since may not
    // have been, and its place may already have been taken by an indexer writing to the old index.
    await tx.query('delete from search_queue q using bibs b where b.id = q.bib_id and b.updated_date < $1', [since]);
    await tx.query('insert into search_queue (bib_id) select id from bibs where updated_date >= $1 on conflict do nothing', [since]);
  });
}

/**
 * The queue vacuumed once the swap has taken off it the bibs the build indexed (after an import,
 * every one): its space is handed back now, where the embedded engine has no autovacuum. Its
 * index is built again too: VACUUM leaves an index's emptied pages in its file (2 MB after
 * 100,000 bibs), and REINDEX of a queue the swap has emptied takes milliseconds. It stops writers
 * queueing bibs while it runs, so it waits at most a second for its lock, not behind a long import.
 */
export async function vacuumQueue(db: Db): Promise<void> {
  await db.exec('vacuum search_queue');
  await db.transaction(async (tx) => {
    await tx.exec("set local lock_timeout = '1s'");
    await tx.exec('reindex table search_queue');
  });
}

/**
 * Each build table vacuumed (and analyzed) once filled, before its indexes exist: the pass marks
 * its pages all-visible, without which reading the postings back through their index in key
 * order (buildLists) would also visit the table for every posting, page after page out of order;
 * the documents and keys are swapped in with their statistics and visibility already made, not
 * left for autovacuum, throttled, a long while after the swap. Each on its own: VACUUM runs
 * outside any transaction.
 */
export async function vacuumBuildTables(db: Queryable): Promise<void> {
  for (const table of [BUILD.postings, BUILD.docs, BUILD.terms]) await db.exec(`vacuum (analyze) ${table}`);
}
