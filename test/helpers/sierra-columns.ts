// Sierra's column lists as the view tests write them: 'id b, name v' for id bigint, name character varying.
import assert from 'node:assert/strict';

const TYPES: Record<string, string> = {
  b: 'bigint',
  i: 'integer',
  s: 'smallint',
  c: 'character',
  v: 'character varying',
  n: 'numeric',
  t: 'timestamp with time zone',
  d: 'date',
  f: 'boolean',
  x: 'text',
};

/** 'id b, name v' -> ['id bigint', 'name character varying']. */
export const cols = (spec: string): string[] =>
  spec
    .trim()
    .split(/\s*,\s*/)
    .map((part) => {
      const [name, type] = part.split(/\s+/);
      assert.ok(name && type && TYPES[type], part);
      return `${name} ${TYPES[type]}`;
    });

/** A sierra_view view's columns as `name type`, in order, read through the given runner of SQL. */
export async function columnsOf(rows: (statement: string) => Promise<Record<string, unknown>[]>, view: string): Promise<string[]> {
  const columns = await rows(
    `select column_name, data_type from information_schema.columns where table_schema = 'sierra_view' and table_name = '${view}' order by ordinal_position`,
  );
  return columns.map((c) => `${String(c.column_name)} ${String(c.data_type)}`);
}
