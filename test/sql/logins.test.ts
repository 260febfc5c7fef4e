// SQL logins (carrel sql users): PostgreSQL roles that read the sierra_view views and nothing else.
// On PostgreSQL a real client (postgres.js, written for no one in particular) connects with the
// URL a login is given and tries what a reader must not do.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { loadDemoIfEmpty } from '../../src/demo/load.ts';
import { SqlLoginService } from '../../src/sql/logins.ts';
import { createTestDb, ENGINE, uniqueName, type TestDb } from '../helpers/db.ts';
import { carrel } from '../helpers/process.ts';
import { refusal } from '../helpers/domain-error.ts';

/** A PostgreSQL error's message, or a failure when the statement ran. */
async function pgError(run: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await run;
  } catch (error) {
    const e = error as { code?: string; message: string };
    return { code: e.code ?? '', message: e.message };
  }
  assert.fail('the statement ran');
}

describe(`SQL logins on ${ENGINE}`, () => {
  let testDb: TestDb;
  let logins: SqlLoginService;
  const made: string[] = [];
  const name = () => {
    const user = uniqueName('reader').toLowerCase();
    made.push(user);
    return user;
  };
  before(async () => {
    testDb = await createTestDb();
    await loadDemoIfEmpty(testDb.db);
    logins = new SqlLoginService(testDb.db, {
      databaseUrl: testDb.url,
      sql: { statementTimeoutMs: 30_000, port: ENGINE === 'pglite' ? 5433 : null, host: 'localhost' },
    });
  });
  after(async () => {
    // Roles outlive a database: leave none behind on the server.
    for (const user of made) await logins.revoke(user).catch(() => undefined);
    await testDb.drop();
  });

  it('creates a login with a password shown once, kept only as a SCRAM verifier, and lists and revokes it', async () => {
    const user = name();
    const login = await logins.create(user);
    assert.equal(login.user, user);
    assert.match(login.password, /^[A-Za-z0-9_-]{24}$/);
    const url = new URL(login.url!);
    assert.deepEqual(
      [url.protocol, decodeURIComponent(url.username), decodeURIComponent(url.password)],
      ['postgres:', user, login.password],
    );
    if (ENGINE === 'pglite') assert.equal(url.port, '5433');
    const [stored] = await testDb.db.query<{ rolpassword: string }>('select rolpassword from pg_authid where rolname = $1', [user]);
    assert.match(stored!.rolpassword, /^SCRAM-SHA-256\$4096:[^$]+\$[^:]+:.+$/);
    assert.ok(!stored!.rolpassword.includes(login.password));

    const listed = (await logins.list()).find((l) => l.user === user);
    assert.ok(listed, 'listed');
    assert.equal(listed.sessions, 0);
    assert.ok(listed.created && !Number.isNaN(Date.parse(listed.created)));
    assert.ok(!(await logins.list()).some((l) => l.user.startsWith('carrel_')), 'Carrel’s own roles are not logins');

    await logins.revoke(user);
    assert.ok(!(await logins.list()).some((l) => l.user === user));
    assert.equal((await testDb.db.query('select 1 from pg_roles where rolname = $1', [user])).length, 0);
    assert.equal((await refusal(logins.revoke(user))).kind, 'notFound');
  });

  it('refuses a name a client would have to quote, PostgreSQL’s or Carrel’s own, or one taken', async () => {
    for (const bad of ['Reports', '1reports', 'pg_reports', 'carrel_x', 'a-b', '', 'x'.repeat(64)]) {
      assert.equal((await refusal(logins.create(bad))).kind, 'invalidInput', bad);
    }
    const user = name();
    await logins.create(user);
    assert.equal((await refusal(logins.create(user))).kind, 'conflict');
    assert.equal((await refusal(logins.create('postgres'))).kind, 'conflict');
  });

  it(
    'prints {"user", "password", "url"} from `carrel sql users create --json`, lists and revokes',
    // The embedded engine's CLI reaches its server's database through the server; the service is tested above.
    { skip: ENGINE === 'pglite' && 'the embedded engine’s CLI needs its server running' },
    async () => {
      const env = { DATABASE_URL: testDb.url! };
      const user = name();
      const created = await carrel(['sql', 'users', 'create', user, '--json'], env);
      assert.equal(created.code, 0, created.stderr);
      const login = JSON.parse(created.stdout) as Record<string, string>;
      assert.deepEqual(Object.keys(login), ['user', 'password', 'url']);
      const listed = await carrel(['sql', 'users', 'list', '--json'], env);
      assert.ok((JSON.parse(listed.stdout) as { user: string }[]).some((l) => l.user === user));
      const revoked = await carrel(['sql', 'users', 'revoke', user], env);
      assert.equal(revoked.code, 0, revoked.stderr);
      const again = await carrel(['sql', 'users', 'revoke', user], env);
      assert.notEqual(again.code, 0);
      assert.match(again.stderr, /no SQL login/);
    },
  );

  describe(
    'connected to PostgreSQL with its URL',
    { skip: ENGINE === 'pglite' && 'the embedded engine serves logins on CARREL_SQL_PORT' },
    () => {
      let reader: postgres.Sql;
      let user: string;
      before(async () => {
        user = name();
        const login = await logins.create(user);
        reader = postgres(login.url!, { max: 1, onnotice: () => {} });
      });
      // Not waiting on the server: a session whose statement was cancelled can leave postgres.js waiting for an answer that never comes.
      after(() => reader?.end({ timeout: 1 }));

      it('reads the views, unqualified, and makes temporary tables', async () => {
        const [bibs] = await reader`select count(*)::integer as n from bib_record`;
        const [own] = await testDb.db.query<{ n: number }>('select count(*)::integer as n from bibs where deleted_date is null');
        assert.equal(bibs!.n, own!.n);
        assert.ok(own!.n > 0);
        await reader.unsafe('create temp table mine as select record_id from sierra_view.bib_record limit 2');
        assert.equal((await reader.unsafe('select count(*)::integer as n from mine'))[0]!.n, 2);
      });

      it('writes nothing, reads no base table, changes no role and calls no server file function', async () => {
        const before = (await testDb.db.query<{ n: string }>('select count(*)::text as n from bibs'))[0]!.n;
        for (const statement of [
          'insert into sierra_view.location (code) values ($$x$$)',
          'update sierra_view.bib_record set is_suppressed = true',
          'delete from sierra_view.bib_record',
          'select * from public.bibs',
          'select * from public.patrons',
          'select * from public.api_keys',
          'create table public.sneaky (id int)',
          'create view sierra_view.sneaky as select 1',
          'drop view sierra_view.bib_record',
          'set role postgres',
          "select set_config('role', 'postgres', false)",
          "select query_to_xml('select * from public.patrons', true, true, '')",
          "select pg_read_file('/etc/passwd')",
          "select pg_ls_dir('.')",
          "copy sierra_view.bib_record to '/tmp/out'",
          "select lo_from_bytea(0, 'x'::bytea)",
          "select nextval('public.bib_ids')",
        ]) {
          const error = await pgError(reader.unsafe(statement));
          assert.match(
            error.message,
            /permission denied|must be (superuser|owner)|not allowed|cannot (insert into|update|delete from) view/,
            statement,
          );
        }
        assert.equal((await testDb.db.query<{ n: string }>('select count(*)::text as n from bibs'))[0]!.n, before);
        // Its role is its own throughout.
        assert.equal((await reader`select current_user as u, session_user as s`)[0]!.u, user);
      });

      it('has the time-out as its default, and is cancelled past it even when it lifts its own', async () => {
        assert.equal((await reader`show statement_timeout`)[0]!.statement_timeout, '30s');
        const watched = new SqlLoginService(testDb.db, {
          databaseUrl: testDb.url,
          sql: { statementTimeoutMs: 100, port: null, host: 'localhost' },
        });
        await reader`set statement_timeout = 0`;
        let settled = false;
        const slow = pgError(reader`select pg_sleep(30)`).finally(() => (settled = true));
        let cancelled = 0;
        // Its statement becomes overdue once it has run 100 ms; the watch cancels it then.
        while (cancelled === 0 && !settled) cancelled = await watched.cancelOverdue();
        assert.equal(cancelled, 1);
        assert.equal((await slow).code, '57014');
      });

      it('ends its sessions when revoked', async () => {
        const other = name();
        const login = await logins.create(other);
        const session = postgres(login.url!, { max: 1, onnotice: () => {} });
        try {
          await session`select 1`;
          assert.equal((await logins.list()).find((l) => l.user === other)!.sessions, 1);
          await logins.revoke(other);
          await assert.rejects(session`select 1`);
        } finally {
          await session.end({ timeout: 1 }).catch(() => undefined);
        }
      });
    },
  );
});
