// together(): a transaction's statements sent without waiting for each other run in the order they
// were issued (circulation keeps its lock order by it), the first failure in that order is the one
// thrown once every statement has finished, and on PostgreSQL they reach the server together.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { openPostgres } from '../../src/db/postgres.ts';
import { together } from '../../src/db/together.ts';
import { DomainError } from '../../src/shared/errors.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';
import { freePort } from '../helpers/tcp.ts';

describe(`statements sent together on ${ENGINE}`, () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb();
    await t.db.exec('create table together_log (seq serial primary key, n int not null)');
  });
  after(() => t?.drop());

  it('run in the order they were issued', async () => {
    const ns = [5, 3, 9, 1, 7, 2, 8, 4, 6, 0];
    const answered = await t.db.transaction((tx) =>
      together(ns.map((n) => tx.query<{ n: number }>('insert into together_log (n) values ($1) returning n', [n]))),
    );
    assert.deepEqual(
      answered.map((rows) => rows[0]!.n),
      ns,
    );
    const rows = await t.db.query<{ n: number }>('select n from together_log order by seq');
    assert.deepEqual(
      rows.map((r) => r.n),
      ns,
    );
  });

  it('throw the first failure in issue order, after every statement has finished, and the transaction keeps nothing', async () => {
    await t.db.exec('truncate together_log');
    const finished: string[] = [];
    const note = <T>(name: string, p: Promise<T>) =>
      p.finally(() => {
        finished.push(name);
      });
    const refusal = new DomainError('notFound', 'the second');
    let finishedWhenAnswered: string[] = [];
    const outcome = await t.db
      .transaction((tx) =>
        together([
          note('insert', tx.query('insert into together_log (n) values (1)')),
          // A rule's refusal after its statement answered, issued before the statement that fails
          // and settled after it: the first in issue order, not in time.
          note(
            'refused',
            tx.query('select 1').then(() => new Promise((_, reject) => setTimeout(() => reject(refusal), 20))),
          ),
          note('failed', tx.query('select 1 / 0')),
          note('aborted', tx.query('insert into together_log (n) values (2)')),
        ]).finally(() => {
          finishedWhenAnswered = [...finished];
        }),
      )
      .then(
        () => 'committed',
        (error: unknown) => error,
      );
    assert.equal(outcome, refusal);
    assert.deepEqual(finishedWhenAnswered.sort(), ['aborted', 'failed', 'insert', 'refused']);
    assert.deepEqual([...(await t.db.query('select n from together_log'))], []);

    // Without the refusal, the statement's own error, not the aborted transaction's after it.
    const failed = await t.db
      .transaction((tx) => together([tx.query('select 1 / 0'), tx.query('insert into together_log (n) values (3)')]))
      .then(
        () => undefined,
        (error: unknown) => error as Error,
      );
    assert.match(String(failed?.message), /division by zero/);
    assert.deepEqual([...(await t.db.query('select n from together_log'))], []);
  });

  it(
    'reach PostgreSQL in fewer writes than one statement each',
    { skip: ENGINE !== 'postgres' && 'PostgreSQL only (the embedded engine is in the process)' },
    async () => {
      // A proxy that counts the client's writes: one a round trip when each statement waits for the last.
      let writes = 0;
      const target = new URL(t.url!);
      const server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname || '127.0.0.1');
        client.on('data', (chunk) => {
          writes++;
          upstream.write(chunk);
        });
        upstream.pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      const port = await freePort();
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      const url = new URL(t.url!);
      url.host = `127.0.0.1:${port}`;
      const db = openPostgres(url.toString(), { max: 1, connectTimeoutSec: 10 });
      try {
        const statements = (tx: { query: (text: string, params: unknown[]) => Promise<unknown> }) =>
          Array.from({ length: 10 }, (_, i) => () => tx.query('select $1::int as n', [i]));
        // Prepared on the connection first: a statement's first run waits for its description.
        await db.transaction(async (tx) => {
          for (const run of statements(tx)) await run();
        });
        writes = 0;
        await db.transaction(async (tx) => {
          for (const run of statements(tx)) await run();
        });
        const oneByOne = writes;
        writes = 0;
        await db.transaction((tx) => together(statements(tx).map((run) => run())));
        const sentTogether = writes;
        assert.ok(oneByOne >= 10, `one by one: ${oneByOne} writes`);
        assert.ok(sentTogether <= 3, `together: ${sentTogether} writes (BEGIN, the ten, COMMIT)`);
      } finally {
        await db.close();
        server.close();
      }
    },
  );
});
