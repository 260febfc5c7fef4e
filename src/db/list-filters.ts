// SQL for the filters every list endpoint shares (docs/api-contract.md, "Lists"): ids, dates,
// deleted, suppressed. Each table keeps id, created_date, updated_date, deleted_date, suppressed.
import type { DateFilter, IdFilter } from '../shared/filters.ts';

export interface CommonListFilter {
  id?: IdFilter;
  createdDate?: DateFilter;
  updatedDate?: DateFilter;
  deletedDate?: DateFilter;
  deleted?: boolean;
  suppressed?: boolean;
  /** With date filters: only whole seconds before this instant (src/db/change-clock.ts). */
  horizon?: Date;
}

/**
 * The conditions for one date filter on `column`. Dates are compared at the whole second the API
 * shows; with a harvest horizon, only seconds already over are shown.
 */
export function dateConditions(column: string, filter: DateFilter, horizon: Date | undefined, add: (value: unknown) => string): string[] {
  const conditions: string[] = [];
  const from = filter.kind === 'at' ? filter.at : filter.from;
  const to = filter.kind === 'at' ? filter.at : filter.to;
  if (from) conditions.push(`${column} >= date_trunc('second', ${add(from)}::timestamptz)`);
  if (to) conditions.push(`${column} < date_trunc('second', ${add(to)}::timestamptz) + interval '1 second'`);
  // A second still running may yet gain records: it is shown once it is over (at most 1 s later).
  if (horizon) conditions.push(`${column} < date_trunc('second', ${add(horizon)}::timestamptz)`);
  return conditions;
}

/** WHERE conditions on table alias `t` for the shared filters; values go through `add` as parameters. */
export function commonConditions(t: string, filter: CommonListFilter, add: (value: unknown) => string): string[] {
  const where: string[] = [];
  if (filter.id?.kind === 'list') where.push(`${t}.id = any(${add(filter.id.ids)}::bigint[])`);
  if (filter.id?.kind === 'range') {
    if (filter.id.from) where.push(`${t}.id >= ${add(filter.id.from)}::bigint`);
    if (filter.id.to) where.push(`${t}.id <= ${add(filter.id.to)}::bigint`);
  }
  if (filter.createdDate) where.push(...dateConditions(`${t}.created_date`, filter.createdDate, filter.horizon, add));
  if (filter.updatedDate) where.push(...dateConditions(`${t}.updated_date`, filter.updatedDate, filter.horizon, add));
  if (filter.deletedDate) where.push(...dateConditions(`${t}.deleted_date`, filter.deletedDate, filter.horizon, add));
  if (filter.deleted !== undefined) where.push(filter.deleted ? `${t}.deleted_date is not null` : `${t}.deleted_date is null`);
  if (filter.suppressed !== undefined) where.push(`${t}.suppressed = ${add(filter.suppressed)}`);
  return where;
}

/** A parameter list and the function that appends to it, answering the placeholder. */
export function parameters(): { params: unknown[]; add: (value: unknown) => string } {
  const params: unknown[] = [];
  return {
    params,
    add: (value) => {
      params.push(value);
      return `$${params.length}`;
    },
  };
}
