// The database stops under load and comes back: the server process, as deployed, against a
// PostgreSQL of the test's own (test/helpers/own-postgres.ts). Requests must not wait past the
// connect time-out (+ 1 s), GET /api must say Unhealthy while it is away and Healthy within a
// second of its return, and no write the server acknowledged may be lost; writes sent again with
// their Idempotency-Key until answered are each done exactly once.
// (PostgreSQL's outages only: it runs in the PostgreSQL pass of the suite.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ENGINE } from '../helpers/db.ts';
import { postgresBin, startOwnPostgres, type OwnPostgres } from '../helpers/own-postgres.ts';
import { startServer, type ServerProcess, serverBearer } from '../helpers/process.ts';
import { freePort } from '../helpers/tcp.ts';

const CONNECT_TIMEOUT_SEC = 2;
const skip = ENGINE !== 'postgres' ? 'runs in the PostgreSQL pass' : !postgresBin() ? 'needs the PostgreSQL server programs' : false;

interface Outcome {
  kind: 'health' | 'write';
  startedAt: number;
  ms: number;
  status: number;
  body: any;
}

describe('a PostgreSQL outage under load', { skip }, () => {
  let pg: OwnPostgres;
  let server: ServerProcess;
  let token: string;

  before(async () => {
    pg = await startOwnPostgres();
    server = await startServer(
      {
        DATABASE_URL: pg.url,
        CARREL_DB_CONNECT_TIMEOUT: String(CONNECT_TIMEOUT_SEC),
        CARREL_STATE_POLL_MS: '200',
        CARREL_DB_POOL_MAX: '4',
      },
      await freePort(),
    );
    token = (await serverBearer(server, { DATABASE_URL: pg.url }, ['all'])).slice('Bearer '.length);
  });
  after(async () => {
    await server?.stop();
    await pg?.remove();
  });

  it('answers every request within the time-out, reports the outage at once and the recovery within a second, and loses no acknowledged write', async () => {
    const outcomes: Outcome[] = [];
    const acknowledged = new Map<string, string>(); // patron id → barcode
    let running = true;
    let serial = 0;
    const timed = async (kind: Outcome['kind'], call: () => Promise<Response>) => {
      const startedAt = performance.now();
      const res = await call().catch((error: unknown) => {
        throw new Error(`no answer (${String(error)}); the server's output:\n${server.output().slice(-3000)}`);
      });
      const text = await res.text();
      const outcome = { kind, startedAt, ms: performance.now() - startedAt, status: res.status, body: text ? JSON.parse(text) : null };
      outcomes.push(outcome);
      return outcome;
    };
    const client = async (n: number) => {
      while (running) {
        if (n % 2 === 0) {
          await timed('health', () => fetch(`${server.url}/api`));
          continue;
        }
        // One logical write, sent with an Idempotency-Key and sent again until it is answered for good.
        const barcode = `out${n}-${serial++}`;
        const name = `Outage, Client ${barcode}`;
        for (let attempt = 0; attempt < 200; attempt++) {
          const written = await timed('write', () =>
            fetch(`${server.url}/v6/patrons`, {
              method: 'POST',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': barcode },
              body: JSON.stringify({ names: [name], barcodes: [barcode] }),
            }),
          );
          if (written.status !== 503) {
            assert.equal(written.status, 200, JSON.stringify(written.body));
            acknowledged.set(String(written.body.link).split('/').pop()!, barcode);
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    };
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const clients = Array.from({ length: 8 }, (_, n) => client(n));

    await pause(1000);
    await pg.stop();
    const stoppedAt = performance.now(); // PostgreSQL has shut down
    await pause(3000);
    const restartingAt = performance.now(); // it may take connections before pg_ctl sees it has started
    await pg.start();
    const backAt = performance.now();
    await pause(2000);
    running = false;
    await Promise.all(clients);

    // Every answer came within the time-out (+ 1 s), and was an answer of the contract.
    const slowest = Math.max(...outcomes.map((o) => o.ms));
    assert.ok(slowest <= (CONNECT_TIMEOUT_SEC + 1) * 1000, `the slowest answer took ${Math.round(slowest)} ms`);
    for (const o of outcomes) {
      if (o.kind === 'health') assert.equal(o.status, 200, 'GET /api answers 200 whatever the database does');
      else if (o.status !== 200) {
        assert.equal(o.status, 503, JSON.stringify(o.body));
        assert.equal(o.body.code, 112);
      }
    }
    // Unhealthy while away; Healthy within a second of PostgreSQL taking connections again.
    const health = outcomes.filter((o) => o.kind === 'health');
    // A check answered just before the stop may still be reused, for up to its max age as the busy
    // server counts it; once one answer says Unhealthy, every later one does until the database is back.
    const away = health
      .filter((o) => o.startedAt > stoppedAt && o.startedAt + o.ms < restartingAt)
      .sort((a, b) => a.startedAt - b.startedAt);
    const told = away.find((o) => o.body.status === 'Unhealthy');
    assert.ok(told, 'GET /api said Unhealthy while the database was away');
    for (const o of away.filter((a) => a.startedAt > told.startedAt + told.ms)) assert.equal(o.body.status, 'Unhealthy');
    assert.ok(
      away.filter((o) => o.body.status === 'Healthy').every((o) => o.startedAt - stoppedAt < 1000),
      'Healthy only from a check made before the stop',
    );
    const firstHealthy = health
      .filter((o) => o.startedAt >= backAt && o.body.status === 'Healthy')
      .sort((a, b) => a.startedAt - b.startedAt)[0];
    assert.ok(firstHealthy, 'Healthy again after the database came back');
    assert.ok(
      firstHealthy.startedAt + firstHealthy.ms - backAt <= 1000,
      `Healthy ${Math.round(firstHealthy.startedAt + firstHealthy.ms - backAt)} ms after`,
    );
    assert.ok(
      outcomes.some((o) => o.kind === 'write' && o.status === 503),
      'some writes were refused while the database was away',
    );
    assert.ok(
      outcomes.some((o) => o.kind === 'write' && o.status === 200 && o.startedAt > backAt),
      'writes succeed again',
    );

    // Every write was answered for good in the end, runs once however often it was sent, and is there.
    assert.equal(acknowledged.size, serial);
    const counts = await fetch(`${server.url}/v6/patrons?limit=2000&fields=names`, { headers: { authorization: `Bearer ${token}` } });
    const listed = ((await counts.json()) as { entries: { names: string[] }[] }).entries.flatMap((p) => p.names);
    assert.equal(listed.length, new Set(listed).size, 'no write was done twice');
    assert.equal(listed.length, serial);
    for (const [id, barcode] of acknowledged) {
      const res = await fetch(`${server.url}/v6/patrons/${id}?fields=barcodes`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.status, 200, `acknowledged patron ${id} is there`);
      assert.deepEqual(((await res.json()) as { barcodes: string[] }).barcodes, [barcode]);
    }
  });
});
