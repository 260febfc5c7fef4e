// The filters every list shares (docs/api-contract.md, "Lists"): record ids as a list or a range,
// instants as one or a range. Parsed here for every door (a query string, a CLI option), with
// errors that name the parameter.
import { fail } from './errors.ts';

/** The most entries a page holds, and the most ids one id list names. */
export const MAX_LIMIT = 2000;

/** An id filter: a list of ids, or a range whose ends may be open. Ids are decimal strings. */
export type IdFilter = { kind: 'list'; ids: string[] } | { kind: 'range'; from?: string; to?: string };

/** An instant filter: one instant, or a range whose ends may be open. */
export type DateFilter = { kind: 'at'; at: Date } | { kind: 'range'; from?: Date; to?: Date };

const RANGE = /^\[([^,\]]*),([^,\]]*)\]$/;

function splitRange(name: string, raw: string): [string, string] | undefined {
  if (!raw.startsWith('[')) return undefined;
  const match = RANGE.exec(raw.trim());
  if (!match) throw fail.invalidParameter(`${name} range must look like [from,to] (either end may be empty)`);
  return [match[1]!.trim(), match[2]!.trim()];
}

/** One record id (digits), or 101 naming the parameter. */
export function parseRecordId(name: string, raw: string): string {
  if (!/^\d{1,18}$/.test(raw)) throw fail.invalidArgument(`${name}: "${raw}" is not a record id (digits only)`);
  return raw.replace(/^0+(?=\d)/, '');
}

/** `id=1000001,1000007` or `id=[1000001,1000050]` (open ends allowed: `[1000001,]`). */
export function parseIdFilter(name: string, raw: string): IdFilter {
  const range = splitRange(name, raw);
  if (range) {
    const [from, to] = range;
    const filter: IdFilter = { kind: 'range' };
    if (from) filter.from = parseRecordId(name, from);
    if (to) filter.to = parseRecordId(name, to);
    if (filter.from && filter.to && BigInt(filter.from) > BigInt(filter.to)) {
      throw fail.invalidParameter(`${name} range starts after it ends`);
    }
    return filter;
  }
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.some((part) => part === '')) throw fail.invalidParameter(`${name} has an empty entry`);
  if (parts.length > MAX_LIMIT) throw fail.invalidParameter(`${name} lists more than ${MAX_LIMIT} ids`);
  return { kind: 'list', ids: [...new Set(parts.map((part) => parseRecordId(name, part)))] };
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

function parseInstant(name: string, raw: string): Date {
  const match = INSTANT.exec(raw);
  const date = match ? new Date(match[4] ? raw : `${raw}T00:00:00Z`) : undefined;
  // new Date() rolls 2026-02-31 over to March: reject dates whose parts do not survive the round trip.
  // PostgreSQL has no year 0000.
  if (
    !match ||
    !date ||
    Number.isNaN(date.getTime()) ||
    date.getUTCFullYear() < 1 ||
    (!match[4] && date.toISOString().slice(0, 10) !== raw)
  ) {
    throw fail.invalidParameter(`${name}: "${raw}" is not an ISO 8601 instant such as 2026-11-02T10:00:00Z`);
  }
  return date;
}

/** `updatedDate=2026-11-02T10:00:00Z` or `[2026-11-01T00:00:00Z,2026-11-02T00:00:00Z]`, open ends allowed. */
export function parseDateFilter(name: string, raw: string): DateFilter {
  const range = splitRange(name, raw);
  if (!range) return { kind: 'at', at: parseInstant(name, raw.trim()) };
  const [from, to] = range;
  const filter: DateFilter = { kind: 'range' };
  if (from) filter.from = parseInstant(name, from);
  if (to) filter.to = parseInstant(name, to);
  if (filter.from && filter.to && filter.from > filter.to) throw fail.invalidParameter(`${name} range starts after it ends`);
  return filter;
}
