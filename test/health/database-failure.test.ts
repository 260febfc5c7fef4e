// GET /api when PostgreSQL refuses the login, is not there, goes away, or hangs; and the
// recovery to Healthy without a restart. These need a real PostgreSQL server.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import type { Db } from '../../src/db/types.ts';
import { ServiceState } from '../../src/operations/state.ts';
import { Supervisor } from '../../src/operations/supervisor.ts';
import { captureLogs } from '../helpers/app.ts';
import { adminSql, createEmptyPgDatabase, createTestDb, PG_URL, uniqueName, withDatabase } from '../helpers/db.ts';
import { freePort, startBlackHole, startProxy } from '../helpers/tcp.ts';

async function serve(db: Db, env: Record<string, string> = {}, firstTick = true) {
  const state = new ServiceState();
  const { stream } = captureLogs();
  const { app } = await buildApp({ config: loadConfig(env), db, state, logStream: stream });
  const supervisor = new Supervisor(db, state, app.log, 60_000);
  if (firstTick) await supervisor.tick();
  const report = async () => {
    const res = await app.inject({ method: 'GET', url: '/api' });
    assert.equal(res.statusCode, 200, 'GET /api answers 200 while the service runs, whatever the database does');
    return res.json();
  };
  /**
   * The report once it is Healthy (and the schema migrated). A process that found its database unreachable tries it again
   * 50 ms later, then at doubling intervals up to 500 ms (src/db/reachability.ts): it is asked
   * until then, as the server's supervisor would, for at most 50 rounds.
   */
  const recovered = async () => {
    let body = await report();
    for (let round = 0; round < 50 && (body.status !== 'Healthy' || !state.schemaReady); round++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await supervisor.tick();
      body = await report();
    }
    return body;
  };
  return { app, state, supervisor, report, recovered, close: () => app.close() };
}

function assertDatabaseUnhealthy(body: any, text: RegExp) {
  assert.equal(body.status, 'Unhealthy');
  assert.equal(body.entries.API.status, 'Healthy');
  const entry = body.entries.DatabaseServer;
  assert.deepEqual(Object.keys(entry).sort(), ['data', 'description', 'duration', 'exception', 'status', 'tags']);
  assert.deepEqual(entry.data, {});
  assert.equal(entry.status, 'Unhealthy');
  assert.deepEqual(entry.tags, []);
  assert.match(entry.description, text);
  assert.equal(entry.exception, entry.description);
}

const needsPostgres = PG_URL ? false : 'needs PostgreSQL: set TEST_DATABASE_URL or DATABASE_URL';

describe('database failures and recovery', { skip: needsPostgres }, () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('reports the server refusing the login, then turns Healthy once the role exists', async () => {
    const empty = await createEmptyPgDatabase();
    const role = uniqueName('carrel_role');
    cleanups.push(async () => {
      await empty.drop();
      const admin = adminSql();
      await admin.unsafe(`drop role if exists ${role}`);
      await admin.end();
    });
    const db = openPostgres(withDatabase(PG_URL!, empty.name, role), { max: 2, connectTimeoutSec: 5 });
    const svc = await serve(db);
    cleanups.push(async () => {
      await svc.close();
      await db.close();
    });

    assertDatabaseUnhealthy(await svc.report(), new RegExp(`role "${role}" does not exist`));
    const call = await svc.app.inject({ method: 'GET', url: '/v6/info/token', headers: { authorization: 'Bearer x' } });
    assert.equal(call.statusCode, 503);
    assert.equal(call.json().code, 112);

    const admin = adminSql();
    await admin.unsafe(`create role ${role} login`);
    await admin.unsafe(`alter database ${empty.name} owner to ${role}`);
    await admin.end();

    const healthy = await svc.recovered();
    assert.equal(healthy.status, 'Healthy');
    assert.equal(svc.state.schemaReady, true, 'migrated once the login works');
    assert.match(healthy.entries.DatabaseServer.data.Database.version, /^\d+/);
  });

  it('reports nothing listening, recovers when the database appears, and again after it goes away', async () => {
    const testDb = await createTestDb();
    cleanups.push(() => testDb.drop());
    const target = new URL(PG_URL!);
    const port = await freePort();
    const url = new URL(testDb.url!);
    url.host = `127.0.0.1:${port}`;
    const db = openPostgres(url.toString(), { max: 2, connectTimeoutSec: 5 });
    const svc = await serve(db);
    cleanups.push(async () => {
      await svc.close();
      await db.close();
    });

    assertDatabaseUnhealthy(await svc.report(), /ECONNREFUSED/);

    let proxy = await startProxy(port, { host: target.hostname || '127.0.0.1', port: Number(target.port || 5432) });
    assert.equal((await svc.recovered()).status, 'Healthy');

    await proxy.close(); // the database goes away under open connections
    // The teardown of the old connections reaches the pool asynchronously: allow it a moment.
    let gone = await svc.report();
    for (let i = 0; i < 50 && gone.status === 'Healthy'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      gone = await svc.report();
    }
    assertDatabaseUnhealthy(gone, /\S/);

    proxy = await startProxy(port, { host: target.hostname || '127.0.0.1', port: Number(target.port || 5432) });
    cleanups.push(() => proxy.close());
    assert.equal((await svc.recovered()).status, 'Healthy');
  });

  it('answers within the check time-out when the database accepts connections but never answers', async () => {
    const port = await freePort();
    const hole = await startBlackHole(port);
    cleanups.push(() => hole.close());
    const db = openPostgres(`postgres://postgres@127.0.0.1:${port}/postgres`, { max: 1, connectTimeoutSec: 2 });
    const svc = await serve(db, { CARREL_HEALTH_TIMEOUT_MS: '300' }, false);
    cleanups.push(async () => {
      await svc.close();
      await db.close().catch(() => {});
    });
    // The report comes back (the black hole would hold it forever) and says the check timed out.
    assertDatabaseUnhealthy(await svc.report(), /did not answer within 300 ms/);
  });
});

describe('a server process started while PostgreSQL is unreachable', { skip: needsPostgres }, () => {
  it('starts, reports Unhealthy, then migrates and turns Healthy by itself once the database can be reached', async () => {
    const { startServer } = await import('../helpers/process.ts');
    const empty = await createEmptyPgDatabase();
    const dbPort = await freePort();
    const url = new URL(empty.url);
    url.host = `127.0.0.1:${dbPort}`;
    const server = await startServer({ DATABASE_URL: url.toString(), CARREL_STATE_POLL_MS: '100' }, await freePort());
    const target = new URL(PG_URL!);
    let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
    try {
      const down = await (await fetch(`${server.url}/api`)).json();
      assertDatabaseUnhealthy(down, /ECONNREFUSED/);
      proxy = await startProxy(dbPort, { host: target.hostname || '127.0.0.1', port: Number(target.port || 5432) });
      let status = '';
      let call = 0;
      // Ready means both: GET /api Healthy, and a protected call answered by the auth check (401)
      // rather than 503, which needs the schema the server migrated on its own.
      // (The log line is written asynchronously: it may follow the first Healthy answer.)
      while (!(status === 'Healthy' && call === 401 && /database schema is up to date/.test(server.output()))) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = (await (await fetch(`${server.url}/api`)).json()).status;
        call = (await fetch(`${server.url}/v6/info/token`)).status;
      }
      assert.equal(status, 'Healthy', server.output());
      assert.equal(call, 401);
      assert.match(server.output(), /database schema is up to date/);
    } finally {
      await server.stop();
      await proxy?.close();
      await empty.drop();
    }
  });
});
