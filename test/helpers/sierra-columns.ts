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
  w: 'timestamp without time zone',
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

type Run = (statement: string) => Promise<{ columns: string[]; rows: unknown[][] }>;

/** A runner of SQL whose answer is its rows as objects by column name. */
export function objectRows(run: Run): (statement: string) => Promise<Record<string, unknown>[]> {
  return async (statement) => {
    const answer = await run(statement);
    return answer.rows.map((row) => Object.fromEntries(row.map((v, i) => [answer.columns[i]!, v])));
  };
}

/**
 * Each view has its expected columns (`name type`, in order), in that order in `select *` too, and
 * each view of `empty` answers no rows; through the given runner of SQL (the SQL door's).
 */
export async function assertViews(run: Run, expected: Record<string, string[]>, empty: readonly string[]): Promise<void> {
  const rows = objectRows(run);
  for (const [view, columns] of Object.entries(expected)) {
    assert.deepEqual(await columnsOf(rows, view), columns, view);
    assert.deepEqual(
      (await run(`select * from ${view} limit 1`)).columns,
      columns.map((c) => c.split(' ')[0]),
      view,
    );
  }
  for (const view of empty) assert.deepEqual((await run(`select * from ${view}`)).rows, [], view);
}
