// GET /api on the engine under test: the seed's health report, field for field.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../src/config.ts';
import type { Db } from '../../src/db/types.ts';
import { HealthService } from '../../src/health/service.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';

// Written out here, apart from the route's own schema, so the test cannot agree with a mistake in it.
const strict = <T extends Record<string, TSchema>>(props: T) => Type.Object(props, { additionalProperties: false });
const Duration = Type.String({ pattern: '^\\d{2}:\\d{2}:\\d{2}\\.\\d{7}$' });
const HealthyReport = strict({
  status: Type.Literal('Healthy'),
  totalDuration: Duration,
  entries: strict({
    API: strict({
      data: strict({
        'Carrel.Api': strict({
          version: Type.String(),
          major: Type.Integer(),
          minor: Type.Integer(),
          build: Type.Integer(),
          revision: Type.Integer(),
        }),
      }),
      duration: Duration,
      status: Type.Literal('Healthy'),
      tags: Type.Array(Type.Never()),
    }),
    DatabaseServer: strict({
      data: strict({ Database: strict({ version: Type.String({ minLength: 1 }) }) }),
      duration: Duration,
      status: Type.Literal('Healthy'),
      tags: Type.Array(Type.Never()),
    }),
  }),
});

describe(`GET /api on ${ENGINE}`, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ CARREL_HEALTH_MAX_AGE_MS: '0' });
  });
  after(() => t.close());

  it('answers the health report with exactly the seed fields', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api' });
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /^application\/json/);
    const body: unknown = res.json();
    const problems = [...Value.Errors(HealthyReport, body)].map((e) => `${e.instancePath} ${e.message}`);
    assert.deepEqual(problems, [], JSON.stringify(body));
  });

  it('reports a version whose integer parts repeat the version string', async () => {
    const body = (await t.app.inject({ method: 'GET', url: '/api' })).json();
    const api = body.entries.API.data['Carrel.Api'];
    assert.match(api.version, /^\d+\.\d+\.\d+\.\d+$/);
    assert.deepEqual(api.version.split('.').map(Number), [api.major, api.minor, api.build, api.revision]);
  });

  it("reports the running database server's own version", async () => {
    const body = (await t.app.inject({ method: 'GET', url: '/api' })).json();
    const [row] = await t.testDb.db.query<{ v: string }>("select current_setting('server_version') as v");
    assert.ok(row);
    assert.equal(body.entries.DatabaseServer.data.Database.version, row.v.split(' ')[0]);
    assert.match(body.entries.DatabaseServer.data.Database.version, /^\d+(\.\d+)?/);
  });

  it('needs no authorization and is served with a trailing slash too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().status, 'Healthy');
  });

  it('reports the database Unhealthy while it would refuse Carrel’s writes', async () => {
    // A session left read-only (a SQL login's doing, or a server in recovery) answers every read.
    const config = loadConfig({ CARREL_HEALTH_MAX_AGE_MS: '0' });
    let db = t.testDb.db;
    let close = () => Promise.resolve();
    if (ENGINE === 'pglite') await db.exec('set default_transaction_read_only = on');
    else {
      await db.exec(`do $$ begin execute format('alter database %I set default_transaction_read_only = on', current_database()); end $$`);
      const { openPostgres } = await import('../../src/db/postgres.ts');
      const own = openPostgres(t.testDb.url!, { max: 1, connectTimeoutSec: 10 });
      db = own;
      close = () => own.close();
    }
    try {
      const report = await new HealthService(db, config.healthTimeoutMs, config.healthMaxAgeMs).report();
      assert.equal(report.status, 'Unhealthy');
      assert.match(report.entries.DatabaseServer.description ?? '', /accepts no writes/);
    } finally {
      await close();
      if (ENGINE === 'pglite') await t.testDb.db.exec('set default_transaction_read_only = off');
      else
        await t.testDb.db.exec(
          `do $$ begin execute format('alter database %I reset default_transaction_read_only', current_database()); end $$`,
        );
    }
    assert.equal((await new HealthService(t.testDb.db, config.healthTimeoutMs, config.healthMaxAgeMs).report()).status, 'Healthy');
  });

  it('reuses a successful check for at most CARREL_HEALTH_MAX_AGE_MS, and says how old it is', async () => {
    // The database's own statements, counted: each check is one.
    let checks = 0;
    const db = t.testDb.db;
    const counted: Db = { ...db, query: (text, params, options) => (checks++, db.query(text, params, options)) };
    const service = (env: Record<string, string>) => {
      const config = loadConfig(env);
      return new HealthService(counted, config.healthTimeoutMs, config.healthMaxAgeMs);
    };

    const reuse = service({ CARREL_HEALTH_MAX_AGE_MS: '10000' });
    const first = await reuse.report();
    await sleep(25);
    const second = await reuse.report();
    assert.equal(checks, 1, 'the second answer reuses the first check');
    assert.equal(second.entries.DatabaseServer.duration, first.entries.DatabaseServer.duration, 'same check reused');
    // It counts from the reused check's start: past the first answer's own total, by what passed since.
    assert.ok(
      second.totalDuration > first.totalDuration,
      `totalDuration counts from the reused check's start: ${second.totalDuration} after ${first.totalDuration}`,
    );

    checks = 0;
    const fresh = service({ CARREL_HEALTH_MAX_AGE_MS: '0' });
    const a = await fresh.report();
    await fresh.report();
    assert.equal(checks, 2, 'with max age 0 each answer has its own check');
    assert.equal(a.status, 'Healthy');
  });

  it('never reuses a failed check, however long successes are kept', async () => {
    // The database's statements go through, but for the first, which fails as a lost connection would.
    let failNext = true;
    const db = t.testDb.db;
    const failingOnce: Db = {
      ...db,
      query: (text, params, options) => {
        if (!failNext) return db.query(text, params, options);
        failNext = false;
        return Promise.reject(new Error('connection terminated unexpectedly'));
      },
    };
    const config = loadConfig({ CARREL_HEALTH_MAX_AGE_MS: '10000' });
    const service = new HealthService(failingOnce, config.healthTimeoutMs, config.healthMaxAgeMs);
    assert.equal((await service.report()).status, 'Unhealthy');
    assert.equal(service.reportIfFresh(), undefined, 'a failure is no answer to reuse');
    assert.equal((await service.report()).status, 'Healthy');
    assert.equal(service.reportIfFresh()?.status, 'Healthy');
  });

  it('shares one database check among requests that arrive together', async () => {
    // Counted in statements, with nothing reused (max age 0): twenty reports asked at once, one check.
    let checks = 0;
    const db = t.testDb.db;
    const counted: Db = { ...db, query: (text, params, options) => (checks++, db.query(text, params, options)) };
    const config = loadConfig({ CARREL_HEALTH_MAX_AGE_MS: '0' });
    const service = new HealthService(counted, config.healthTimeoutMs, config.healthMaxAgeMs);
    const answers = await Promise.all(Array.from({ length: 20 }, () => service.report()));
    assert.ok(answers.every((a) => a.status === 'Healthy'));
    assert.equal(checks, 1, 'concurrent requests share a check');
    assert.equal(new Set(answers.map((a) => a.entries.DatabaseServer.duration)).size, 1);
  });
});
