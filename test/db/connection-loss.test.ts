// The PostgreSQL engine when connections are lost or cannot be had: a transaction whose backend
// dies fails as the database being unavailable (and the process lives on), statements wait for a
// connection no longer than the connect time-out, and once the server refuses connections they
// fail at once until a probe finds it back.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { DatabaseUnavailableError } from '../../src/db/errors.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { adminSql, createTestDb, PG_URL } from '../helpers/db.ts';
import { freePort, startProxy } from '../helpers/tcp.ts';

const skip = PG_URL ? false : 'needs PostgreSQL: set TEST_DATABASE_URL or DATABASE_URL';

describe('lost and unobtainable connections on postgres', { skip }, () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('fails a transaction whose backend is ended mid-statement, and goes on working', async () => {
    const testDb = await createTestDb();
    cleanups.push(() => testDb.drop());
    const db = openPostgres(testDb.url!, { max: 1, connectTimeoutSec: 5 });
    cleanups.push(() => db.close());
    await db.query('create table t (n int)');
    let pid = 0;
    const admin = adminSql();
    cleanups.push(() => admin.end());
    const tx = db.transaction(async (t) => {
      await t.query('insert into t values (1)');
      pid = (await t.query<{ pid: number }>('select pg_backend_pid() as pid'))[0]!.pid;
      await t.query('select pg_sleep(5)');
    });
    const failure = tx.then(
      () => undefined,
      (error: unknown) => error,
    );
    while (pid === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await admin`select pg_terminate_backend(${pid})`;
    const error = await failure;
    assert.ok(error instanceof DatabaseUnavailableError, String(error));
    assert.equal(error.outcomeUnknown, false);
    // The same (only) connection is made again: outside any transaction, with nothing of the lost
    // session (not its error either: the next statement succeeds).
    assert.deepEqual([...(await db.query('select count(*) as n from t'))], [{ n: '0' }]);
    await db.transaction(async (t) => t.query('insert into t values (2)'));
    assert.deepEqual([...(await db.query('select n from t'))], [{ n: 2 }]);
  });

  it('fails a statement that waited the connect time-out for a free connection, as the database being unavailable', async () => {
    const testDb = await createTestDb();
    cleanups.push(() => testDb.drop());
    const db = openPostgres(testDb.url!, { max: 1, connectTimeoutSec: 1 });
    cleanups.push(() => db.close());
    const busy = db.query('select pg_sleep(3)');
    const waiting = db.query('select 1');
    await assert.rejects(waiting, (error: unknown) => error instanceof DatabaseUnavailableError && error.code === 'POOL_TIMEOUT');
    await busy;
    assert.deepEqual([...(await db.query('select 1 as one'))], [{ one: 1 }]);
  });

  it('fails at once while the server refuses connections, and finds it back with one probe', async () => {
    const testDb = await createTestDb();
    cleanups.push(() => testDb.drop());
    const port = await freePort();
    const url = new URL(testDb.url!);
    const target = { host: url.hostname || '127.0.0.1', port: Number(url.port || 5432) };
    url.host = `127.0.0.1:${port}`;
    const db = openPostgres(url.toString(), { max: 4, connectTimeoutSec: 5 });
    cleanups.push(() => db.close());

    const first = await db.query('select 1').then(
      () => assert.fail('nothing listens there'),
      (error: unknown) => error,
    );
    assert.ok(first instanceof DatabaseUnavailableError && first.code === 'ECONNREFUSED', String(first));
    // A burst right after fails with that same failure, none of it trying to connect (one may be
    // the probe, if the machine was slow enough for its turn to come).
    const burst = await Promise.allSettled(Array.from({ length: 20 }, () => db.query('select 1')));
    const reasons = burst.map((result) => (result.status === 'rejected' ? (result.reason as DatabaseUnavailableError) : undefined));
    assert.ok(reasons.every((reason) => reason instanceof DatabaseUnavailableError && /ECONNREFUSED/.test(reason.message)));
    assert.ok(reasons.filter((reason) => reason?.cause === first.cause).length >= 19, 'the burst did not try to connect');
    const proxy = await startProxy(port, target);
    cleanups.push(() => proxy.close());
    let answered = false;
    for (let attempt = 0; attempt < 50 && !answered; attempt++) {
      answered = await db.query('select 1').then(
        () => true,
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          return false;
        },
      );
    }
    assert.ok(answered, 'statements succeed once the server takes connections again');
  });
});
