// Query parameters shared by the list endpoints (docs/api-contract.md, "Lists"): paging, id lists
// and ranges, date ranges and field selection. Schemas go into route definitions; the parse
// functions turn the raw strings into values and throw the contract's errors naming the parameter.
import { Type } from 'typebox';
import { MAX_LIMIT } from '../shared/filters.ts';
import { parseDateFilter, parseIdFilter } from '../shared/filters.ts';
import { errors } from './errors.ts';

export const DEFAULT_LIMIT = 50;

export const pagingQuery = {
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_LIMIT,
      default: DEFAULT_LIMIT,
      description: `Entries per page (1 to ${MAX_LIMIT}; a larger limit is read as ${MAX_LIMIT}, as Sierra does).`,
    }),
  ),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'Zero-based position of the first entry.' })),
};

const dateRange = (what: string) =>
  Type.Optional(
    Type.String({
      description: `${what}: one ISO 8601 instant, or a range [from,to] (either end open). Whole seconds; the current second is shown once it is over.`,
    }),
  );

/** The query parameters every list of records with a history takes (docs/api-contract.md, "Lists"), with its fields named. */
export function recordListQuery(fields: { all: readonly string[] }) {
  return {
    ...pagingQuery,
    id: Type.Optional(Type.String({ description: 'Ids: 1000001,1000007 or a range [1000001,1000050].' })),
    createdDate: dateRange('Created'),
    updatedDate: dateRange('Updated (also matches deletions)'),
    deletedDate: dateRange('Deleted'),
    deleted: Type.Optional(Type.Boolean()),
    suppressed: Type.Optional(Type.Boolean()),
    fields: Type.Optional(Type.String({ description: `Fields to return: ${fields.all.join(', ')}, or default.` })),
  };
}

/** A comma-separated list parameter (`bibIds=1,2`), its empty parts dropped; undefined when absent. */
export function commaList(raw: string | undefined): string[] | undefined {
  return raw
    ?.split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

export interface FieldSet<F extends string> {
  all: readonly F[];
  defaults: readonly F[];
}

/** A record type's fields in the order it shows them; by default all but those named (a tombstone's deletedDate, the costly ones). */
export function fieldSet<const F extends string, const X extends F = never>(
  all: readonly F[],
  notByDefault: readonly X[] = [],
): { all: readonly F[]; defaults: readonly Exclude<F, X>[] } {
  return { all, defaults: all.filter((field): field is Exclude<F, X> => !(notByDefault as readonly string[]).includes(field)) };
}

/** `fields=a,b` picks fields, `default` stands for the default set; id always comes along. */
export function parseFields<F extends string>(raw: string | undefined, set: FieldSet<F>): F[] {
  const names = (raw ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  // No name at all (absent, empty, or only commas: `fields=,`) is the default set, as Sierra answers it.
  if (names.length === 0) return [...set.defaults];
  const chosen = new Set<F>();
  for (const name of names) {
    if (name === 'default') set.defaults.forEach((field) => chosen.add(field));
    else if ((set.all as readonly string[]).includes(name)) chosen.add(name as F);
    else throw errors.invalidParameter(`fields: "${name}" is not a field of this record; fields are ${set.all.join(', ')}`);
  }
  if ((set.all as readonly string[]).includes('id')) chosen.add('id' as F);
  return set.all.filter((field) => chosen.has(field));
}

/** The raw list parameters every record type shares (docs/api-contract.md, "Lists"). */
export interface CommonListQuery {
  limit?: number;
  offset?: number;
  id?: string;
  createdDate?: string;
  updatedDate?: string;
  deletedDate?: string;
  deleted?: boolean;
  suppressed?: boolean;
}

/** The shared list parameters parsed: paging with its defaults, id and date filters, flags. */
export function parseCommonList(q: CommonListQuery) {
  const date = (name: 'createdDate' | 'updatedDate' | 'deletedDate') =>
    q[name] === undefined ? undefined : parseDateFilter(name, q[name]);
  return {
    id: q.id === undefined ? undefined : parseIdFilter('id', q.id),
    createdDate: date('createdDate'),
    updatedDate: date('updatedDate'),
    deletedDate: date('deletedDate'),
    deleted: q.deleted,
    suppressed: q.suppressed,
    limit: q.limit ?? DEFAULT_LIMIT,
    offset: q.offset ?? 0,
  };
}
