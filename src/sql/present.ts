// A statement's answer as people and programs read it: JSON rows, CSV, table cells.
import { csvField } from '../shared/csv.ts';
import type { SqlAnswer } from './service.ts';

/** A value as JSON holds it: dates as ISO 8601, everything else as the driver gave it. */
function jsonValue(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

/** Rows as objects by column name; a repeated name gets a suffix (name_2, …), as spreadsheets do. */
export function jsonRows(answer: SqlAnswer): Record<string, unknown>[] {
  const names = uniqueNames(answer.columns);
  return answer.rows.map((row) => Object.fromEntries(row.map((value, i) => [names[i]!, jsonValue(value)])));
}

function uniqueNames(columns: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return columns.map((name) => {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return n === 1 ? name : `${name}_${n}`;
  });
}

/** A value as text: null empty, dates ISO 8601, JSON and arrays as JSON. */
export function textCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value); // json values, arrays
}

// PostgreSQL types whose text a spreadsheet must read as it is (a negative number, money or
// interval starts with '-'): int2, int4, int8, oid, float4, float8, money, numeric, bool, date, time,
// timestamp, timestamptz, interval, timetz.
const NUMBER_LIKE = new Set([21, 23, 20, 26, 700, 701, 790, 1700, 16, 1082, 1083, 1114, 1184, 1186, 1266]);

/**
 * A text cell a spreadsheet would run as a formula (it starts with =, +, -, @, a tab or a carriage
 * return) gets a leading apostrophe, which spreadsheets show as text (OWASP's CSV injection advice);
 * cells of number-like types are left as they are.
 */
function spreadsheetSafe(text: string, typeOid: number | undefined): string {
  return typeOid !== undefined && NUMBER_LIKE.has(typeOid) ? text : text.replace(/^[=+\-@\t\r]/, "'$&");
}

/** RFC 4180 CSV: a header line, then one line per row, CRLF line ends. */
export function csvText(answer: SqlAnswer): string {
  const lines = [
    answer.columns.map((name) => spreadsheetSafe(name, undefined)),
    ...answer.rows.map((row) => row.map((value, i) => spreadsheetSafe(textCell(value), answer.types[i]))),
  ];
  return lines.map((line) => `${line.map(csvField).join(',')}\r\n`).join('');
}
