// Saved-query runs share the main pool with every other request (issue 33, finding 8): a process
// lets a bounded number run at once and a bounded number wait, refusing the rest at once (429 code
// 134, Retry-After) while the server goes on answering; and runs of public queries are counted by
// address and by key, so a token of any kind does not lift the public limit.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertRefused, caller, create } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { withRoomInMinute } from '../helpers/minute.ts';
import { bearer } from '../helpers/tokens.ts';

/** Resolves once `ready` holds, looking again on each turn of the event loop. */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setImmediate(resolve));
}

describe(`saved-query runs at once on ${ENGINE}`, () => {
  let t: TestApp;
  let id: string;
  before(async () => {
    t = await createTestApp({ CARREL_QUERY_RUNS: '1', CARREL_QUERY_RUNS_WAITING: '1', CARREL_QUERY_PUBLIC_RATE_LIMIT: '1000' });
    const api = caller(t, await bearer(t, ['Queries_Write']));
    id = await create(api, '/v6/queries', {
      name: 'count',
      sql: 'select count(*)::integer as n from sierra_view.bib_record',
      public: true,
    });
  });
  after(() => t.close());

  it('refuses runs past the one running and the one waiting, while GET /api answers', async () => {
    // The bibs held by a writer: a run reading them waits (on the embedded engine, the writer holds its one session).
    let release!: () => void;
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const writer = t.testDb.db.transaction(async (tx) => {
      await tx.exec('lock table bibs in access exclusive mode');
      holding();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await held;
    let first: ReturnType<typeof run> | undefined;
    let second: ReturnType<typeof run> | undefined;
    const run = (address: string) => t.app.inject({ method: 'GET', url: `/v6/queries/${id}/results`, remoteAddress: address });
    try {
      first = run('192.0.2.1');
      second = run('192.0.2.2');
      const runs = () => t.services.savedQueries.runs;
      await until(() => runs().running + runs().waiting === 2);
      assert.deepEqual(runs(), { running: 1, waiting: 1 });

      // The third is answered at once, never taken on (had it been, it would wait on the bibs too).
      let answered = false;
      const third = run('192.0.2.3').finally(() => (answered = true));
      await until(() => answered || runs().running + runs().waiting > 2);
      assert.ok(answered, `a third run was taken on: ${JSON.stringify(runs())}`);
      assertRefused(await third, 429, 134);
      assert.match((await third).json().description, /at once/);
      assert.ok(Number((await third).headers['retry-after']) >= 1);
      const status = await t.app.inject({ method: 'GET', url: '/api' });
      assert.equal(status.statusCode, 200, status.body);
      assert.deepEqual(t.services.savedQueries.runs, { running: 1, waiting: 1 });
    } finally {
      // Let the writer go however the test went, or the database could not be dropped.
      release();
      await writer;
    }
    for (const res of [await first, await second]) assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(t.services.savedQueries.runs, { running: 0, waiting: 0 });
    assert.equal((await run('192.0.2.3')).statusCode, 200);
  });
});

describe(`public saved-query runs counted by address and by key on ${ENGINE}`, () => {
  let t: TestApp;
  let id: string;
  before(async () => {
    t = await createTestApp({ CARREL_QUERY_PUBLIC_RATE_LIMIT: '3' });
    const api = caller(t, await bearer(t, ['Queries_Write']));
    id = await create(api, '/v6/queries', { name: 'open', sql: 'select 1 as one', public: true });
  });
  after(() => t.close());

  const run = (address: string, authorization?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/v6/queries/${id}/results`,
      remoteAddress: address,
      headers: authorization ? { authorization } : {},
    });

  it('a token without Queries_Read is counted by its key and its address, not let through', async () => {
    const key = await bearer(t, ['Bibs_Read']);
    await withRoomInMinute(40_000);
    for (let i = 0; i < 3; i++) assert.equal((await run('192.0.2.10', key)).statusCode, 200);
    const over = await run('192.0.2.10', key);
    assertRefused(over, 429, 134);
    assert.match(over.json().description, /at most 3 runs of public queries a minute/);
    assert.ok(Number(over.headers['retry-after']) >= 1);
    // The same key from another address: its key's count.
    assertRefused(await run('192.0.2.11', key), 429, 134);
    // That address's own count was not taken by the refusal; another key from the first address: the address's count.
    assert.equal((await run('192.0.2.11')).statusCode, 200);
    assertRefused(await run('192.0.2.10', await bearer(t, ['Bibs_Read'])), 429, 134);
    assertRefused(await run('192.0.2.10'), 429, 134);
    // A key that may read every query runs it as any other: not a public run.
    assert.equal((await run('192.0.2.10', await bearer(t, ['Queries_Read']))).statusCode, 200);
  });
});
