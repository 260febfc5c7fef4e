// QueryOptions.planOnce: on PostgreSQL the statement gets its generic plan from the first run,
// where a statement planned for its values is planned afresh each of its first five runs at least.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import os from 'node:os';
import { loadConfig } from '../../src/config.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';

const PLANS = `select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where statement = $1`;

describe(`statements planned once on ${ENGINE}`, () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb();
  });
  after(() => t?.drop());

  it('give the same rows as statements planned for their values', async () => {
    const text = 'select n from generate_series(1, 10) as n where n > $1 order by n';
    for (const limit of [0, 4, 9]) {
      assert.deepEqual([...(await t.db.query(text, [limit], { planOnce: true }))], [...(await t.db.query(text, [limit]))]);
    }
  });

  it(
    'are given a generic plan every time, and others a plan for their values at first',
    { skip: ENGINE !== 'postgres' && 'PostgreSQL only (the embedded engine plans every statement for its values)' },
    async () => {
      // Pools of one connection: the counts (kept per session) are read where the statements ran.
      const db = openPostgres(t.url!, { max: 1, connectTimeoutSec: 10 });
      try {
        const once = 'select count(*) from pg_class where relpages > $1';
        const each = 'select count(*) from pg_class where relpages >= $1';
        for (let i = 0; i < 3; i++) {
          await db.query(once, [i], { planOnce: true });
          await db.query(each, [i]);
        }
        assert.deepEqual([...(await db.query(PLANS, [once], { planOnce: true }))], [{ generic: 3, custom: 0 }]);
        assert.deepEqual([...(await db.query(PLANS, [each]))], [{ generic: 0, custom: 3 }]);
        // In a transaction the statement runs on the transaction's connection, as any other.
        await db.transaction(async (tx) => {
          await tx.query(once, [1], { planOnce: true });
          assert.deepEqual([...(await tx.query(PLANS, [once]))], [{ generic: 0, custom: 1 }]);
        });
      } finally {
        await db.close();
      }
      // Closed before any was asked for, it opens no pool for them (nothing would close it): they fail as others do.
      const unused = openPostgres(t.url!, { max: 1, connectTimeoutSec: 10 });
      await unused.close();
      await assert.rejects(unused.query('select 1', [], { planOnce: true }), /CONNECTION_ENDED|ended/i);
    },
  );

  it(
    'run on a pool of their own size (CARREL_DB_SEARCH_POOL_MAX), the others on CARREL_DB_POOL_MAX',
    { skip: ENGINE !== 'postgres' && 'PostgreSQL only (the embedded engine has one session)' },
    async () => {
      const config = loadConfig({ CARREL_DB_POOL_MAX: '3', CARREL_DB_SEARCH_POOL_MAX: '2' });
      assert.equal(loadConfig({}).dbSearchPoolMax, os.availableParallelism());
      const db = openPostgres(t.url!, { max: config.dbPoolMax, planOnceMax: config.dbSearchPoolMax, connectTimeoutSec: 10 });
      try {
        // Twelve statements at once, each holding its connection a moment: they spread over the whole pool.
        const sessions = async (planOnce: boolean) =>
          new Set(
            (
              await Promise.all(
                Array.from({ length: 12 }, () =>
                  db.query<{ pid: number }>('select pg_backend_pid() as pid from pg_sleep(0.05)', [], { planOnce }),
                ),
              )
            ).map((rows) => rows[0]!.pid),
          );
        const [once, others] = await Promise.all([sessions(true), sessions(false)]);
        assert.equal(once.size, 2);
        assert.equal(others.size, 3);
        assert.equal([...once].filter((pid) => others.has(pid)).length, 0);
      } finally {
        await db.close();
      }
    },
  );
});
