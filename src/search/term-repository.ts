// The SQL of the keys a search reads: each query key's id, match count (df) and list version,
// what the planner (plan.ts) and the lists (lists.ts) work from.
import type { Queryable } from '../db/types.ts';
import type { Term, TermStats } from './types.ts';

/** These keys' terms. */
export async function terms(db: Queryable, keys: string[]): Promise<TermStats> {
  if (keys.length === 0) return { terms: new Map() };
  // Planned once: planned for its values, it would be planned afresh for every search (a short
  // array looks cheaper than the generic plan's guess), for the same plan.
  const rows = await db.query<Omit<Term, 'version'> & { key: string; version: string }>(
    `select t.id, t.key, t.df, t.version from search_terms t where t.key = any($1::text[])`,
    [keys],
    { planOnce: true },
  );
  return { terms: new Map(rows.map((r) => [r.key, { id: r.id, df: r.df, version: Number(r.version) }])) };
}
