// The search service's pages against the ranking statement (test/helpers/ranking-statement.ts), on a
// generated catalogue: every page of a common search, walked to the end, gives each match exactly
// once in the statement's order; the totals are the statement's; facets change no order; and a
// change to the catalogue is in the next search's total.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BibService } from '../../src/bibs/service.ts';
import { ItemService } from '../../src/items/service.ts';
import { drainQueue } from '../../src/search/indexer.ts';
import type { SearchOptions } from '../../src/search/request.ts';
import { ListCache } from '../../src/search/list-cache.ts';
import { SearchService } from '../../src/search/service.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';
import { importGenerated } from '../helpers/generated.ts';
import { statement } from '../helpers/search-statement.ts';
import { installDocTermIds } from '../helpers/term-ids-sql.ts';

const BIBS = 1500;

describe(`search pages on ${ENGINE}`, () => {
  let testDb: TestDb;
  let service: SearchService;
  before(async () => {
    testDb = await createTestDb();
    await installDocTermIds(testDb.db);
    await importGenerated(testDb.db, 5, BIBS);
    await drainQueue(testDb.db);
    service = new SearchService(testDb.db, new ListCache(64 << 20));
  });
  after(() => testDb.drop());

  const full = (text: string, limit: number, offset: number) => statement(testDb.db, { text, limit, offset });

  /** Every page of `limit` hits, walked to the end: the ids in page order, and each page's total. */
  const walk = async (request: Omit<SearchOptions, 'limit' | 'offset'>, limit: number, total: number) => {
    const ids: string[] = [];
    const totals = new Set<number>();
    for (let offset = 0; offset < total + limit; offset += limit) {
      const page = await service.search({ ...request, limit, offset });
      totals.add(page.total);
      ids.push(...page.hits.map((h) => h.id));
    }
    return { ids, totals: [...totals] };
  };

  for (const text of ['history', 'fiction', 'history fiction', 'the history', '"juvenile literature"']) {
    it(`pages "${text}" to the end: each match once, in the statement's order, with its total`, async () => {
      const expected = await full(text, 5000, 0);
      assert.ok(expected.total > 40, `"${text}" should be common in the generated catalogue (${expected.total})`);
      const { ids, totals } = await walk({ text }, 7, expected.total);
      assert.deepEqual(totals, [expected.total]);
      assert.equal(ids.join(), expected.hits.map((h) => h.id).join(), "the statement's order, each match once");
    });
  }

  it('answers as the statement, page and scores, in every field, for words, phrases, numbers and nothing', async () => {
    const [bib] = await testDb.db.query<{ isbn: string }>(
      'select isbns[1] as isbn from bibs where cardinality(isbns) > 0 order by id limit 1',
    );
    const requests: SearchOptions[] = [];
    for (const text of ['history', 'histories', 'history fiction', 'the history', '"juvenile literature"', '"history" united', bib!.isbn])
      for (const [limit, offset] of [
        [5, 0],
        [5, 10],
        [30, 0],
      ] as const)
        requests.push({ text, limit, offset });
    for (const [text, index] of [
      ['history', 'subject'],
      ['fiction juvenile', 'subject'],
      ['the', 'title'],
    ] as const)
      requests.push({ text, index, limit: 30, offset: 0 });
    for (const request of requests) {
      const expected = await statement(testDb.db, request);
      assert.ok(expected.total > 0, JSON.stringify(request));
      assert.deepEqual(await service.search(request), expected, JSON.stringify(request));
    }
    // A word or number in no bib: nothing.
    for (const text of ['qwxzjv', '9780000000002'])
      assert.deepEqual(await service.search({ text, limit: 5, offset: 0 }), { total: 0, hits: [] }, text);
    // A page past a search's matches still says how many there are.
    assert.deepEqual(await service.search({ text: bib!.isbn, limit: 5, offset: 10 }), {
      total: (await full(bib!.isbn, 5, 0)).total,
      hits: [],
    });
  });

  it("gives each match once in pages of any size where scores tie, in the statement's order", async () => {
    // Searches whose bibs tie at the second decimal: summed in another order, their weights once
    // differed in the last bit, and the ties broke differently from one page to the next.
    for (const text of ['chicago williams', 'chicagos chicago volumes', 'pages "194 pages"', 'history fiction']) {
      const expected = await full(text, 5000, 0);
      assert.ok(expected.total > 4, `${text}: ${expected.total}`);
      for (const limit of [2, 3, 4]) {
        const { ids } = await walk({ text }, limit, expected.total);
        assert.equal(ids.join(), expected.hits.map((h) => h.id).join(), `${text}, pages of ${limit}`);
      }
    }
  });

  it('ranks the same with facets asked for, and counts them as the statement does', async () => {
    for (const offset of [0, 14, 70]) {
      const plain = await service.search({ text: 'history', limit: 7, offset });
      const withFacets = await service.search({ text: 'history', limit: 7, offset, facets: true });
      assert.deepEqual(withFacets.hits, plain.hits);
      assert.equal(withFacets.total, plain.total);
      assert.ok(withFacets.facets!.materialType.length > 0);
    }
    for (const [text, index] of [
      ['history', undefined],
      ['histories', undefined],
      ['history fiction', undefined],
      ['history', 'subject'],
      ['the', 'title'],
    ] as const) {
      const request = { text, index, limit: 5, offset: 0, facets: true };
      const expected = await statement(testDb.db, request);
      assert.ok(expected.total > 40, `${index ?? 'any field'}: ${text} should be common (${expected.total})`);
      assert.deepEqual(await service.search(request), expected, `${index ?? 'any field'}: ${text}`);
    }
  });

  it('counts a bib written or deleted in the next search', async () => {
    const before = await service.search({ text: 'history fiction', limit: 5, offset: 0 });
    const marc = {
      leader: '00000nam a2200000 i 4500',
      fields: [{ tag: '245', ind1: '0', ind2: '0', subfields: [{ code: 'a', value: 'History fiction' }] }],
    };
    const bibs = new BibService(testDb.db, new ItemService(testDb.db));
    const id = await bibs.create({ marc });
    await drainQueue(testDb.db);
    const added = await service.search({ text: 'history fiction', limit: 5, offset: 0 });
    assert.equal(added.total, before.total + 1);
    assert.ok(
      added.hits.some((h) => h.id === id),
      'its title, the search exactly, ranks it on the first page',
    );
    await bibs.delete(id);
    await drainQueue(testDb.db);
    assert.deepEqual(await service.search({ text: 'history fiction', limit: 5, offset: 0 }), before);
  });

  it("ranks a title that is the search first, as the statement does, however far down its words' lists", async () => {
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
      const served = await service.search({ text: 'world history', limit: 5, offset: 0 });
      assert.deepEqual(served.hits[0], best.hits[0]);
      assert.equal(served.total, best.total);
      // A third word the title lacks (in some title: else no title is compared), rare, found with both
      // in some other bib: the title is no match.
      const [rare] = await testDb.db.query<{ word: string }>(
        `select substr(t.key, 3) as word
           from (select doc_term_ids(term_ids) as ids from search_docs) d cross join unnest(d.ids) as u(term_id)
           join search_terms t on t.id = u.term_id
         where t.key ~ '^[*]~[a-z]{4,}$' and t.df between 3 and 20
           and exists (select from search_terms tt where tt.key = 't~' || substr(t.key, 3))
           and (select id from search_terms where key = '*~world') = any(d.ids)
           and (select id from search_terms where key = '*~history') = any(d.ids)
         group by t.key order by t.key limit 1`,
      );
      assert.ok(rare, 'a rare word found with both');
      const text = `world history ${rare.word}`;
      const third = await service.search({ text, limit: 50, offset: 0 });
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
