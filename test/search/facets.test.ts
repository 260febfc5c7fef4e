// Facets and filters of GET /v6/bibs/search: counts by material type, language and decade over all
// matches (filters applied), and filters that narrow the results the same way the counts say.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BibService } from '../../src/bibs/service.ts';
import { ItemService } from '../../src/items/service.ts';
import type { MarcRecord } from '../../src/marc/record.ts';
import { drainQueue } from '../../src/search/indexer.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

/** A record whose 008 gives its year and language, and whose leader/06 its material type. */
const record = (title: string, type: string, year: number, lang: string): MarcRecord => ({
  leader: `00000n${type}m a2200000 i 4500`,
  fields: [
    { tag: '008', value: `260101s${year}    xxu           000 0 ${lang} d` },
    { tag: '245', ind1: '0', ind2: '0', subfields: [{ code: 'a', value: title }] },
  ],
});

const CATALOGUE: MarcRecord[] = [
  record('Garden birds', 'a', 1994, 'eng'),
  record('Garden birds of Spain', 'a', 1998, 'spa'),
  record('Birds in the garden', 'a', 2003, 'eng'),
  record('Garden birdsong', 'j', 2005, 'eng'),
  record('Birds of the garden on film', 'g', 2011, 'fre'),
  record('Rivers', 'a', 2011, 'eng'),
];

interface Answer {
  total: number;
  entries: { bib: { id: string; title: string } }[];
  facets?: Record<'materialType' | 'language' | 'decade', { value: string | number; count: number; name?: string }[]>;
}

describe(`search facets and filters on ${ENGINE}`, () => {
  let t: TestApp;
  let reader: string;
  before(async () => {
    t = await createTestApp();
    reader = await bearer(t, ['Bibs_Read']);
    const service = new BibService(t.testDb.db, new ItemService(t.testDb.db));
    for (const marc of CATALOGUE) await service.create({ marc });
    await drainQueue(t.testDb.db);
  });
  after(() => t.close());

  const get = async (query: string) => t.app.inject({ method: 'GET', url: `/v6/bibs/search?${query}`, headers: { authorization: reader } });
  const search = async (query: string): Promise<Answer> => {
    const res = await get(query);
    assert.equal(res.statusCode, 200, res.body + t.logText().slice(-1500));
    return res.json();
  };

  it('counts every match by material type, language and decade, most common first', async () => {
    const answer = await search('text=garden%20birds&facets=true');
    assert.equal(answer.total, 4);
    assert.deepEqual(answer.facets, {
      materialType: [
        { value: 'a', count: 3 },
        { value: 'g', count: 1 },
      ],
      language: [
        { value: 'eng', count: 2, name: 'English' },
        { value: 'fre', count: 1, name: 'French' },
        { value: 'spa', count: 1, name: 'Spanish' },
      ],
      decade: [
        { value: 1990, count: 2 },
        { value: 2000, count: 1 },
        { value: 2010, count: 1 },
      ],
    });
    assert.equal((await search('text=garden%20birds')).facets, undefined, 'facets only when asked for');
  });

  it('filters by material type, language and decade, and counts what is left', async () => {
    const books = await search('text=garden%20birds&materialType=a&facets=true');
    assert.equal(books.total, 3);
    assert.deepEqual(books.facets!.materialType, [{ value: 'a', count: 3 }]);
    assert.deepEqual((await search('text=birds&language=eng,fre')).entries.map((e) => e.bib.title).sort(), [
      'Birds in the garden',
      'Birds of the garden on film',
      'Garden birds',
    ]);
    assert.deepEqual((await search('text=birds&decade=1990')).entries.map((e) => e.bib.title).sort(), [
      'Garden birds',
      'Garden birds of Spain',
    ]);
    assert.equal((await search('text=birds&decade=1990&language=spa&materialType=a')).total, 1);
    assert.equal((await search('text=birds&decade=1980')).total, 0);
  });

  it('gives empty facets when nothing matches', async () => {
    const answer = await search('text=zebra&facets=true');
    assert.equal(answer.total, 0);
    assert.deepEqual(answer.facets, { materialType: [], language: [], decade: [] });
  });

  it('refuses malformed filter values in the error shape', async () => {
    for (const query of [
      'text=birds&decade=1995',
      'text=birds&language=english',
      'text=birds&materialType=',
      'text=birds&decade=abc',
      'text=birds&facets=maybe',
    ]) {
      const res = await get(query);
      assert.equal(res.statusCode, 400, query);
      const body = res.json();
      assert.equal(typeof body.code, 'number', query);
      assert.equal(body.httpStatus, 400, query);
    }
  });
});
