// The evaluator in Node (src/search/evaluate.ts) against the ranking statement it must match
// exactly (search and facetCounts, test/helpers/ranking-statement.ts), on the shared real records and a few
// written ones: for every search the planner makes of the judged queries, of the other search
// tests' texts and of generated ones, the same total, the same page in the same order, the same
// scores to the last bit, and the same facets (counted over its matches by the facet columns,
// facet-columns.ts).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it, type TestContext } from 'node:test';
import { importFiles, importRecords } from '../../src/bibs/import.ts';
import type { DataField, MarcRecord } from '../../src/marc/record.ts';
import { changedDocsReader, docReader, type DocReader } from '../../src/search/doc-repository.ts';
import { evaluate } from '../../src/search/evaluate.ts';
import { topMatches } from '../../src/search/top-matches.ts';
import { FacetColumns } from '../../src/search/facet-columns.ts';
import { drainQueue } from '../../src/search/indexer.ts';
import { readSearch, searchSql } from '../../src/search/plan.ts';
import type { SearchOptions } from '../../src/search/request.ts';
import { terms } from '../../src/search/term-repository.ts';
import type { SearchSql } from '../../src/search/types.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';
import { facetCounts, readArrayLists, search } from '../helpers/ranking-statement.ts';
import { generatedSearches, seeded, textsOfSearchTests, type MaterialDoc } from '../helpers/search-queries.ts';
import { chunks, MARC_DIR } from '../helpers/shared-data.ts';
import { df } from '../helpers/written-marc.ts';
import { JUDGMENTS } from './relevance-judgments.ts';

const FACET_VALUES = 20;

/** A record named by its 001, with this title, published in `year` (in `lang`) when given (008). */
const record = (name: string, title: string, fields: DataField[] = [], year?: number, lang = 'eng'): MarcRecord => ({
  leader: '00000nam a2200000 i 4500',
  fields: [
    { tag: '001', value: name },
    ...(year ? [{ tag: '008', value: `260101s${year}    xxu           000 0 ${lang} d` }] : []),
    df('245', ['a', title]),
    ...fields,
  ],
});

const NOTE = df('500', ['a', 'Quillon']);

/**
 * Written records that every one carries "quillon": sort titles equal but for case (ties go by bib
 * id), and with characters whose order differs between UTF-16 code units (JavaScript's `<`) and
 * code points (the database's C collations), a private-use character and an emoji, in titles and
 * in language codes (008/35-37 as written, a facet's values: one bib each, tied); a word alone and
 * with its other forms (an excluded word keeps a bib that has only its other forms); titles exactly,
 * leading with, or containing the words; years, and none.
 */
const WRITTEN: MarcRecord[] = [
  record('w-zebra-upper', 'Zebra crossings', [NOTE], 1987),
  record('w-zebra-lower', 'zebra crossings', [NOTE], 1987),
  record('w-emile', 'Émile et les quillons', [NOTE]),
  record('w-emoji', '\u{1F600} smiles', [NOTE], 2003, '\u{1F600}q'),
  record('w-private', '\uE000 private', [NOTE], 2003, '\uE000qu'),
  record('w-history', 'A history of quillon fens'),
  record('w-histories', 'Histories of quillon fens', [], 1999),
  record('w-both', 'The history and histories of quillon', [], 1990),
  record('w-exact', 'Quillon'),
  record('w-pair', 'Quillon fens', [], 1912),
  record('w-inside', 'Walks by quillon fens at dusk', [], 1912),
];

const WRITTEN_TEXTS = [
  'quillon',
  'quillon -history',
  'quillon -histories',
  'quillon fens',
  'fens quillon',
  '"quillon fens"',
  'quillon -"quillon fens"',
  'history quillon',
  'histories OR zebra quillon',
  'quillon the',
];

interface Answer {
  total: number;
  hits: { id: string; score: number }[];
}

describe('the best matches picked without sorting them all', () => {
  it('answers the first k of a full sort by score, then bib, whatever the ties', () => {
    const rand = seeded(5);
    for (let round = 0; round < 300; round++) {
      const n = Math.floor(rand() * 400);
      // Few distinct scores, so most matches tie; bibs ascending, as the lists give them.
      const bibs = Array.from({ length: n }, (_, i) => i * 2 + Math.floor(rand() * 2));
      const scores = bibs.map(() => Math.floor(rand() * 6) / 2);
      const sorted = bibs.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || bibs[a]! - bibs[b]!);
      const k = Math.floor(rand() * (n + 5));
      assert.deepEqual(topMatches(bibs, scores, k), sorted.slice(0, k), `round ${round}, ${n} matches, k ${k}`);
    }
  });
});

describe(`the evaluator answers as the ranking statement, on ${ENGINE}`, () => {
  let t: TestDb;
  let docs: DocReader;
  const columns = new FacetColumns();
  const seen = {
    compared: 0,
    matched: 0,
    facets: 0,
    sqlMs: 0,
    evaluateMs: 0,
    docsMs: 0,
    titleCandidates: 0,
    titlesRead: 0,
    phrasesNarrowed: 0,
    countedOnly: 0,
  };

  before(async () => {
    t = await createTestDb();
    const names = fs
      .readdirSync(MARC_DIR)
      .filter((name) => /\.(mrc|dat|marc|xml|json)$/.test(name))
      .sort();
    await importFiles(
      t.db,
      names.map((name) => ({ name, open: () => chunks(name, 64 * 1024) })),
      { itemMap: null },
    );
    const written = WRITTEN.map((r, i) => ({ position: `written ${i + 1}`, record: r }));
    await importRecords(t.db, [{ name: 'written', records: written }], { itemMap: null });
    await drainQueue(t.db);
    docs = docReader(t.db);
  });
  after(() => t.drop());

  /** The ranking statement's answer: the page, and its total (counted again when the page is past the end). */
  const statement = async (sql: SearchSql) => {
    const rows = await search(t.db, sql);
    let total = rows[0]?.total ?? 0;
    if (rows.length === 0 && sql.offset > 0) total = (await search(t.db, { ...sql, limit: 1, offset: 0 }))[0]?.total ?? 0;
    return { total, hits: rows.map((r) => ({ id: r.id, score: r.score })) };
  };

  /** Both answers to a SearchSql, which must be equal; the facets too when asked. */
  const compare = async (sql: SearchSql, label: string, facets = true): Promise<Answer> => {
    const ids = [
      ...[...sql.required, ...sql.optional].flatMap((c) => c.termIds),
      ...sql.excluded,
      ...sql.excludedStems.flatMap((e) => [e.stem, ...(e.others === null ? [] : [e.others])]),
      ...sql.titleLists,
      ...sql.phrasePairs,
      ...sql.titlePairs,
      ...(sql.titleStart?.list == null ? [] : [sql.titleStart.list]),
    ];
    const lists = await readArrayLists(t.db, ids);
    let start = performance.now();
    const expected = await statement(sql);
    seen.sqlMs += performance.now() - start;
    start = performance.now();
    // The docs' reads timed apart: the evaluator's own time is the rest. The bibs whose docs were
    // read whole (titles), and those only checked for phrases.
    const asked: number[] = [];
    const checked: number[] = [];
    const timed = async <T>(read: Promise<T>): Promise<T> => {
      const begun = performance.now();
      try {
        return await read;
      } finally {
        seen.docsMs += performance.now() - begun;
      }
    };
    const timedDocs: DocReader = {
      read: (bibs, needs) => {
        asked.push(...bibs);
        return timed(docs.read(bibs, needs));
      },
      holding: (bibs, needs) => {
        checked.push(...bibs);
        return timed(docs.holding(bibs, needs));
      },
    };
    // Titles read one at first, then two, four…: the bound on what a title can add stops the reads early.
    await columns.refresh(changedDocsReader(t.db));
    const { matched, ...got } = await evaluate(sql, lists, timedDocs, columns.filterOf(sql.filters), {
      everyMatch: true,
      oneState: true,
      firstTitles: 1,
    });
    seen.evaluateMs += performance.now() - start;
    assert.deepStrictEqual(got, expected, `${label}\n${JSON.stringify(sql)}`);
    assert.equal(matched.length, got.total, `matches of ${label}`);
    // Without every match (no facets asked for), the same page and total.
    const { matched: none, ...without } = await evaluate(sql, lists, docs, columns.filterOf(sql.filters), {
      everyMatch: false,
      oneState: true,
    });
    assert.deepStrictEqual(without, got, `${label}, every match not asked for`);
    if (none.length < got.total) seen.countedOnly++;
    // A phrase is checked only on the texts of bibs in its pairs' lists.
    const unpaired = [...asked, ...checked].filter((bib) => !sql.phrasePairs.every((id) => lists.get(id)?.bibs.includes(bib)));
    assert.deepEqual(unpaired, [], `docs read that hold no pair of a phrase: ${label}`);
    if (sql.phrasePairs.length > 0) seen.phrasesNarrowed++;
    // Ranked by relevance (filters are tested on the facet columns, phrases by ids alone), only
    // bibs in every title list and title pair list are read whole.
    if (sql.sort === 'relevance') {
      if (sql.phrases.length + sql.excludedPhrases.length === 0)
        assert.deepEqual(checked, [], `phrases checked without a phrase: ${label}`);
      const boostable = (bib: number) => [...sql.titleLists, ...sql.titlePairs].every((id) => lists.get(id)?.bibs.includes(bib));
      const unboostable = asked.filter((bib) => !boostable(bib));
      assert.deepEqual(unboostable, [], `docs read that no title boost can reach: ${label}`);
      if (sql.title === null) assert.deepEqual(asked, [], `docs read without a title to compare: ${label}`);
      else {
        seen.titleCandidates += matched.filter(boostable).length;
        seen.titlesRead += asked.length;
      }
    }
    seen.compared++;
    if (expected.total > 0) seen.matched++;
    if (!facets) return expected;
    const counted = (await facetCounts(t.db, sql, FACET_VALUES)).map(({ facet, value, count }) => ({ facet, value, count }));
    const made = columns.count(matched, FACET_VALUES);
    // In the statement's shape: facets in name order, values as text.
    const rows = (['decade', 'language', 'materialType'] as const).flatMap((facet) =>
      made[facet].map(({ value, count }) => ({ facet, value: String(value), count })),
    );
    assert.deepStrictEqual(rows, counted, `facets of ${label}\n${JSON.stringify(sql)}`);
    seen.facets++;
    return expected;
  };

  /** The search made of a request; undefined when nothing can match. */
  const planned = async (request: SearchOptions): Promise<SearchSql | undefined> => {
    const read = readSearch(request);
    if (!read) return undefined;
    return searchSql(read, request, await terms(t.db, read.keys));
  };

  /** A request's search compared; false when nothing can match. */
  const compareRequest = async (request: SearchOptions, facets = true): Promise<boolean> => {
    const sql = await planned(request);
    if (sql) await compare(sql, JSON.stringify(request), facets);
    return sql !== undefined;
  };

  const report = (ctx: TestContext, what: string, before: typeof seen) =>
    ctx.diagnostic(
      `${what}: ${seen.compared - before.compared} searches compared (${seen.matched - before.matched} with matches, ` +
        `${seen.facets - before.facets} with facets); statement ${(seen.sqlMs - before.sqlMs).toFixed(0)} ms, ` +
        `evaluator ${(seen.evaluateMs - before.evaluateMs).toFixed(0)} ms (reading docs ${(seen.docsMs - before.docsMs).toFixed(0)} ms of it)`,
    );

  it('the fifty judged searches, in every order, on the first page and past it', async (ctx) => {
    const start = { ...seen };
    for (const { text } of JUDGMENTS) {
      await compareRequest({ text, limit: 10, offset: 0 });
      await compareRequest({ text, sort: 'title', limit: 5, offset: 5 }, false);
      await compareRequest({ text, sort: 'year', limit: 20, offset: 0 }, false);
      await compareRequest({ text, limit: 3, offset: 3 }, false);
    }
    report(ctx, 'judged', start);
    assert.ok(seen.matched - start.matched >= 150, `${seen.matched - start.matched} judged searches matched`);
  });

  it('the texts of the other search tests and of the written records, in every order and every field', async (ctx) => {
    const start = { ...seen };
    const texts = [...textsOfSearchTests(), ...WRITTEN_TEXTS];
    for (const text of texts) {
      for (const sort of ['relevance', 'title', 'year'] as const) await compareRequest({ text, sort, limit: 10, offset: 0 });
      await compareRequest({ text, index: 'title', limit: 10, offset: 0 });
      await compareRequest({ text, index: 'note', sort: 'title', limit: 10, offset: 0 });
      await compareRequest({ text, limit: 2, offset: 2 }, false);
    }
    report(ctx, `${texts.length} texts`, start);
    assert.ok(seen.matched - start.matched >= 60, `${seen.matched - start.matched} of their searches matched`);
  });

  it('generated searches of the catalogue’s own words', async (ctx) => {
    const start = { ...seen };
    const material = await materialDocs(t);
    const searches = generatedSearches(20261129, 700, material);
    let nothing = 0;
    for (const request of searches) if (!(await compareRequest(request))) nothing++;
    report(ctx, `${searches.length} generated (${nothing} found nothing to search)`, start);
    assert.ok(seen.matched - start.matched >= 200, `${seen.matched - start.matched} generated searches matched`);
  });

  it('written queries: LIKE wildcards and escapes in phrases and titles, clauses past the 62nd, no required clause', async (ctx) => {
    const base = (await planned({ text: 'pride prejudice', limit: 50, offset: 0 }))!;
    const [pride, prejudice] = base.required;
    const variants: [string, Partial<SearchSql>][] = [
      ['_ takes one character', { phrases: [' pri_e and '] }],
      ['% inside a phrase', { phrases: [' pride%prejudice '] }],
      ['an escaped space', { phrases: [' pride\\ and '] }],
      ['an escaped %', { phrases: [' pride\\%'] }],
      ['excluded with _', { excludedPhrases: [' pr_de '] }],
      // (A title with wildcards could be boosted outside the lists of its words: every match's title is compared.)
      // (A title of other words than the search's: which titles start with it, or hold its pairs, is not known.)
      ['a title with _', { title: ' pride and prejudic_ ', titleLists: [], titlePairs: [], titleStart: undefined }],
      ['a title with %', { title: ' pride%prejudice ', titleLists: [], titlePairs: [], titleStart: undefined }],
      ['a title exactly', { title: ' pride and prejudice ', titlePairs: [], titleStart: undefined }],
      [
        '63 clauses, the last only ranking',
        { required: [...Array.from({ length: 62 }, () => pride!), { termIds: [2147480000], boosts: [1] }] },
      ],
      [
        '63 clauses, the 62nd not held',
        { required: [...Array.from({ length: 61 }, () => pride!), { termIds: [2147480000], boosts: [1] }, prejudice!] },
      ],
      ['no required clause', { required: [], optional: [pride!, prejudice!] }],
      ['a boost no real holds', { required: [{ termIds: pride!.termIds, boosts: pride!.boosts.map((b) => b * 1.1) }, prejudice!] }],
    ];
    for (const [label, change] of variants) {
      const answer = await compare({ ...base, ...change }, label);
      await compare({ ...base, ...change, sort: 'title' }, label);
      ctx.diagnostic(`${label}: ${answer.total} matches, best ${answer.hits[0]?.score}`);
    }
  });

  it('orders by sort title as the database collates, not as JavaScript compares strings', async () => {
    const rows = await t.db.query<{ sort_title: string }>(
      `select sort_title from search_docs d where d.words like '% quillon %' order by sort_title, bib_id`,
    );
    const titles = rows.map((r) => r.sort_title);
    assert.notDeepEqual([...titles].sort(), titles, 'the written titles sort alike either way: they show nothing');
    await compareRequest({ text: 'quillon', sort: 'title', limit: 20, offset: 0 });
  });

  it('compared every search above (the file’s totals)', (ctx) => {
    ctx.diagnostic(`in all on ${ENGINE}: ${seen.compared} searches compared (${seen.matched} with matches), ${seen.facets} with facets`);
    // (A search whose phrase has a pair no text holds finds nothing before any list is read: not compared.)
    assert.ok(seen.compared >= 800, `${seen.compared} searches compared`);
    // Titles are read only while they can lift a match into the page: fewer than every candidate's.
    ctx.diagnostic(`titles read for the title's boost: ${seen.titlesRead} of ${seen.titleCandidates} candidates`);
    ctx.diagnostic(`searches whose phrases' pairs narrowed the texts checked: ${seen.phrasesNarrowed}`);
    assert.ok(seen.phrasesNarrowed >= 20, `${seen.phrasesNarrowed} searches with phrase pairs`);
    assert.ok(seen.titlesRead < seen.titleCandidates, `${seen.titlesRead} titles read of ${seen.titleCandidates}`);
    // A search of one word, unasked for its every match, counts its matches by its list (cover-list.ts).
    ctx.diagnostic(`searches counted without listing their matches: ${seen.countedOnly}`);
    assert.ok(seen.countedOnly >= 50, `${seen.countedOnly} searches counted by their list`);
  });
});

/** The catalogue's docs, for generated searches. */
async function materialDocs(t: TestDb): Promise<MaterialDoc[]> {
  const rows = await t.db.query<{ title: string; words: string; material_type: string | null; lang: string | null; year: number | null }>(
    'select title, words, material_type, lang, year from search_docs order by bib_id',
  );
  const split = (text: string) => text.trim().split(' ').filter(Boolean);
  return rows.map((r) => ({ title: split(r.title), words: split(r.words), materialType: r.material_type, lang: r.lang, year: r.year }));
}
