// A small catalogue written for a search test: its bibs created through the bib service and
// indexed, then searched through GET /v6/bibs/search, each bib found named by its key.
import assert from 'node:assert/strict';
import { BibService } from '../../src/bibs/service.ts';
import { ItemService } from '../../src/items/service.ts';
import type { MarcRecord } from '../../src/marc/record.ts';
import { drainQueue } from '../../src/search/indexer.ts';
import { createTestApp, type TestApp } from './app.ts';
import { bearer } from './tokens.ts';

export interface SearchAnswer {
  count: number;
  total: number;
  start: number;
  entries: { relevance: number; bib: { id: string; title: string } }[];
}

export interface SearchCatalogue {
  t: TestApp;
  /** A bearer token with Bibs_Read. */
  reader: string;
  /** Each bib's id by its key. */
  ids: Record<string, string>;
  /** A bib's key, or its id when it is not one of the catalogue's. */
  name(id: string): string;
  /** GET /v6/bibs/search?`query`, which must answer 200. */
  search(query: string): Promise<SearchAnswer>;
  /** The keys of the bibs it finds, in its order. */
  found(query: string): Promise<string[]>;
}

export async function openSearchCatalogue(records: Record<string, MarcRecord>): Promise<SearchCatalogue> {
  const t = await createTestApp();
  const reader = await bearer(t, ['Bibs_Read']);
  const service = new BibService(t.testDb.db, new ItemService(t.testDb.db));
  const ids: Record<string, string> = {};
  for (const [key, record] of Object.entries(records)) ids[key] = await service.create({ marc: record });
  await drainQueue(t.testDb.db);
  const name = (id: string) => Object.keys(ids).find((k) => ids[k] === id) ?? id;
  const search = async (query: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/v6/bibs/search?${query}`, headers: { authorization: reader } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json<SearchAnswer>();
  };
  return { t, reader, ids, name, search, found: async (query) => (await search(query)).entries.map((e) => name(e.bib.id)) };
}
