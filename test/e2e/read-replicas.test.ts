// Read replicas (DATABASE_READ_URLS): a real primary and a streaming replica of it made by
// pg_basebackup -R (test/helpers/own-postgres.ts), the server as deployed in front of them. Which
// server answered a read is told by the replica itself (its pg_stat_activity), not by Carrel.
// (PostgreSQL only: it runs in the PostgreSQL pass of the suite.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { ENGINE } from '../helpers/db.ts';
import { postgresBin, startOwnPostgres, type OwnPostgres } from '../helpers/own-postgres.ts';
import { startServer, type ServerProcess, serverBearer } from '../helpers/process.ts';
import { freePort } from '../helpers/tcp.ts';

const skip = ENGINE !== 'postgres' ? 'runs in the PostgreSQL pass' : !postgresBin() ? 'needs the PostgreSQL server programs' : false;

/** Asks `check` every 50 ms, at most `rounds` times, until it answers true. */
async function eventually(check: () => Promise<boolean>, rounds = 400): Promise<boolean> {
  for (let i = 0; i < rounds; i++) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe('read replicas', { skip }, () => {
  let primary: OwnPostgres;
  let replica: OwnPostgres;
  let server: ServerProcess;
  let writer: string;
  let reader: string;
  let onReplica: postgres.Sql;

  before(async () => {
    primary = await startOwnPostgres();
    replica = await primary.startReplica();
    const env = { DATABASE_URL: primary.url, CARREL_DEMO_CATALOGUE: 'false' };
    // A long lag allowed: the replica stays in rotation while its replay is paused.
    server = await startServer({ ...env, DATABASE_READ_URLS: replica.url, CARREL_REPLICA_MAX_LAG_MS: '600000' }, await freePort());
    writer = await serverBearer(server, env, ['Bibs_Write']);
    reader = await serverBearer(server, env, ['Bibs_Write']);
    onReplica = postgres(replica.url, { max: 1, onnotice: () => {} });
  });
  after(async () => {
    await onReplica?.end({ timeout: 1 });
    await server?.stop();
    await replica?.remove();
    await primary?.remove();
  });

  const search = async (auth: string, word: string) => {
    const res = await fetch(`${server.url}/v6/bibs/search?text=${word}`, { headers: { authorization: auth } });
    return { status: res.status, body: (await res.json()) as { total?: number } };
  };
  /** Whether one of Carrel's sessions on the replica ran a search statement (pg_stat_activity shows each session's last). */
  const replicaSearched = async () => {
    const rows = await onReplica`select 1 from pg_stat_activity where application_name = 'carrel' and query like '%search\_terms%'`.catch(
      () => [],
    );
    return rows.length > 0;
  };

  it('serves searches from the replica', async () => {
    assert.equal((await search(reader, 'anything')).status, 200);
    assert.ok(await eventually(replicaSearched), "the replica's own activity shows Carrel's search");
  });

  it("reads a client's own write, never stale, while the replica's replay is paused", async () => {
    await onReplica`select pg_wal_replay_pause()`;
    try {
      const posted = await fetch(`${server.url}/v6/bibs`, {
        method: 'POST',
        headers: { authorization: writer, 'content-type': 'application/json' },
        body: JSON.stringify({
          leader: '00000nam a2200000 i 4500',
          fields: [{ '245': { ind1: '0', ind2: '0', subfields: [{ a: 'Quixotic zephyrs' }] } }],
        }),
      });
      assert.equal(posted.status, 200);
      // The writer finds its bib once the primary has indexed it (within a second).
      assert.ok(await eventually(async () => (await search(writer, 'zephyrs')).body.total === 1), 'the writer finds its new bib');
      // Another client, which wrote nothing, reads the paused replica: the bib is not there yet.
      const other = await search(reader, 'zephyrs');
      assert.equal(other.status, 200);
      assert.equal(other.body.total, 0, 'a client that wrote nothing is served by the (paused) replica');
    } finally {
      await onReplica`select pg_wal_replay_resume()`;
    }
    assert.ok(await eventually(async () => (await search(reader, 'zephyrs')).body.total === 1), 'the replica catches up');
  });

  it('falls back to the primary with no error while the replica is down, and uses it again once it is back', async () => {
    await onReplica.end({ timeout: 1 });
    await replica.stop();
    for (let i = 0; i < 20; i++) {
      const found = await search(reader, 'zephyrs');
      assert.deepEqual([found.status, found.body.total], [200, 1], `search ${i} with the replica down`);
    }
    await replica.start();
    onReplica = postgres(replica.url, { max: 1, onnotice: () => {} });
    assert.ok(
      await eventually(async () => {
        const found = await search(reader, 'zephyrs');
        assert.deepEqual([found.status, found.body.total], [200, 1]);
        return replicaSearched();
      }),
      'searches go to the replica again',
    );
  });
});
