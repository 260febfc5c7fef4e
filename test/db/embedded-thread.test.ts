// The embedded server's engine runs in a thread of its own (src/db/pglite-thread.ts): a library's
// statement that outruns its time-out is ended by starting the engine again, while the server's
// own thread goes on answering; what was committed stays, and Carrel's work that waited its turn
// runs once the engine is back. PostgreSQL cancels such a statement itself (test/sql/door.test.ts).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { loadConfig } from '../../src/config.ts';
import { openServerDb } from '../../src/db/open.ts';
import { PGliteThread } from '../../src/db/pglite-thread.ts';
import { message } from '../../src/sql/wire/messages.ts';
import type { Db } from '../../src/db/types.ts';
import { DomainError } from '../../src/shared/errors.ts';
import { SqlService } from '../../src/sql/service.ts';
import { ENGINE, seedPgliteDataDir } from '../helpers/db.ts';

describe('the embedded server’s engine in a thread of its own', { skip: ENGINE !== 'pglite' && 'the embedded engine only' }, () => {
  let dataDir: string;
  let db: Db;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-thread-'));
    await seedPgliteDataDir(dataDir);
    db = await openServerDb(loadConfig({ CARREL_DATA_DIR: dataDir }));
    await db.exec('create table thread_probe (n integer)');
  });
  after(async () => {
    await db?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('ends a library’s statement past its time-out while the server goes on, and keeps what was committed', async () => {
    await db.query('insert into thread_probe values (1)');
    const sql = new SqlService(db, { statementTimeoutMs: 300, rowCap: 5 });
    const order: string[] = [];
    // A statement that computes for far longer than its time-out, calling nothing that could notice one.
    const long = sql.run('select count(*) from generate_series(1, 300000000)').then(
      () => order.push('answered'),
      (error: unknown) => {
        order.push('refused');
        return error;
      },
    );
    // The server's thread is free while the engine computes: a timer fires before the statement ends.
    await new Promise((resolve) => setTimeout(resolve, 100));
    order.push('timer');
    // Carrel's own write waits its turn behind the statement and runs after it.
    const write = db.transaction((tx) => tx.query('insert into thread_probe values (2)')).then(() => order.push('written'));
    const error = await long;
    await write;
    assert.deepEqual([order[0], [...order.slice(1)].sort()], ['timer', ['refused', 'written']]);
    assert.ok(error instanceof DomainError, String(error));
    assert.match(error.message + JSON.stringify(error), /time-out/);
    assert.deepEqual(
      (await db.query<{ n: number }>('select n from thread_probe order by n')).map((r) => r.n),
      [1, 2],
    );
    // Carrel's session is Carrel's again: its search path was set at the new start.
    assert.deepEqual(await db.query(`select current_setting('search_path') as path`), [{ path: 'public, pg_temp' }]);
  });

  it('lets a command connect through the socket while a server transaction is open', async () => {
    const socketPath = path.join(dataDir, '.s.carrel');
    // A command has used the socket before: pglite-socket remembers its connection as the last one.
    const earlier = postgres({ path: socketPath, max: 1, onnotice: () => {} });
    await earlier`select 1`;
    await earlier.end({ timeout: 1 });

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let began!: () => void;
    const inside = new Promise<void>((resolve) => (began = resolve));
    const serverSide = db.transaction(async (tx) => {
      await tx.query('insert into thread_probe values (3)');
      began();
      await held;
    });
    await inside;
    // The next command's start-up reaches the socket's queue while the server's transaction is open:
    // had the queue been told of that transaction, it would have waited for the earlier command's
    // next message, which never comes, and this one would fail at its connect time-out.
    const command = postgres({ path: socketPath, max: 1, connect_timeout: 30, onnotice: () => {} });
    try {
      const answer = command`select count(*)::integer as n from thread_probe where n = 3`.execute();
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      await serverSide;
      assert.deepEqual([...(await answer)], [{ n: 1 }]);
    } finally {
      await command.end({ timeout: 1 });
    }
  });

  it('answers a statement within its time-out as before', async () => {
    const sql = new SqlService(db, { statementTimeoutMs: 30_000, rowCap: 5 });
    const answer = await sql.run('select count(*)::integer as n from generate_series(1, 1000)');
    assert.deepEqual(answer.rows, [[1000]]);
  });

  it('answers a call that began as the engine was being started again, from the new thread', { timeout: 120_000 }, async () => {
    const ownDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-thread-'));
    await seedPgliteDataDir(ownDir);
    const engine = new PGliteThread(path.join(ownDir, 'pglite'), []);
    try {
      await engine.waitReady;
      // The call has passed its wait for the engine when the restart retires the thread it would go to.
      const answer = engine.execProtocolRaw(message('Q', 'select 1'));
      const restarted = engine.restart('a test');
      await restarted;
      // Sent to the retired thread, the call would never be answered (the runner's time-out would end the wait).
      assert.ok((await answer).length > 0);
      assert.equal(engine.generation, 1);
    } finally {
      await engine.close();
      fs.rmSync(ownDir, { recursive: true, force: true });
    }
  });
});
