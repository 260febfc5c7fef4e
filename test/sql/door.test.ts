// The SQL door (src/sql): one statement a library wrote, run read-only with a time-out and a row
// cap, through the service and through the real `carrel sql` command.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SqlService } from '../../src/sql/service.ts';
import { childDatabase, createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';
import { carrel } from '../helpers/process.ts';
import { refusal } from '../helpers/domain-error.ts';
import { addBib, addItem, setUpLibrary } from '../helpers/circulation.ts';
import { parseCsv } from '../helpers/csv.ts';

describe(`the SQL door on ${ENGINE}`, () => {
  let testDb: TestDb;
  let sql: SqlService;
  before(async () => {
    testDb = await createTestDb();
    sql = new SqlService(testDb.db, { statementTimeoutMs: 30_000, rowCap: 5 });
    await setUpLibrary(testDb.db);
  });
  after(() => testDb.drop());

  it('answers the columns in the statement’s order, repeated names kept, and the rows as they are', async () => {
    const answer = await sql.run(`select 1 as a, 'two' as b, 3 as a, null::text as "Mixed Case";`);
    // Types by oid: int4 23, text 25.
    assert.deepEqual(answer, {
      columns: ['a', 'b', 'a', 'Mixed Case'],
      types: [23, 25, 23, 25],
      rows: [[1, 'two', 3, null]],
      truncated: false,
    });
  });

  it('answers at most the row cap, and says when there were more', async () => {
    const cut = await sql.run('select g from generate_series(1, 9) g order by g');
    assert.deepEqual(cut.rows, [[1], [2], [3], [4], [5]]);
    assert.equal(cut.truncated, true);
    const whole = await sql.run('select g from generate_series(1, 5) g');
    assert.equal(whole.truncated, false);
  });

  it('answers a page of a statement with parameters, never past the row cap', async () => {
    const page = await sql.run('select g from generate_series(1, $1::integer) g order by g', { params: ['9'], offset: 2, limit: 2 });
    assert.deepEqual([page.rows, page.truncated], [[[3], [4]], true]);
    const last = await sql.run('select g from generate_series(1, $1::integer) g order by g', { params: ['9'], offset: 4, limit: 10 });
    assert.deepEqual([last.rows, last.truncated], [[[5]], true]); // the cap is 5
    const whole = await sql.run('select g from generate_series(1, $1::integer) g order by g', { params: ['3'], offset: 1 });
    assert.deepEqual([whole.rows, whole.truncated], [[[2], [3]], false]);
  });

  it('runs nothing but a query: no write, no second statement, no command', async () => {
    const before = (await testDb.db.query<{ n: string }>('select count(*)::text as n from library_settings'))[0]!.n;
    for (const statement of [
      'delete from library_settings',
      'update library_settings set hold_limit = 1',
      'insert into patron_types values (99, $$x$$)',
      'create table sneaky (id int)',
      'select 1; delete from library_settings',
      'set role postgres',
      'copy library_settings to stdout',
    ]) {
      const refused = await refusal(sql.run(statement));
      assert.equal(refused.kind, 'queryFailed', statement);
      assert.ok(refused.detail && refused.detail.length > 0);
    }
    // A function that writes is refused (the reader role may not; nor may a read-only transaction), in PostgreSQL's own words.
    const write = await refusal(sql.run("select nextval('public.bib_ids')"));
    assert.match(write.detail!, /permission denied for sequence bib_ids/);
    assert.equal((await testDb.db.query<{ n: string }>('select count(*)::text as n from library_settings'))[0]!.n, before);
  });

  it('reads the views as the reader role: no base table, no way back to Carrel’s own role', async () => {
    for (const statement of ['select * from public.patrons', 'select pin_hash from patrons', 'select * from public.api_keys']) {
      const refused = await refusal(sql.run(statement));
      assert.match(refused.detail!, /permission denied|does not exist/, statement);
    }
    assert.deepEqual((await sql.run('select current_user = session_user as same')).rows, [[false]]);
    for (const [statement, fn] of [
      ["select set_config('role', session_user, true)", 'set_config'],
      ["select pg_catalog.set_config('search_path', 'public', true)", 'set_config'],
      ["select query_to_xml('select * from public.patrons', true, true, '')", 'query_to_xml'],
      ["select * from ts_stat('select to_tsvector(title) from public.bibs')", 'ts_stat'],
      ['with t as (select pg_advisory_lock(1)) select * from t', 'pg_advisory_lock'],
      ["select x from (select pg_notify('carrel', 'x') as x) s", 'pg_notify'],
    ]) {
      const refused = await refusal(sql.run(statement!));
      assert.equal(refused.kind, 'queryFailed');
      assert.equal(refused.detail, `the function ${fn} is not available to SQL readers`, statement);
    }
  });

  it('runs nothing that writes, even through a WITH clause where pg_settings is writable', async () => {
    // A PostgreSQL server whose superuser is not Carrel's user leaves pg_settings writable, and its
    // rule turns the update into a SELECT that a read-only transaction lets through.
    await testDb.db.query('grant update on pg_catalog.pg_settings to public');
    try {
      for (const statement of [
        "with x as (update pg_settings set setting = 'pg_temp, public' where name = 'search_path' returning 1) select * from x",
        'with x as (delete from pg_catalog.pg_settings returning 1) select count(*) from x',
      ]) {
        const refused = await refusal(sql.run(statement));
        assert.equal(refused.kind, 'queryFailed', statement);
        assert.match(refused.detail!, /writes nothing/, statement);
      }
    } finally {
      await testDb.db.query('revoke update on pg_catalog.pg_settings from public');
    }
  });

  it('answers no deleted record’s fields through the function the views read them with', async () => {
    const item = await addItem(testDb.db, await addBib(testDb.db, 'Withdrawn'), 'mn', '-', 'GONE-1');
    const count = async () =>
      (await sql.run(`select count(*)::integer as n from public.carrel_sierra_fields('i', ${item}, 'null'::json)`)).rows[0]![0];
    assert.equal(await count(), 1); // its barcode
    await testDb.db.query('update items set deleted_date = now() where id = $1', [item]);
    assert.equal(await count(), 0);
  });

  it("answers PostgreSQL's message for a statement it refuses, and an empty statement is refused", async () => {
    const missing = await refusal(sql.run('select * from no_such_view'));
    assert.match(missing.detail!, /no_such_view/);
    assert.equal((await refusal(sql.run('  ;  '))).kind, 'invalidInput');
  });

  it(
    'cancels a statement that runs past the time-out',
    { skip: ENGINE === 'pglite' && 'the embedded engine cannot interrupt a statement (README, "SQL")' },
    async () => {
      const slow = new SqlService(testDb.db, { statementTimeoutMs: 200, rowCap: 5 });
      const late = await refusal(slow.run('select pg_sleep(5)'));
      assert.match(late.detail!, /statement timeout/);
      // The connection is fine afterwards, and the time-out stayed with that statement.
      assert.deepEqual((await testDb.db.query('select 1 as one'))[0], { one: 1 });
      const setting = async () => (await testDb.db.query<{ t: string }>('show statement_timeout'))[0]!.t;
      assert.equal(await setting(), await setting());
      assert.notEqual(await setting(), '200ms');
    },
  );

  it('prints a table, JSON or CSV through `carrel sql`', async () => {
    const database = await childDatabase();
    try {
      const statement = `select 1 as n, 'a "quoted", comma' as text, null::text as nothing, 2 as n`;
      const csv = await carrel(['sql', statement, '--csv'], database.env);
      assert.equal(csv.code, 0, csv.stderr);
      assert.deepEqual(parseCsv(csv.stdout), [
        ['n', 'text', 'nothing', 'n'],
        ['1', 'a "quoted", comma', '', '2'],
      ]);
      const json = await carrel(['sql', statement, '--json'], database.env);
      assert.deepEqual(JSON.parse(json.stdout), {
        columns: ['n', 'text', 'nothing', 'n'],
        rows: [{ n: 1, text: 'a "quoted", comma', nothing: null, n_2: 2 }],
        truncated: false,
      });
      // A text cell a spreadsheet would run as a formula is written as text; a negative number is not touched.
      const risky = await carrel(
        ['sql', `select '=HYPERLINK(1)' as f, '-1' as t, -1 as n, '@x' as a, 'plain' as p`, '--csv'],
        database.env,
      );
      assert.deepEqual(parseCsv(risky.stdout)[1], ["'=HYPERLINK(1)", "'-1", '-1', "'@x", 'plain']);
      const shown = await carrel(['sql', 'select 42 as answer'], database.env);
      assert.match(shown.stdout, /^answer\n42\n$/);
      const refused = await carrel(['sql', 'delete from bibs'], database.env);
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /only a query/);
    } finally {
      await database.remove();
    }
  });
});
