// A search request answered by the ranking statement (ranking-statement.ts), the full ranking
// in one pass over the index, in the shape the search service answers it: what the service's
// answers are compared with.
import type { Db } from '../../src/db/types.ts';
import { readSearch, searchSql } from '../../src/search/plan.ts';
import type { SearchOptions } from '../../src/search/request.ts';
import { terms } from '../../src/search/term-repository.ts';
import type { SearchFacets, SearchResult } from '../../src/search/service.ts';
import { facetCounts, search } from './ranking-statement.ts';

/** The request answered by the ranking statement, as the service answers it (relevance to two decimals), with its facets. */
export async function statement(db: Db, request: SearchOptions): Promise<SearchResult> {
  const read = readSearch(request);
  const sql = read && searchSql(read, request, await terms(db, read.keys));
  if (!sql) return { total: 0, hits: [] };
  const rows = await search(db, sql);
  const total = rows[0]?.total ?? (sql.offset > 0 ? ((await search(db, { ...sql, limit: 1, offset: 0 }))[0]?.total ?? 0) : 0);
  const result: SearchResult = { total, hits: rows.map((r) => ({ id: r.id, relevance: Math.round(r.score * 100) / 100 })) };
  if (!request.facets) return result;
  const facets: SearchFacets = { materialType: [], language: [], decade: [] };
  for (const { facet, value, count } of await facetCounts(db, sql, 20)) {
    if (facet === 'decade') facets.decade.push({ value: Number(value), count });
    else facets[facet].push({ value, count });
  }
  return { ...result, facets };
}
