// Two Carrel databases on one PostgreSQL cluster (README, "SQL logins"): roles belong to the
// cluster, so a SQL login of one could try the other. It cannot connect there (CONNECT is Carrel's
// user's and its own reader's only), and where a database's CONNECT is open all the same it reads
// nothing: carrel_sierra_fields (which runs as its owner) is executable by that database's reader
// role only, and the views are its reader's. A login's session in any other database of the cluster
// is ended by its own database's watch.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { SqlLoginService, type NewLogin } from '../../src/sql/logins.ts';
import { addPatron } from '../helpers/circulation.ts';
import { adminSql, createTestDb, ENGINE, uniqueName, type TestDb } from '../helpers/db.ts';

/** A PostgreSQL error's code and message, or a failure when the statement ran. */
async function pgError(run: Promise<unknown>, what = 'the statement'): Promise<{ code: string; message: string }> {
  try {
    await run;
  } catch (error) {
    const e = error as { code?: string; message: string };
    return { code: e.code ?? '', message: e.message };
  }
  assert.fail(`${what} ran`);
}

/** The login's URL with another database's name. */
function elsewhere(login: NewLogin, database: string): string {
  const url = new URL(login.url!);
  url.pathname = `/${database}`;
  return url.toString();
}

const databaseName = (testDb: TestDb) => new URL(testDb.url!).pathname.slice(1);

describe(`SQL logins of two Carrel databases on one cluster (${ENGINE})`, { skip: ENGINE !== 'postgres' && 'needs PostgreSQL' }, () => {
  let a: TestDb;
  let b: TestDb;
  let loginsA: SqlLoginService;
  let loginsB: SqlLoginService;
  let loginA: NewLogin;
  let loginB: NewLogin;
  let patronB: string;
  const sessions: postgres.Sql[] = [];
  const connect = (url: string) => {
    const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
    sessions.push(sql);
    return sql;
  };
  const service = (testDb: TestDb, statementTimeoutMs = 30_000) =>
    new SqlLoginService(testDb.db, { databaseUrl: testDb.url, sql: { statementTimeoutMs, port: null, host: 'localhost' } });

  before(async () => {
    [a, b] = await Promise.all([createTestDb(), createTestDb()]);
    patronB = await addPatron(b.db);
    await b.db.query(`insert into patron_barcodes (patron_id, barcode, position) values ($1, '21913000482538', 1)`, [patronB]);
    loginsA = service(a);
    loginsB = service(b);
    loginA = await loginsA.create(uniqueName('reader_a').toLowerCase());
    loginB = await loginsB.create(uniqueName('reader_b').toLowerCase());
  });
  after(async () => {
    for (const sql of sessions) await sql.end({ timeout: 1 }).catch(() => undefined);
    // Roles outlive a database: leave none behind on the server.
    await loginsA?.revoke(loginA.user).catch(() => undefined);
    await loginsB?.revoke(loginB.user).catch(() => undefined);
    await Promise.all([a?.drop(), b?.drop()]);
  });

  it('reads its own database’s patron fields through the views', async () => {
    const own = connect(loginB.url!);
    const rows =
      await own`select field_content from varfield where record_id = (select id from patron_record limit 1) order by field_content`;
    assert.deepEqual(
      rows.map((r) => r.field_content),
      ['21913000482538', 'Reader, A'],
    );
  });

  it('cannot connect to the other Carrel database', async () => {
    const stranger = connect(elsewhere(loginA, databaseName(b)));
    try {
      const error = await pgError(stranger`select 1`);
      assert.equal(error.code, '42501', error.message);
      assert.match(error.message, /permission denied for database/);
    } finally {
      await stranger.end();
    }
  });

  it('reads nothing of the other database where its CONNECT is open all the same', async () => {
    const admin = adminSql();
    try {
      await admin.unsafe(`grant connect on database ${databaseName(b)} to public`);
    } finally {
      await admin.end();
    }
    const stranger = connect(elsewhere(loginA, databaseName(b)));
    try {
      assert.equal((await stranger`select current_database() as d`)[0]!.d, databaseName(b));
      const id = (await b.db.query<{ id: string }>(`select ((ascii('p')::bigint << 32) + $1::bigint)::text as id`, [patronB]))[0]!.id;
      for (const statement of [
        `select * from public.carrel_sierra_fields('p', ${patronB}, null)`,
        'select * from sierra_view.varfield',
        'select * from sierra_view.patron_view',
        `select * from sierra_view.patron_record where id = ${id}`,
        'select * from sierra_view.patron_record_fullname',
        'select * from public.patrons',
        'select * from public.patron_barcodes',
        `set role ${(await b.db.query<{ r: string }>(`select 'carrel_reader_' || left(md5(current_database()), 12) as r`))[0]!.r}`,
      ]) {
        const error = await pgError(stranger.unsafe(statement), statement);
        assert.match(error.message, /permission denied|must be member/, statement);
      }
    } finally {
      await stranger.end();
    }
  });

  it('cannot take the advisory locks Carrel’s writers take turns by, even in its own database', async () => {
    const own = connect(loginA.url!);
    for (const statement of [
      'select pg_advisory_lock(7243102004)',
      'select pg_try_advisory_lock(7243102004)',
      'select pg_advisory_xact_lock_shared(7243102003)',
      'select pg_advisory_lock(1, 2)',
      'select public.change_clock_stamp(false)',
      'select public.change_clock_horizon()',
    ]) {
      const error = await pgError(own.unsafe(statement), statement);
      assert.match(error.message, /permission denied for function/, statement);
    }
  });

  it('has its sessions in other databases of the cluster ended by its own database’s watch', async () => {
    const away = connect(elsewhere(loginA, 'postgres'));
    const pid = (await away`select pg_backend_pid() as pid`)[0]!.pid as number;
    const open = async () => (await a.db.query('select 1 from pg_stat_activity where pid = $1', [pid])).length > 0;
    // Its own database's watch ends it; the other database's watch leaves it be.
    assert.equal(await loginsB.endSessionsElsewhere(), 0);
    assert.ok(await open());
    assert.equal(await loginsA.endSessionsElsewhere(), 1);
    // pg_terminate_backend signals the session; it is gone once its process has seen the signal.
    for (let round = 0; round < 500 && (await open()); round++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(await open(), false);
    // Its session in its own database is left to its time-out.
    const home = connect(loginA.url!);
    await home`select 1`;
    assert.equal(await loginsA.endSessionsElsewhere(), 0);
    assert.equal((await home`select 1 as one`)[0]!.one, 1);
  });
});

describe(`what PUBLIC may call in a Carrel database (${ENGINE})`, () => {
  let testDb: TestDb;
  before(async () => {
    testDb = await createTestDb();
  });
  after(() => testDb.drop());

  it('is no function that runs as its owner, and of Carrel’s own only those computing from their arguments', async () => {
    const definers = await testDb.db.query<{ f: string }>(
      `select oid::regprocedure::text as f from pg_proc where prosecdef and has_function_privilege('public', oid, 'execute')`,
    );
    assert.deepEqual(
      definers.map((r) => r.f),
      [],
    );
    const carrels = await testDb.db.query<{ f: string; volatility: string }>(
      `select p.oid::regprocedure::text as f, p.provolatile as volatility
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname in ('public', 'sierra_view') and has_function_privilege('public', p.oid, 'execute') and p.provolatile <> 'i'`,
    );
    assert.deepEqual(
      carrels.map((r) => `${r.f} (${r.volatility})`),
      [],
    );
  });
});
