// One-word and all-words searches rank the pool of the rarest word's best bibs first and read the
// rest only for a page beyond it. On a generated catalogue with a tiny pool: every page of a
// common word, walked to the end, gives each match exactly once; the totals are those a full
// count gives; and the pool's pages are the first pages of the full ranking.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BibService } from '../../src/bibs/service.ts';
import { ItemService } from '../../src/items/service.ts';
import { drainQueue } from '../../src/search/indexer.ts';
import { SearchService } from '../../src/search/service.ts';
import { stem, STOP_WORDS } from '../../src/search/text.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';
import { importGenerated } from '../helpers/generated.ts';

const BIBS = 1500;

describe(`search pool on ${ENGINE}`, () => {
  let testDb: TestDb;
  let pooled: SearchService;
  before(async () => {
    testDb = await createTestDb();
    await importGenerated(testDb.db, 5, BIBS);
    await drainQueue(testDb.db);
    pooled = new SearchService(testDb.db, 15);
  });
  after(() => testDb.drop());

  /** The same search through the full evaluation. */
  const full = (text: string, limit: number, offset: number) => pooled.search({ text, limit, offset, exhaustive: true });

  for (const text of ['history', 'fiction', 'history fiction', 'the history', '"juvenile literature"']) {
    it(`pages "${text}" to the end: each match once, the full count, the full ranking's head`, async () => {
      const first = await full(text, 5000, 0);
      assert.ok(first.total > 40, `"${text}" should be common in the generated catalogue (${first.total})`);
      const seen: string[] = [];
      for (let offset = 0; offset < first.total + 7; offset += 7) {
        const page = await pooled.search({ text, limit: 7, offset });
        assert.equal(page.total, first.total, `total at offset ${offset}`);
        seen.push(...page.hits.map((h) => h.id));
      }
      assert.equal(seen.length, first.total);
      assert.equal(new Set(seen).size, first.total, 'no bib twice');
      assert.deepEqual(new Set(seen), new Set(first.hits.map((h) => h.id)), 'the same matches as the full evaluation');
      // The pool's first page is the best of the pool: every bib on it scores at least as much as any bib after it in the pool.
      const head = await pooled.search({ text, limit: 5, offset: 0 });
      const scores = head.hits.map((h) => h.relevance);
      assert.deepEqual(
        [...scores].sort((a, b) => b - a),
        scores,
        'in score order',
      );
    });
  }

  it('matches the full evaluation exactly when the pool holds every match', async () => {
    const roomy = new SearchService(testDb.db, 100_000);
    for (const text of ['history', 'history fiction', 'the history', '"juvenile literature"', '"history" united']) {
      const fast = await roomy.search({ text, limit: 30, offset: 0 });
      const slow = await roomy.search({ text, limit: 30, offset: 0, exhaustive: true });
      assert.equal(fast.total, slow.total);
      assert.deepEqual(fast.hits, slow.hits, text);
    }
    for (const [text, index] of [
      ['history', 'subject'],
      ['fiction juvenile', 'subject'],
      ['the', 'title'],
    ] as const) {
      const fast = await roomy.search({ text, index, limit: 30, offset: 0 });
      const slow = await roomy.search({ text, index, limit: 30, offset: 0, exhaustive: true });
      assert.ok(fast.total > 0, `${index}: ${text}`);
      assert.equal(fast.total, slow.total);
      assert.deepEqual(fast.hits, slow.hits, `${index}: ${text}`);
    }
  });

  it('scores documents indexed before their weights were kept (migration 0020) as the rest, until indexed again', async () => {
    const roomy = new SearchService(testDb.db, 100_000);
    const queries = [['history fiction'], ['"juvenile literature"'], ['"history" united'], ['fiction juvenile', 'subject']] as const;
    const answer = () => Promise.all(queries.map(([text, index]) => roomy.search({ text, index, limit: 30, offset: 0 })));
    const withWeights = await answer();
    assert.ok(withWeights.every((r) => r.hits.length > 10));
    // Half the documents as an index built before 0020 left them: no weights.
    await testDb.db.query("update search_docs set weights = '{}' where bib_id % 2 = 0");
    assert.deepEqual(await answer(), withWeights);
    await testDb.db.query('insert into search_queue (bib_id) select bib_id from search_docs where cardinality(weights) = 0');
    await drainQueue(testDb.db);
    const [left] = await testDb.db.query<{ n: number }>(
      'select count(*)::int as n from search_docs where cardinality(weights) <> cardinality(terms)',
    );
    assert.equal(left!.n, 0, 'indexed again, every document keeps its weights');
    assert.deepEqual(await answer(), withWeights);
  });

  it('answers one word or number from its keys in one statement as the full evaluation does, at any page of the first pool', async () => {
    // (The pages of a word past the first pool, and their seams with it, are walked above.)
    const roomy = new SearchService(testDb.db, 1000);
    const [bib] = await testDb.db.query<{ isbn: string }>(
      'select isbns[1] as isbn from bibs where cardinality(isbns) > 0 order by id limit 1',
    );
    // "histories" is not its own stem: its exact form's list and its stem's are both read.
    for (const text of ['history', 'histories', 'fiction', bib!.isbn]) {
      for (const [limit, offset] of [
        [5, 0],
        [5, 10],
        [15, 0],
      ] as const) {
        const fast = await roomy.search({ text, limit, offset });
        const slow = await roomy.search({ text, limit, offset, exhaustive: true });
        assert.ok(slow.total > 0, text);
        assert.equal(fast.total, slow.total, `${text} total`);
        assert.deepEqual(fast.hits, slow.hits, `${text} at ${offset}`);
      }
    }
    // A word or number in no bib: nothing, at once.
    for (const text of ['qwxzjv', '9780000000002'])
      assert.deepEqual(await roomy.search({ text, limit: 5, offset: 0 }), { total: 0, hits: [] }, text);
    // A page past a word's matches still says how many there are.
    const few = await roomy.search({ text: bib!.isbn, limit: 5, offset: 10 });
    assert.deepEqual(few, { total: (await full(bib!.isbn, 5, 0)).total, hits: [] });
  });

  it('takes one pool, sized by their count, for the first page of two words seldom found together, and pages it to the end', async () => {
    // Two words each in many bibs but together in few, from the catalogue's own text.
    const docs = (await testDb.db.query<{ words: string }>('select words from search_docs')).map((d) => new Set(d.words.trim().split(' ')));
    const bibsOf = new Map<string, number>();
    for (const words of docs)
      for (const w of words) if (w.length > 3 && !STOP_WORDS.has(w) && !/\d/.test(w)) bibsOf.set(w, (bibsOf.get(w) ?? 0) + 1);
    const candidates = [...bibsOf]
      .filter(([, n]) => n >= 60 && n <= 600)
      .map(([w]) => w)
      .sort();
    let seldom: { text: string; ratio: number } | undefined;
    for (const [i, a] of candidates.entries()) {
      for (const b of candidates.slice(i + 1)) {
        if (stem(a) === stem(b)) continue;
        const both = docs.filter((words) => words.has(a) && words.has(b)).length;
        const ratio = Math.min(bibsOf.get(a)!, bibsOf.get(b)!) / both;
        if (both >= 6 && (!seldom || ratio > seldom.ratio)) seldom = { text: `${a} ${b}`, ratio };
      }
    }
    assert.ok(seldom && seldom.ratio >= 20, `two words seldom found together in the generated catalogue (${JSON.stringify(seldom)})`);
    const pools: string[] = [];
    const query = testDb.db.query.bind(testDb.db);
    const counting = new SearchService(
      {
        ...testDb.db,
        query: (text, params, options) => {
          if (text.includes('m as materialized')) pools.push(text); // a pool ranked (rankPool)
          return query(text, params, options);
        },
      },
      15,
    );
    const first = await counting.search({ text: seldom.text, limit: 3, offset: 0 });
    assert.equal(first.hits.length, 3);
    assert.equal(pools.length, 1, 'the first pool held the first page');
    const full = await counting.search({ text: seldom.text, limit: 5000, offset: 0, exhaustive: true });
    const seen: string[] = [];
    for (let offset = 0; offset < full.total + 3; offset += 3)
      seen.push(...(await counting.search({ text: seldom.text, limit: 3, offset })).hits.map((h) => h.id));
    assert.equal(seen.length, full.total);
    assert.deepEqual(new Set(seen), new Set(full.hits.map((h) => h.id)), 'each match once');
  });

  it('gives each match once however small the pool, its scores the same whichever pool a page comes from', async () => {
    // Searches whose bibs tie at the second decimal: their weights, summed in a different order by
    // pools of different sizes, once differed in the last bit, and the ties broke differently.
    for (const [text, poolSize] of [
      ['chicago williams', 3],
      ['chicagos chicago volumes', 1],
      ['pages "194 pages"', 3],
      ['history fiction', 2],
    ] as const) {
      const tiny = new SearchService(testDb.db, poolSize);
      const full = await tiny.search({ text, limit: 5000, offset: 0, exhaustive: true });
      assert.ok(full.total > 4, `${text}: ${full.total}`);
      for (const limit of [2, 3, 4]) {
        const seen: string[] = [];
        for (let offset = 0; offset < full.total; offset += limit)
          seen.push(...(await tiny.search({ text, limit, offset })).hits.map((h) => h.id));
        assert.equal(new Set(seen).size, seen.length, `${text}, pool ${poolSize}, pages of ${limit}: no bib twice`);
        assert.deepEqual(new Set(seen), new Set(full.hits.map((h) => h.id)), `${text}, pool ${poolSize}, pages of ${limit}: every match`);
      }
    }
  });

  it('ranks the same with facets asked for (they are counted beside the ranking)', async () => {
    for (const offset of [0, 14, 70]) {
      const plain = await pooled.search({ text: 'history', limit: 7, offset });
      const withFacets = await pooled.search({ text: 'history', limit: 7, offset, facets: true });
      assert.deepEqual(withFacets.hits, plain.hits);
      assert.equal(withFacets.total, plain.total);
      assert.ok(withFacets.facets!.materialType.length > 0);
    }
  });

  it("counts a single word's facets from its list alone as the full evaluation counts them", async () => {
    for (const [text, index] of [
      ['history', undefined],
      ['histories', undefined],
      ['fiction', undefined],
      ['history', 'subject'],
      ['the', 'title'],
    ] as const) {
      const fromList = await pooled.search({ text, index, limit: 5, offset: 0, facets: true });
      const full = await pooled.search({ text, index, limit: 5, offset: 0, facets: true, exhaustive: true });
      assert.ok(fromList.total > 40, `${index ?? 'any field'}: ${text} should be common (${fromList.total})`);
      assert.deepEqual(fromList.facets, full.facets, `${index ?? 'any field'}: ${text}`);
      const counted = fromList.facets!.language.reduce((sum, v) => sum + v.count, 0);
      assert.ok(counted > 0 && counted <= fromList.total);
    }
  });

  it('keeps the total of several words until one of their lists changes', async () => {
    const before = await pooled.search({ text: 'history fiction', limit: 5, offset: 0 });
    const kept = await testDb.db.query<{ total: number }>('select total from search_counts');
    assert.ok(
      kept.some((r) => r.total === before.total),
      'the count was kept',
    );
    // It is read, not counted again: a kept count changed by hand is what the search answers.
    await testDb.db.query('update search_counts set total = total + 1000 where total = $1', [before.total]);
    assert.equal((await pooled.search({ text: 'history fiction', limit: 5, offset: 0 })).total, before.total + 1000);
    await testDb.db.query('update search_counts set total = total - 1000 where total = $1', [before.total + 1000]);
    const marc = {
      leader: '00000nam a2200000 i 4500',
      fields: [{ tag: '245', ind1: '0', ind2: '0', subfields: [{ code: 'a', value: 'A history of fiction' }] }],
    };
    const id = await new BibService(testDb.db, new ItemService(testDb.db)).create({ marc });
    await drainQueue(testDb.db);
    assert.equal((await pooled.search({ text: 'history fiction', limit: 5, offset: 0 })).total, before.total + 1);
    await new BibService(testDb.db, new ItemService(testDb.db)).delete(id);
    await drainQueue(testDb.db);
    assert.equal((await pooled.search({ text: 'history fiction', limit: 5, offset: 0 })).total, before.total);
  });

  it("ranks a title that is the search first, as the full evaluation does, however far down its words' lists", async () => {
    const bibs = new BibService(testDb.db, new ItemService(testDb.db));
    const exact = await bibs.create({
      marc: {
        leader: '00000nam a2200000 i 4500',
        fields: [{ tag: '245', ind1: '0', ind2: '0', subfields: [{ code: 'a', value: 'World history' }] }],
      },
    });
    await drainQueue(testDb.db);
    try {
      const best = await full('world history', 5, 0);
      assert.equal(best.hits[0]?.id, exact, 'the exact title ranks first in the full evaluation');
      // Its words weigh no more than any title's: beyond a first pool of the words' two best bibs.
      const poolOnly = await new SearchService(testDb.db, 1).search({ text: 'world history', limit: 5, offset: 0 });
      assert.deepEqual(poolOnly.hits[0], best.hits[0]);
      assert.equal(poolOnly.total, best.total);
      // A third word the title lacks (in some title: else no title is compared), rare, found with both
      // in some other bib: the title is no match.
      const [rare] = await testDb.db.query<{ word: string }>(
        `select substr(t.key, 3) as word from search_terms t join search_postings p on p.term_id = t.id
         where t.key ~ '^[*]~[a-z]{4,}$' and t.df between 3 and 20
           and exists (select from search_terms tt where tt.key = 't~' || substr(t.key, 3))
           and p.bib_id in (select w.bib_id from search_postings w join search_postings h on h.bib_id = w.bib_id
                            where w.term_id = (select id from search_terms where key = '*~world')
                              and h.term_id = (select id from search_terms where key = '*~history'))
         group by t.key order by t.key limit 1`,
      );
      assert.ok(rare, 'a rare word found with both');
      const text = `world history ${rare.word}`;
      const third = await new SearchService(testDb.db, 1).search({ text, limit: 50, offset: 0 });
      const thirdFull = await full(text, 50, 0);
      assert.ok(thirdFull.total > 0, 'the three words are found together');
      assert.ok(!third.hits.some((h) => h.id === exact), 'the title without the third word is not a match');
      assert.equal(third.total, thirdFull.total);
    } finally {
      await bibs.delete(exact);
      await drainQueue(testDb.db);
    }
  });
});
