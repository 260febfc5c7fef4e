// The SQL door's wire protocol on the embedded engine (src/sql/wire): real clients nobody wrote for
// Carrel (postgres.js, and psql where installed) connect with a SQL login's URL to the embedded
// database the server opens, read the views, and cannot reach anything else of the session they
// share with Carrel. On PostgreSQL each client has a connection of its own, as Carrel's user taking
// the login's role for each batch; the same tests run there when PostgreSQL is configured.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { pino } from 'pino';
import postgres from 'postgres';
import { loadConfig } from '../../src/config.ts';
import { openServerDb } from '../../src/db/open.ts';
import type { Db } from '../../src/db/types.ts';
import { loadDemoIfEmpty } from '../../src/demo/load.ts';
import { scramClientFinal } from '../../src/shared/scram.ts';
import { SqlLoginService } from '../../src/sql/logins.ts';
import type { WireDoor } from '../../src/sql/wire/door.ts';
import { openWireDoor } from '../../src/sql/wire/door.ts';
import { connectRaw } from '../../src/sql/wire/pg-connection.ts';
import { message, messagesIn } from '../../src/sql/wire/messages.ts';
import { startSqlDoor } from '../../src/sql/wire/start.ts';
import { createTestDb, PG_URL, seedPgliteDataDir, uniqueName, type TestDb } from '../helpers/db.ts';

const run = promisify(execFile);
const ROW_CAP = 50;
// Long enough that no ordinary statement meets it on a loaded machine (on the embedded engine, one
// that does starts the engine again and ends every connection's session).
const TIMEOUT_MS = 3000;
/** The doors' failures, which the tests do not expect, reach the test's output. */
const doorLog = () => pino({ level: 'error' }, process.stderr);

function psqlInstalled(): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => fs.existsSync(path.join(dir, 'psql')));
}

async function pgError(call: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await call;
  } catch (error) {
    const e = error as { code?: string; message: string };
    return { code: e.code ?? '', message: e.message };
  }
  assert.fail('the statement ran');
}

/** A raw connection that logs in by SCRAM-SHA-256 (RFC 5802), for what no client library sends. */
async function rawLogin(
  port: number,
  user: string,
  password: string,
): Promise<{ socket: net.Socket; received: () => Buffer; closed: Promise<void> }> {
  const socket = net.connect(port, '127.0.0.1');
  let data = Buffer.alloc(0);
  const waiters: (() => void)[] = [];
  socket.on('data', (chunk: Buffer) => {
    data = Buffer.concat([data, chunk]);
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  const next = async (type: string) => {
    for (;;) {
      const found = [...messagesIn(data)].find((m) => m.type === type);
      if (found) {
        data = data.subarray(data.indexOf(found.whole) + found.whole.length);
        return found.body;
      }
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const startup = Buffer.concat([Buffer.from([0, 3, 0, 0]), Buffer.from(`user\0${user}\0database\0carrel\0\0`)]);
  const length = Buffer.alloc(4);
  length.writeInt32BE(startup.length + 4);
  socket.write(Buffer.concat([length, startup]));
  await next('R'); // AuthenticationSASL
  const clientNonce = crypto.randomBytes(18).toString('base64');
  const clientFirstBare = `n=,r=${clientNonce}`;
  const first = Buffer.from(`n,,${clientFirstBare}`);
  const initial = Buffer.alloc(4);
  initial.writeInt32BE(first.length);
  socket.write(message('p', 'SCRAM-SHA-256', Buffer.concat([initial, first])));
  const { clientFinal } = scramClientFinal(password, clientFirstBare, (await next('R')).subarray(4).toString());
  socket.write(message('p', Buffer.from(clientFinal)));
  await next('Z');
  return { socket, received: () => data, closed };
}

for (const engine of ['pglite', 'postgres'] as const) {
  describe(
    `the SQL door’s wire protocol on ${engine}`,
    { skip: engine === 'postgres' && !PG_URL && 'PostgreSQL is not configured (TEST_DATABASE_URL)' },
    () => {
      let dataDir: string | undefined;
      let testDb: TestDb | undefined;
      let db: Db;
      let door: WireDoor;
      let logins: SqlLoginService;
      let url: string;
      // Roles belong to the whole PostgreSQL server: names of their own there.
      const reports = engine === 'postgres' ? uniqueName('reports').toLowerCase() : 'reports';
      const goneSoon = engine === 'postgres' ? uniqueName('gone').toLowerCase() : 'gone_soon';
      const clients: postgres.Sql[] = [];
      const connect = (to = url, options: postgres.Options<Record<string, never>> = {}) => {
        const client = postgres(to, { max: 1, onnotice: () => {}, connect_timeout: 10, ...options });
        clients.push(client);
        return client;
      };
      /** Carrel's own view of its session: its user, search path, time zone, bibs. */
      const carrelSide = async () =>
        (
          await db.query<{ user: string; path: string; zone: string; bibs: number }>(
            `select current_user as user, current_setting('search_path') as path, current_setting('TimeZone') as zone,
                (select count(*)::integer from bibs) as bibs`,
          )
        )[0]!;

      before(async () => {
        const settings = { CARREL_SQL_PORT: '5432', CARREL_SQL_ROW_CAP: String(ROW_CAP), CARREL_SQL_TIMEOUT_MS: String(TIMEOUT_MS) };
        let config;
        if (engine === 'pglite') {
          dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-wire-'));
          await seedPgliteDataDir(dataDir);
          config = loadConfig({ ...settings, CARREL_DATA_DIR: dataDir });
        } else {
          testDb = await createTestDb();
          config = loadConfig({ ...settings, DATABASE_URL: testDb.url! });
        }
        db = await openServerDb(config);
        await loadDemoIfEmpty(db);
        logins = new SqlLoginService(db, config);
        door = (await startSqlDoor({ ...config, sql: { ...config.sql, port: 0 } }, db, logins, doorLog()))!;
        const login = await logins.create(reports);
        const u = new URL(login.url!);
        u.port = String(door.port);
        url = u.toString();
      });
      // A login has ten connections at most: each test closes its own.
      afterEach(async () => {
        for (const client of clients.splice(0)) await client.end({ timeout: 1 }).catch(() => undefined);
      });
      after(async () => {
        await door?.close();
        for (const user of [reports, goneSoon]) await logins?.revoke(user).catch(() => undefined);
        await db?.close();
        await testDb?.drop();
        if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      });

      /** A door of the test's own over this engine's session (PostgreSQL: a connection of its own per client). */
      const ownDoor = async (options: { holdMs?: number; statementTimeoutMs?: number }) => {
        const restore = await logins.sessionSettings();
        return openWireDoor({
          session: async () => {
            if (engine === 'pglite') return { raw: db.rawSession!, shared: true, restore, close: () => Promise.resolve() };
            const connection = await connectRaw(testDb!.url!);
            return { raw: connection, shared: false, restore: [], close: () => connection.close() };
          },
          statementTimeoutMs: options.statementTimeoutMs ?? 30_000,
          host: '127.0.0.1',
          port: 0,
          rowCap: ROW_CAP,
          verifier: (user) => logins.verifier(user),
          parameters: {},
          log: doorLog(),
          holdMs: options.holdMs,
        });
      };
      it('lets a login read the views, with prepared statements and parameters, as its own role', async () => {
        const sql = connect();
        const [{ n }] = (await sql`select count(*)::integer as n from bib_record where record_id > ${0}`) as unknown as [{ n: number }];
        assert.equal(n, (await db.query<{ n: number }>('select count(*)::integer as n from bibs where deleted_date is null'))[0]!.n);
        for (let i = 1; i <= 3; i++) assert.equal((await sql`select best_title from bib_record_property limit ${i}`).length, i);
        const [who] = await sql`select current_user as role, current_setting('search_path') as path`;
        assert.deepEqual(who, { role: reports, path: 'sierra_view, pg_catalog, pg_temp' });
      });

      it('refuses a wrong password, an unknown user and a revoked login', async () => {
        const wrong = new URL(url);
        wrong.password = 'not-the-password';
        assert.equal((await pgError(connect(wrong.toString())`select 1`)).code, '28P01');
        const stranger = new URL(url);
        stranger.username = 'postgres';
        assert.equal((await pgError(connect(stranger.toString())`select 1`)).code, '28P01');
        const gone = await logins.create(goneSoon);
        const goneUrl = new URL(gone.url!);
        goneUrl.port = String(door.port);
        assert.deepEqual([...(await connect(goneUrl.toString())`select 1 as one`)], [{ one: 1 }]);
        await logins.revoke(goneSoon);
        assert.equal((await pgError(connect(goneUrl.toString())`select 1`)).code, '28P01');
      });

      it('writes nothing, reads no base table, and changes nothing of the session Carrel shares', async () => {
        const sql = connect();
        const before = await carrelSide();
        for (const statement of [
          'insert into sierra_view.location (code) values ($$x$$)',
          'update sierra_view.bib_record set is_suppressed = true',
          'select * from public.bibs',
          'select pin_hash from public.patrons',
          'set role postgres',
          'reset role',
          'set session authorization postgres',
          "select set_config('role', 'postgres', false)",
          "select query_to_xml('select * from public.patrons', true, true, '')",
          'do $$ begin perform 1; end $$',
          'create function pg_temp.f() returns int language sql as $$ select 1 $$',
          'create table public.sneaky (id int)',
          'copy (select 1) to stdout',
          "select pg_read_file('/etc/passwd')",
          'discard all',
          'listen carrel',
          'savepoint s',
          "select nextval('public.bib_ids')",
          // Settings that would make the server read a string otherwise than the check does.
          'set standard_conforming_strings = off',
          "set client_encoding = 'SJIS'",
          'set backslash_quote = on',
          'explain analyze execute carrel_w1_s1',
          'select * from pg_prepared_statements',
        ]) {
          const error = await pgError(sql.unsafe(statement));
          assert.match(
            error.message,
            /not available to SQL logins|cannot be changed by SQL logins|is fixed for SQL logins|permission denied|cannot insert|temporary tables only|write only their own temporary tables/,
            statement,
          );
        }
        assert.deepEqual(await carrelSide(), before);
      });

      it('keeps a login’s temporary tables its own, behind Carrel’s tables, and drops them when it leaves', async () => {
        const sql = connect();
        await sql.unsafe('create temp table bibs as select record_id from sierra_view.bib_record limit 2');
        assert.deepEqual([...(await sql.unsafe('select count(*)::integer as n from bibs'))], [{ n: 2 }]);
        const side = await carrelSide();
        assert.ok(side.bibs > 2, 'Carrel still reads its own bibs');
        const owned = () =>
          db.query(`select 1 from pg_class where relpersistence = 't' and relowner = (select oid from pg_roles where rolname = $1)`, [
            reports,
          ]);
        assert.equal((await owned()).length, 1);
        await sql.end();
        for (let i = 0; i < 1000 && (await owned()).length > 0; i++) await new Promise((resolve) => setImmediate(resolve));
        assert.equal((await owned()).length, 0);
      });

      it('answers BEGIN … COMMIT and ROLLBACK as PostgreSQL does, and an error aborts the client’s transaction', async () => {
        const sql = connect();
        assert.deepEqual(await sql.begin(async (tx) => [[...(await tx`select 1 as a`)], [...(await tx`select ${'x'}::text as b`)]]), [
          [{ a: 1 }],
          [{ b: 'x' }],
        ]);
        const failed = await pgError(
          sql.begin(async (tx) => {
            await tx`select nope`;
          }),
        );
        assert.equal(failed.code, '42703');
        const aborted = await pgError(sql.unsafe('begin; select nope; select 1'));
        assert.equal(aborted.code, '42703');
        assert.equal((await pgError(sql`select 2 as two`)).code, '25P02');
        await sql.unsafe('rollback');
        assert.deepEqual([...(await sql`select 2 as two`)], [{ two: 2 }]);
      });

      it('holds back every row past the row cap, with a warning', async () => {
        const notices: string[] = [];
        const sql = connect(url, { onnotice: (notice) => notices.push(String(notice.message)) });
        const rows = await sql`select g from generate_series(1, ${ROW_CAP * 3}) g`;
        assert.equal(rows.length, ROW_CAP);
        assert.match(notices.join('\n'), new RegExp(`row cap: ${ROW_CAP} rows`));
        assert.equal((await sql`select g from generate_series(1, ${ROW_CAP}) g`).length, ROW_CAP);
      });

      it('keeps a login’s settings for its own statements only', async () => {
        const sql = connect();
        const zone = (await carrelSide()).zone;
        await sql.unsafe(`set timezone = 'America/Chicago'`);
        assert.deepEqual([...(await sql`show timezone`)], [{ TimeZone: 'America/Chicago' }]);
        assert.equal((await carrelSide()).zone, zone);
        await sql.unsafe('reset timezone');
        assert.deepEqual([...(await sql`show timezone`)], [{ TimeZone: zone }]);
      });

      it('serves several logins at once while Carrel works on the same session', async () => {
        const own = (await db.query<{ n: number }>('select count(*)::integer as n from items where deleted_date is null'))[0]!.n;
        const answers = await Promise.all([
          ...Array.from({ length: 5 }, (_, i) =>
            connect()`select count(*)::integer as n, ${i}::integer as i from item_record`.then((rows) => rows[0]!.n as number),
          ),
          ...Array.from({ length: 5 }, () => carrelSide().then(() => own)),
        ]);
        assert.deepEqual(
          answers,
          Array.from({ length: 10 }, () => own),
        );
      });

      it(
        'disconnects a client that holds the session in the middle of a batch, and Carrel goes on',
        { skip: engine === 'postgres' && 'each client has a session of its own on PostgreSQL' },
        async () => {
          const impatient = await ownDoor({ holdMs: 200 });
          try {
            const password = new URL(url).password;
            const client = await rawLogin(impatient.port, reports, decodeURIComponent(password));
            // A Parse, and no Sync: the session is the client's until it sends one, or until it is cut off.
            client.socket.write(message('P', '', 'select 1', { int16: 0 }));
            const carrel = carrelSide();
            await client.closed;
            assert.match(client.received().toString('latin1'), /57P01/);
            // Carrel's statement waited its turn, and ran as Carrel, after the client's batch was rolled back.
            assert.notEqual((await carrel).user, reports);
            assert.ok((await carrel).bibs > 0);
          } finally {
            await impatient.close();
          }
        },
      );

      it('cancels a statement past the time-out, which a login cannot lift', async () => {
        const sql = connect();
        assert.equal((await pgError(sql`select pg_sleep(30)`)).code, '57014');
        assert.match((await pgError(sql.unsafe('set statement_timeout = 0'))).message, /CARREL_SQL_TIMEOUT_MS/);
        assert.deepEqual([...(await sql`select 1 as one`)], [{ one: 1 }]);
      });

      it('writes only its own temporary tables, and no statement of it changes the session beyond its batch', async () => {
        const sql = connect();
        const before = await carrelSide();
        await sql.unsafe('create temp table mine (a text primary key, b integer not null)');
        // Refused before they run, whatever the role's privileges (pg_settings' rule calls
        // set_config for the whole session, where the name check never sees it).
        for (const statement of [
          `update pg_settings set setting = 'pg_temp, public' where name = 'search_path'`,
          `update pg_catalog.pg_settings set setting = 'on' where name = 'default_transaction_read_only'`,
          `with x as (update pg_settings set setting = '0' where name = 'statement_timeout' returning 1) select * from x`,
          `explain analyze update pg_settings set setting = 'x' where name = 'application_name'`,
          `insert into sierra_view.location (code) select 'x' from pg_temp.mine`,
          `delete from pg_catalog.pg_settings`,
          `truncate mine, pg_catalog.pg_settings`,
          `drop table pg_catalog.pg_settings`,
          `insert into carrel.public.bibs (id) values (1)`,
        ])
          assert.match((await pgError(sql.unsafe(statement))).message, /SQL logins write only their own temporary tables/, statement);
        // An expression in a temporary table runs when someone writes to it: on the embedded engine, Carrel.
        for (const statement of [
          `create temp table access_tokens (token text default pg_read_file('/etc/passwd'))`,
          `create temp table api_keys (secret text generated always as (current_user) stored)`,
          `create temp table t1 (a integer check (a > 0))`,
          `create temp table t2 (like sierra_view.location including all)`,
          `create temp table t3 () inherits (pg_temp.mine)`,
          `create index on mine ((lower(a)))`,
          `create index on mine (a) where b > 0`,
          `drop function pg_catalog.now()`,
        ])
          assert.match(
            (await pgError(sql.unsafe(statement))).message,
            /temporary table of a SQL login|an index of a SQL login|drop only their own/,
            statement,
          );
        // What it may do with its own.
        await sql.unsafe(`insert into mine values ('a', 1), ('b', 2)`);
        await sql.unsafe(`with x as (update mine set b = b + 1 returning 1) select count(*) from x`);
        await sql.unsafe('create index on mine (b)');
        await sql.unsafe('drop table if exists gone_already');
        assert.deepEqual(
          [...(await sql.unsafe('select a, b from mine order by a'))],
          [
            { a: 'a', b: 2 },
            { a: 'b', b: 3 },
          ],
        );
        assert.deepEqual([...(await sql`select current_setting('default_transaction_read_only') as ro`)], [{ ro: 'off' }]);
        assert.deepEqual(await carrelSide(), before);
        // Carrel still writes.
        await db.transaction(async (tx) => {
          await tx.query('create temp table carrel_writes (a integer) on commit drop');
        });
      });

      it('puts the session back after a batch that changed it, where Carrel could not close pg_settings', async () => {
        // A PostgreSQL server whose superuser is not Carrel's user keeps pg_settings writable: a
        // statement prepared against a temporary table of that name is planned again against the
        // catalog's once the table is gone, past any check of its text.
        await db.query('grant update on pg_catalog.pg_settings to public');
        try {
          const sql = connect();
          await sql.unsafe('set search_path = pg_temp, pg_catalog');
          await sql.unsafe('create temp table pg_settings (name text, setting text)');
          const swap = () => sql`update pg_settings set setting = ${'pg_temp, public'} where name = 'search_path'`;
          await swap();
          await sql.unsafe('drop table pg_temp.pg_settings');
          await swap();
          // The login's own next batch starts from its own settings again, and Carrel's session is Carrel's.
          assert.deepEqual([...(await sql`select current_setting('search_path') as path`)], [{ path: 'pg_temp, pg_catalog' }]);
          const side = await carrelSide();
          assert.notEqual(side.user, reports);
          assert.equal(side.path, engine === 'pglite' ? 'public, pg_temp' : side.path);
          assert.ok(side.bibs > 0);
        } finally {
          await db.query('revoke update on pg_catalog.pg_settings from public');
        }
      });

      it('keeps pg_settings closed to every role but its owner', async () => {
        const [row] = await db.query<{ update: boolean }>(
          `select has_table_privilege('public', 'pg_catalog.pg_settings', 'update') as update`,
        );
        assert.equal(row!.update, false);
      });

      /** Waits until the client has had `count` ReadyForQuery messages; answers all it received. */
      const readies = async (client: Awaited<ReturnType<typeof rawLogin>>, count: number) => {
        for (;;) {
          const got = [...messagesIn(client.received())];
          if (got.filter((m) => m.type === 'Z').length >= count) return got;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      };

      it('measures the hold on the session by the client’s idle time, never by a statement’s', async () => {
        const patient = await ownDoor({ holdMs: 200 });
        try {
          const client = await rawLogin(patient.port, reports, decodeURIComponent(new URL(url).password));
          client.socket.write(message('Q', 'select pg_sleep(0.6)'));
          client.socket.write(
            Buffer.concat([
              message('P', '', 'select pg_sleep(0.6)', { int16: 0 }),
              message('B', '', '', { int16: 0 }, { int16: 0 }, { int16: 0 }),
              message('E', '', { int32: 0 }),
              message('S'),
            ]),
          );
          const got = await readies(client, 2);
          assert.deepEqual(
            got.filter((m) => m.type === 'E').map((m) => m.body.toString('latin1')),
            [],
          );
          assert.equal(got.filter((m) => m.type === 'C').length, 2);
          client.socket.end(message('X'));
          await client.closed;
        } finally {
          await patient.close();
        }
      });

      it('holds a portal to the row cap however many Executes read it', async () => {
        const client = await rawLogin(door.port, reports, decodeURIComponent(new URL(url).password));
        try {
          const executes = Array.from({ length: Math.ceil((ROW_CAP * 2) / 8) }, () => message('E', 'p1', { int32: 8 }));
          client.socket.write(
            Buffer.concat([
              message('P', '', `select g from generate_series(1, ${ROW_CAP * 3}) g`, { int16: 0 }),
              message('B', 'p1', '', { int16: 0 }, { int16: 0 }, { int16: 0 }),
              ...executes,
              message('S'),
            ]),
          );
          const got = await readies(client, 1);
          assert.equal(got.filter((m) => m.type === 'D').length, ROW_CAP);
          assert.match(
            got
              .filter((m) => m.type === 'N')
              .map((m) => m.body.toString())
              .join(''),
            /row cap/,
          );
        } finally {
          client.socket.end(message('X'));
          await client.closed;
        }
      });

      it(
        'times out a statement whose batch set a comment after its settings',
        { skip: engine === 'pglite' && 'the embedded engine cannot interrupt a statement (README, "SQL")' },
        async () => {
          const sql = connect();
          // Spliced after the client's SET, the time-out would have been inside its comment.
          await sql.unsafe(`set application_name = 'x' --`);
          assert.equal((await pgError(sql`select pg_sleep(30)`)).code, '57014');
          assert.deepEqual([...(await sql`select current_setting('application_name') as name`)], [{ name: 'x' }]);
        },
      );

      it(
        'cancels a statement whose batch lifted the time-out where Carrel could not close pg_settings',
        { skip: engine === 'pglite' && 'the embedded engine cannot interrupt a statement (README, "SQL")' },
        async () => {
          await db.query('grant update on pg_catalog.pg_settings to public');
          const client = await rawLogin(door.port, reports, decodeURIComponent(new URL(url).password));
          try {
            client.socket.write(message('Q', 'set search_path = pg_temp, pg_catalog'));
            client.socket.write(message('Q', 'create temp table pg_settings (name text, setting text)'));
            client.socket.write(
              Buffer.concat([
                message('P', 'lift', `update pg_settings set setting = '0' where name = 'statement_timeout'`, { int16: 0 }),
                message('S'),
              ]),
            );
            client.socket.write(message('Q', 'drop table pg_temp.pg_settings'));
            // One batch: the prepared update, planned again against the catalog's view, then a long statement.
            client.socket.write(
              Buffer.concat([
                message('B', '', 'lift', { int16: 0 }, { int16: 0 }, { int16: 0 }),
                message('E', '', { int32: 0 }),
                message('P', '', 'select pg_sleep(30)', { int16: 0 }),
                message('B', '', '', { int16: 0 }, { int16: 0 }, { int16: 0 }),
                message('E', '', { int32: 0 }),
                message('S'),
              ]),
            );
            const got = await readies(client, 5);
            const errors = got.filter((m) => m.type === 'E').map((m) => m.body.toString('latin1'));
            assert.equal(errors.length, 1, errors.join('\n'));
            assert.match(errors[0]!, /57014/);
          } finally {
            client.socket.end(message('X'));
            await client.closed;
            await db.query('revoke update on pg_catalog.pg_settings from public');
          }
        },
      );

      it('is answered by the connection Carrel opens to PostgreSQL, which logs in by SCRAM-SHA-256', async () => {
        // The door's SCRAM is PostgreSQL's (psql and postgres.js log in above): Carrel's client logs in to it.
        const connection = await connectRaw(url);
        try {
          const answer = await connection.turn((send) => send(message('Q', 'select count(*) from bib_record')));
          assert.deepEqual(
            [...messagesIn(answer)].map((m) => m.type),
            ['T', 'D', 'C', 'Z'],
          );
        } finally {
          await connection.close();
        }
        const wrong = new URL(url);
        wrong.password = 'wrong';
        await assert.rejects(connectRaw(wrong.toString()), /password authentication failed/);
      });

      it('answers psql, libpq’s own client', { skip: !psqlInstalled() && 'psql is not installed' }, async () => {
        const { stdout } = await run('psql', [url, '-AtX', '-c', 'select count(*) from bib_record', '-c', '\\d bib_record'], {
          env: { ...process.env, PGCONNECT_TIMEOUT: '10' },
        });
        const [count = '', ...described] = stdout.trim().split('\n');
        assert.equal(
          Number(count),
          (await db.query<{ n: number }>('select count(*)::integer as n from bibs where deleted_date is null'))[0]!.n,
        );
        assert.ok(
          described.some((line) => line.startsWith('record_id|bigint')),
          stdout,
        );
        const refused = await run('psql', [url, '-AtX', '-c', 'select * from public.patrons']).catch((error: { stderr: string }) => error);
        assert.match(refused.stderr, /permission denied for table patrons/);
      });
    },
  );
}
