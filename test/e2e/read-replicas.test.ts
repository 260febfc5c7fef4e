// Read replicas (DATABASE_READ_URLS): a real primary and a streaming replica of it made by
// pg_basebackup -R (test/helpers/own-postgres.ts), the server as deployed in front of them. Which
// server answered a read is told by the replica itself (its pg_stat_statements), not by Carrel.
// (PostgreSQL only: it runs in the PostgreSQL pass of the suite.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { ENGINE } from '../helpers/db.ts';
import { eventually } from '../helpers/eventually.ts';
import { postgresBin, startOwnPostgres, type OwnPostgres } from '../helpers/own-postgres.ts';
import { carrel, startServer, type ServerProcess, serverBearer } from '../helpers/process.ts';
import { freePort } from '../helpers/tcp.ts';

const skip = ENGINE !== 'postgres' ? 'runs in the PostgreSQL pass' : !postgresBin() ? 'needs the PostgreSQL server programs' : false;

describe('read replicas', { skip }, () => {
  let primary: OwnPostgres;
  let replica: OwnPostgres;
  let server: ServerProcess;
  let writer: string;
  let reader: string;
  /** A client whose only write is one sent with an Idempotency-Key. */
  let idempotentWriter: string;
  let onReplica: postgres.Sql;
  let sqlPort: number;

  before(async () => {
    primary = await startOwnPostgres({ shared_preload_libraries: 'pg_stat_statements' });
    const sql = postgres(primary.url, { max: 1, onnotice: () => {} });
    await sql`create extension pg_stat_statements`;
    await sql.end();
    replica = await primary.startReplica();
    const env = { DATABASE_URL: primary.url, CARREL_DEMO_CATALOGUE: 'false' };
    // A long lag allowed: the replica stays in rotation while its replay is paused.
    sqlPort = await freePort();
    server = await startServer(
      { ...env, DATABASE_READ_URLS: replica.url, CARREL_REPLICA_MAX_LAG_MS: '600000', CARREL_SQL_PORT: String(sqlPort) },
      await freePort(),
    );
    writer = await serverBearer(server, env, ['all']);
    reader = await serverBearer(server, env, ['all']);
    idempotentWriter = await serverBearer(server, env, ['all']);
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
  /** How many times the replica ran statements whose text is like `pattern` (0 while it cannot be asked). */
  const replicaRan = async (pattern: string) => {
    const rows = await onReplica<
      { calls: number }[]
    >`select coalesce(sum(calls), 0)::int as calls from pg_stat_statements where query like ${pattern}`.catch(() => [{ calls: 0 }]);
    return rows[0]!.calls;
  };
  const SEARCH = '%search\\_terms%';
  /**
   * Whether the replica comes to run statements like `pattern` for `call`, made again (at most 40
   * times) while it does not: a read goes to the primary while the replica has not replayed what it
   * needs, or has fallen out of rotation, which a loaded machine may make it for a moment.
   */
  const onTheReplica = (pattern: string, call: () => Promise<Response>) =>
    eventually(async () => {
      const before = await replicaRan(pattern);
      const res = await call();
      assert.equal(res.status, 200, await res.text());
      return (await replicaRan(pattern)) > before;
    }, 40);
  /** `carrel status --json`, with the server's settings. */
  const status = async (more: Record<string, string> = {}) => {
    const env = { DATABASE_URL: primary.url, DATABASE_READ_URLS: replica.url, PORT: new URL(server.url).port, ...more };
    const ran = await carrel(['status', '--json'], env);
    return JSON.parse(ran.stdout) as {
      status: number;
      replicas: { inRotation: boolean; lagMs: number | null; reason?: string }[];
      replicasNotWatched?: string;
    };
  };
  const get = (auth: string, path: string) => fetch(`${server.url}${path}`, { headers: { authorization: auth } });
  const post = (auth: string, path: string, body: unknown) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('serves searches, harvests, JSON queries and saved queries from the replica', async () => {
    assert.ok(await onTheReplica(SEARCH, () => get(reader, '/v6/bibs/search?text=anything')), 'a search');
    assert.ok(await onTheReplica('%from patrons p%', () => get(reader, '/v6/patrons?limit=5')), 'a harvest');
    // A window of dates: read behind the change clock's horizon, taken on the primary.
    assert.ok(
      await onTheReplica('%from patrons p%', () => get(reader, '/v6/patrons?updatedDate=[2000-01-01T00:00:00Z,]')),
      'a harvest by date',
    );
    const query = { target: { record: { type: 'item' }, id: 79 }, expr: { op: 'equals', operands: ['0', ''] } };
    assert.ok(
      await onTheReplica('%i.id::text from items i%', () => post(reader, '/v6/items/query?offset=0&limit=5', query)),
      'a JSON query',
    );
    const saved = await post(writer, '/v6/queries', { name: 'replica', sql: 'select 42 as replica_answer' });
    assert.equal(saved.status, 200, await saved.clone().text());
    const id = ((await saved.json()) as { link: string }).link.split('/').pop()!;
    // The replica replays the new query within its lag; until then, the reader reads it from the primary.
    assert.ok(await onTheReplica('%replica\\_answer%', () => get(reader, `/v6/queries/${id}/results`)), 'a saved query');
    // `carrel sql`, a command that only reads.
    const cliOnReplica = async () => {
      const before = await replicaRan('%cli\\_on\\_replica%');
      const ran = await carrel(['sql', 'select 777 as cli_on_replica', '--json'], {
        DATABASE_URL: primary.url,
        DATABASE_READ_URLS: replica.url,
      });
      assert.equal(ran.code, 0, ran.stderr);
      return (await replicaRan('%cli\\_on\\_replica%')) > before;
    };
    assert.ok(await eventually(cliOnReplica, 5), 'carrel sql');
    // A SQL login's session through the SQL door stays on the primary: it may make temporary
    // tables, which a replica refuses.
    const created = await carrel(['sql', 'users', 'create', 'replica_reader', '--json'], { DATABASE_URL: primary.url });
    assert.equal(created.code, 0, created.stderr);
    const login = new URL((JSON.parse(created.stdout) as { url: string }).url);
    login.port = String(sqlPort);
    const session = postgres(login.toString(), { max: 1, onnotice: () => {} });
    try {
      await session`create temporary table report_rows as select 1 as n`;
      assert.deepEqual([...(await session`select count(*)::int as n from report_rows`)], [{ n: 1 }]);
    } finally {
      await session.end({ timeout: 1 });
    }
  });

  it("reads a client's own write, never stale, while the replica's replay is paused", async () => {
    await onReplica`select pg_wal_replay_pause()`;
    // The call asks for the pause; replay stops a moment later.
    assert.ok(await eventually(async () => (await onReplica`select pg_get_wal_replay_pause_state() as state`)[0]!.state === 'paused'));
    try {
      const since = new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
      const posted = await fetch(`${server.url}/v6/bibs`, {
        method: 'POST',
        headers: { authorization: writer, 'content-type': 'application/json' },
        body: JSON.stringify({
          leader: '00000nam a2200000 i 4500',
          fields: [{ '245': { ind1: '0', ind2: '0', subfields: [{ a: 'Quixotic zephyrs' }] } }],
        }),
      });
      assert.equal(posted.status, 200);
      const bibId = ((await posted.json()) as { link: string }).link.split('/').pop()!;
      // A harvest by date, even by a client that wrote nothing, sees every change before its horizon
      // (which is a second behind the clock): read from the primary while the replica has not replayed them.
      const harvests = async () => {
        const harvested = await get(reader, `/v6/bibs?updatedDate=[${since},]&fields=id&limit=2000`);
        assert.equal(harvested.status, 200);
        return ((await harvested.json()) as { entries: { id: string }[] }).entries.some((e) => String(e.id) === bibId);
      };
      assert.ok(await eventually(harvests), 'a harvest by date skips no change');
      // A write sent with an Idempotency-Key (its own transaction, committed as its answer is sent),
      // then a harvest of it by the writer: from the primary; by another client: the paused replica.
      const idempotent = await fetch(`${server.url}/v6/patrons`, {
        method: 'POST',
        headers: { authorization: idempotentWriter, 'content-type': 'application/json', 'idempotency-key': 'paused-patron-1' },
        body: JSON.stringify({ names: ['Idempotent, Paused'], barcodes: ['paused2'] }),
      });
      assert.equal(idempotent.status, 200, await idempotent.clone().text());
      const patronId = ((await idempotent.json()) as { link: string }).link.split('/').pop()!;
      const harvestOf = async (auth: string) => {
        const res = await get(auth, `/v6/patrons?id=${patronId}`);
        assert.equal(res.status, 200);
        return ((await res.json()) as { total: number }).total;
      };
      assert.equal(await harvestOf(idempotentWriter), 1, 'the writer harvests its idempotent write');
      assert.equal(await harvestOf(reader), 0, 'another client harvests the paused replica');
      // Commands: one that only reads, after one that wrote, reads that write (from the primary).
      const commands = { DATABASE_URL: primary.url, DATABASE_READ_URLS: replica.url };
      const created = await carrel(['patrons', 'create', '--name', 'Paused, Replica', '--barcode', 'paused1', '--json'], commands);
      assert.equal(created.code, 0, created.stderr);
      const listed = await carrel(['patrons', 'list', '--limit', '2000', '--json'], commands);
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(listed.stdout, /paused1/, 'a command reads the write of the command before it');
      // The writer finds its bib once the primary has indexed it (within a second), not from the replica.
      const before = await replicaRan(SEARCH);
      assert.ok(await eventually(async () => (await search(writer, 'zephyrs')).body.total === 1), 'the writer finds its new bib');
      assert.equal(await replicaRan(SEARCH), before, 'the writer was not served by the paused replica');
      // Another client, which wrote nothing, reads the paused replica: the bib is not there yet.
      const other = await search(reader, 'zephyrs');
      assert.equal(other.status, 200);
      assert.equal(other.body.total, 0, 'a client that wrote nothing is served by the (paused) replica');
      assert.ok((await replicaRan(SEARCH)) > before);
      // The paused replica, behind the writes above (by more than the second `carrel status` watches
      // it), is out of rotation for its lag, also for a process that has just started watching it.
      const lagging = await status();
      assert.equal(lagging.replicas[0]!.inRotation, false);
      assert.match(lagging.replicas[0]!.reason!, /lags \d+ ms behind the primary/);
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
    assert.ok(await eventually(async () => server.output().includes('read replica out of rotation')), 'the server logs it');
    const down = await status();
    assert.equal(down.replicas[0]!.inRotation, false);
    assert.match(down.replicas[0]!.reason!, /cannot be reached/);
    await replica.start();
    onReplica = postgres(replica.url, { max: 1, onnotice: () => {} });
    // (pg_stat_statements keeps its counts through a clean shutdown: counted from here.)
    const restarted = await replicaRan(SEARCH);
    assert.ok(
      await eventually(async () => {
        const found = await search(reader, 'zephyrs');
        assert.deepEqual([found.status, found.body.total], [200, 1]);
        return (await replicaRan(SEARCH)) > restarted;
      }),
      'searches go to the replica again',
    );
    const up = await status();
    assert.deepEqual([up.status, up.replicas.length, up.replicas[0]!.inRotation], [0, 1, true]);
    assert.equal(typeof up.replicas[0]!.lagMs, 'number');
    // The service's health is still told when the primary cannot be reached from where it is asked.
    const blind = await status({ DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/postgres` });
    assert.equal(blind.status, 0);
    assert.match(blind.replicasNotWatched!, /cannot reach the database/);
  });

  it('asks the primary again when the replica cancels a read for what it replays', async () => {
    const saved = await post(writer, '/v6/queries', {
      name: 'recovery conflict',
      // Its lock on bibs is held from the start, while it sleeps.
      sql: 'select pg_sleep(2)::text as conflict_probe, (select count(*) from sierra_view.bib_record) as bibs',
    });
    assert.equal(saved.status, 200, await saved.clone().text());
    const id = ((await saved.json()) as { link: string }).link.split('/').pop()!;
    const cancelled = async () =>
      (await onReplica`select confl_lock::int as n from pg_stat_database_conflicts where datname = current_database()`)[0]!.n;
    // (Carrel runs a library's statement as a cursor: what the replica runs is the cursor's fetch.)
    const running = async () =>
      (
        await onReplica`select count(*)::int as n from pg_stat_activity
          where state = 'active' and query like 'fetch forward % from carrel\\_sql' and pid <> pg_backend_pid()`
      )[0]!.n > 0;
    const onPrimary = postgres(primary.url, { max: 1, onnotice: () => {} });
    // The replica cancels a statement in its way at once, rather than holding its replay back. (The
    // last test: a read in another test's way would be asked of the primary as well.)
    await onReplica`alter system set max_standby_streaming_delay = 0`;
    await onReplica`select pg_reload_conf()`;
    try {
      const before = await cancelled();
      let answered: Response | undefined;
      // The statement goes to the replica once it has replayed the saved query (and is in rotation).
      for (let attempt = 0; attempt < 10 && !answered; attempt++) {
        let settled = false;
        const answer = get(reader, `/v6/queries/${id}/results`).finally(() => (settled = true));
        while (!settled && !(await running())) await new Promise((resolve) => setTimeout(resolve, 20));
        if (settled) {
          await answer;
          continue;
        }
        // A lock the replica must take as it replays it: the statement reading bibs is cancelled.
        await onPrimary.begin((sql) => sql`lock table bibs in access exclusive mode`);
        answered = await answer;
      }
      assert.ok(answered, 'the statement ran on the replica');
      assert.equal(answered.status, 200, await answered.clone().text());
      const body = (await answered.json()) as { entries?: unknown[][]; rows?: unknown[][] };
      assert.ok(JSON.stringify(body).includes('conflict_probe'), JSON.stringify(body));
      assert.ok((await cancelled()) > before, 'the replica cancelled the statement');
    } finally {
      await onPrimary.end({ timeout: 1 });
      await onReplica`alter system reset max_standby_streaming_delay`;
      await onReplica`select pg_reload_conf()`;
    }
  });
});
