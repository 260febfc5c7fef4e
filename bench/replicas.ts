// `npm run bench:replicas`: searches served by a PostgreSQL streaming replica against the same
// searches served by the primary. A primary and a pg_basebackup -R replica of it run on this
// machine (initdb, their own ports), with a generated catalogue; a fresh server (one worker) on the
// primary alone and one with DATABASE_READ_URLS take turns, round after round, each given its own
// slice of a stream of distinct two-word searches drawn from the catalogue's titles. The table
// gives requests/s and the CPU each request cost the server, the primary and the replica (all of
// each cluster's processes, from /proc), and the ratios: the same throughput, the primary's CPU freed.
// Options: --bibs N (default 20000), --seconds N per run (default 5), --rounds N (default 3),
// --connections N (default 16).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { STOP_WORDS } from '../src/search/text.ts';
import { startOwnPostgres, type OwnPostgres } from '../test/helpers/own-postgres.ts';
import { cpuMsOf, loadStream, percentile, ROOT, startChild, stop } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    bibs: { type: 'string', default: '20000' },
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '16' },
  },
});
const BIBS = Number(args.bibs);
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const CONNECTIONS = Number(args.connections);
const RESULTS = path.join(ROOT, 'bench/results');
const PORT = 3951;

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
const cpuOf = (pids: number[]) => new Map(pids.map((pid) => [pid, cpuMsOf(pid)]));
/** CPU (ms) a cluster's processes used since `before` (a process started since counts from zero). */
const cpuSince = (cluster: OwnPostgres, before: Map<number, number>) =>
  cluster.processes().reduce((sum, pid) => sum + cpuMsOf(pid) - (before.get(pid) ?? 0), 0);

/** Distinct two-word searches from the catalogue's titles, in a stable order. */
async function searches(primary: postgres.Sql): Promise<string[]> {
  const rows = await primary<{ title: string }[]>`select title from search_docs where title <> '' order by bib_id`;
  const texts = new Set<string>();
  for (const { title } of rows) {
    const words = [...new Set(title.toLowerCase().match(/\p{L}{3,}/gu) ?? [])].filter((w) => !STOP_WORDS.has(w));
    for (let i = 0; i + 1 < words.length; i++) texts.add(`${words[i]} ${words[i + 1]}`);
  }
  return [...texts].map((text) => `/v6/bibs/search?${new URLSearchParams({ text, limit: '20' })}`);
}

async function main(): Promise<void> {
  fs.mkdirSync(RESULTS, { recursive: true });
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const primary = await startOwnPostgres();
  let replica: OwnPostgres | undefined;
  try {
    const env = { DATABASE_URL: primary.url, LOG_LEVEL: 'warn' };
    const cli = (command: string[]) =>
      execFileSync(process.execPath, ['dist/cli.js', ...command], { cwd: ROOT, env: { ...process.env, ...env } }).toString();
    process.stderr.write(`generating ${BIBS} bibs and indexing them\n`);
    cli(['generate', '--bibs', String(BIBS), '--seed', '1', '--patrons', '0']);
    cli(['search', 'reindex']);
    const key = JSON.parse(cli(['keys', 'create', '--name', 'replicas', '--roles', 'all', '--json'])) as { key: string; secret: string };
    const basic = Buffer.from(`${key.key}:${key.secret}`).toString('base64');
    replica = await primary.startReplica();
    const onPrimary = postgres(primary.url, { max: 1, onnotice: () => {} });
    const onReplica = postgres(replica.url, { max: 1, onnotice: () => {} });
    const stream = await searches(onPrimary);
    // The replica has everything before the load starts.
    const [{ lsn }] = (await onPrimary`select pg_current_wal_lsn()::text as lsn`) as unknown as [{ lsn: string }];
    for (;;) {
      const [{ caughtUp }] = (await onReplica`select pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn as "caughtUp"`) as unknown as [
        { caughtUp: boolean },
      ];
      if (caughtUp) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await onPrimary.end();
    await onReplica.end();
    const loadBefore = loadAverage();

    let next = 0;
    const slice = Math.floor(stream.length / (2 * ROUNDS));
    const serverEnv = { ...env, PORT: String(PORT), HOST: '127.0.0.1', CARREL_WORKERS: '1', CARREL_RATE_LIMIT: '100000000' };
    async function run(withReplica: boolean) {
      const paths = stream.slice(next, next + slice);
      next += slice;
      const server = await startChild(
        ['dist/server.js'],
        { ...serverEnv, LOG_LEVEL: 'info', ...(withReplica && { DATABASE_READ_URLS: replica!.url }) },
        /is listening on/,
        path.join(RESULTS, `replicas-${withReplica ? 'replica' : 'primary'}.log`),
      );
      try {
        const issued = await fetch(`http://127.0.0.1:${PORT}/v6/token`, { method: 'POST', headers: { authorization: `Basic ${basic}` } });
        const auth = `Bearer ${((await issued.json()) as { access_token: string }).access_token}`;
        const [server0, primary0, replica0] = [cpuMsOf(server.pid!), cpuOf(primary.processes()), cpuOf(replica!.processes())];
        const load = await loadStream(PORT, paths, auth, CONNECTIONS, SECONDS);
        const n = load.latencies.length;
        const per = (ms: number) => ms / n;
        return {
          ...load,
          serverMs: per(cpuMsOf(server.pid!) - server0),
          primaryMs: per(cpuSince(primary, primary0)),
          replicaMs: per(cpuSince(replica!, replica0)),
        };
      } finally {
        await stop(server);
      }
    }

    const runs: Record<'primary' | 'replica', Awaited<ReturnType<typeof run>>[]> = { primary: [], replica: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      process.stderr.write(`round ${round}/${ROUNDS}: the primary alone\n`);
      runs.primary.push(await run(false));
      process.stderr.write(`round ${round}/${ROUNDS}: with the replica\n`);
      runs.replica.push(await run(true));
    }
    const loadAfter = loadAverage();
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
    const of = (mode: 'primary' | 'replica', pick: (r: Awaited<ReturnType<typeof run>>) => number) => median(runs[mode].map(pick));
    const rows = (['primary', 'replica'] as const).map((mode) => ({
      'searches served by': mode === 'primary' ? 'the primary' : 'the replica',
      'req/s (median)': Math.round(of(mode, (r) => r.rps)),
      'req/s (each round)': runs[mode].map((r) => Math.round(r.rps)).join(', '),
      'p50 / p99 ms': `${of(mode, (r) => percentile(r.latencies, 0.5))} / ${of(mode, (r) => percentile(r.latencies, 0.99))}`,
      'server CPU ms/req': of(mode, (r) => r.serverMs).toFixed(2),
      'primary CPU ms/req': of(mode, (r) => r.primaryMs).toFixed(2),
      'replica CPU ms/req': of(mode, (r) => r.replicaMs).toFixed(2),
      'errors, ran out': `${runs[mode].reduce((n, r) => n + r.errors, 0)}, ${runs[mode].some((r) => r.ranOut)}`,
    }));
    const throughput = of('replica', (r) => r.rps) / of('primary', (r) => r.rps);
    const primaryCpu = of('replica', (r) => r.primaryMs) / of('primary', (r) => r.primaryMs);
    console.log(
      `\n${BIBS} bibs; distinct two-word searches (${stream.length} drawn, ${slice} a run), ${CONNECTIONS} connections, ` +
        `${ROUNDS} rounds of ${SECONDS} s each, taking turns; primary and replica on this machine; ` +
        `${os.availableParallelism()} cores, load average ${loadBefore} before and ${loadAfter} after; Node ${process.version}\n`,
    );
    console.table(rows);
    console.log(
      `with the replica: ${throughput.toFixed(2)}× the primary's throughput; the primary's CPU a search ${primaryCpu.toFixed(2)}× ` +
        `(${Math.round((1 - primaryCpu) * 100)}% freed)`,
    );
    fs.writeFileSync(
      path.join(RESULTS, `replicas-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
      JSON.stringify({ bibs: BIBS, loadBefore, loadAfter, rows, throughput, primaryCpu }, null, 2),
    );
  } finally {
    await replica?.remove();
    await primary.remove();
  }
}

await main();
