// SQL for the list endpoints' date filters, shared by every record type.
import type { DateFilter } from '../http/params.ts';

/**
 * The conditions for one date filter on `column`. Dates are compared at the whole second the API
 * shows; with a harvest horizon (src/db/change-clock.ts), only seconds already over are shown.
 */
export function dateCondition(column: string, filter: DateFilter, horizon: Date | undefined, add: (value: unknown) => string): string[] {
  const conditions: string[] = [];
  const from = filter.kind === 'at' ? filter.at : filter.from;
  const to = filter.kind === 'at' ? filter.at : filter.to;
  if (from) conditions.push(`${column} >= date_trunc('second', ${add(from)}::timestamptz)`);
  if (to) conditions.push(`${column} < date_trunc('second', ${add(to)}::timestamptz) + interval '1 second'`);
  // A second still running may yet gain records: it is shown once it is over (at most 1 s later).
  if (horizon) conditions.push(`${column} < date_trunc('second', ${add(horizon)}::timestamptz)`);
  return conditions;
}
