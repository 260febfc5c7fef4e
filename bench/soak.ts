// `npm run bench:soak`: the floods of issue 33 against a running server (dist/, as `npm start` runs
// it), each for --seconds (default 30), while this process times GET /api and a token request
// (a valid key, from 127.0.0.1; the floods come from 127.0.0.2). Loopback only, bounded in time.
//
// Budgets: the probes' p99 under 200 ms during every flood, and the server's resident memory back
// within 20% of its start within RETURN_SECONDS of a flood's end (sampled each second: the table
// says how long it took). The server frees what a flood left when its garbage collector next runs
// a full collection, which V8 starts on its own some seconds after the allocation stops. A quiet run (no flood) is measured first, as the
// baseline. Prints a table; exits 1 when a budget is missed.
// Options: --seconds N per flood (default 30), --database-url URL (PostgreSQL; default: embedded),
// --floods a,b (default: all).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { dbUrl, percentile, ROOT, startChild, stop } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '30' },
    'database-url': { type: 'string' },
    floods: { type: 'string', default: 'token,paths,query,public,sip2-prelogin,sip2-login,sql-door' },
  },
});
const SECONDS = Number(args.seconds);
const P99_BUDGET_MS = 200;
const MEMORY_BUDGET = 1.2;
const RETURN_SECONDS = 30;
const SOAK_DB = 'carrel_soak';
const PORTS = { http: 3970, sip2: 3971, sql: 3972 };

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-soak-'));
const env: Record<string, string> = {
  HOST: '127.0.0.1',
  PORT: String(PORTS.http),
  CARREL_SIP2_PORT: String(PORTS.sip2),
  CARREL_SQL_PORT: String(PORTS.sql),
  CARREL_DATA_DIR: dataDir,
  CARREL_WORKERS: '1',
  CARREL_HEALTH_MAX_AGE_MS: '0',
  LOG_LEVEL: 'info',
};
if (args['database-url']) {
  const admin = postgres(args['database-url'], { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${SOAK_DB} with (force)`);
  await admin.unsafe(`create database ${SOAK_DB}`);
  await admin.end();
  env.DATABASE_URL = dbUrl(args['database-url'], SOAK_DB);
}

execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
const logFile = path.join(ROOT, 'bench/results/soak-server.log');
const server = await startChild(['dist/server.js'], env, /Server listening/, logFile);
const cli = (...argv: string[]) =>
  JSON.parse(
    execFileSync(process.execPath, ['dist/cli.js', ...argv, '--json'], { cwd: ROOT, env: { ...process.env, ...env } }).toString(),
  ) as Record<string, string>;
const base = `http://127.0.0.1:${PORTS.http}`;

try {
  const key = cli('keys', 'create', '--name', 'soak', '--roles', 'Bibs_Read,Queries_Read,Queries_Write');
  cli('sip', 'accounts', 'create', 'soak', '--institution', 'MAIN');
  const basic = `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}`;
  const tokenRequest = () =>
    fetch(`${base}/v6/token`, {
      method: 'POST',
      headers: { Authorization: basic, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
  const token = ((await (await tokenRequest()).json()) as { access_token: string }).access_token;
  const saved = (await (
    await fetch(`${base}/v6/queries`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'soak', sql: 'select count(*) from bib_record', public: true }),
    })
  ).json()) as { link: string };
  const publicQuery = saved.link.split('/').at(-1)!;

  const rssMb = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
  const logLines = () => fs.readFileSync(logFile, 'utf8').split('\n').length;

  /** Times GET /api and a token request, one after the other, until `done` settles. */
  async function probe(done: Promise<unknown>): Promise<{ api: number[]; token: number[]; failed: number; peakMb: number }> {
    let over = false;
    void done.finally(() => (over = true));
    const api: number[] = [];
    const tokens: number[] = [];
    let failed = 0;
    let peakMb = 0;
    while (!over) {
      for (const [into, call] of [
        [api, () => fetch(`${base}/api`)],
        [tokens, tokenRequest],
      ] as const) {
        const start = performance.now();
        const res = await call().catch(() => undefined);
        await res?.arrayBuffer();
        into.push(performance.now() - start);
        if (res?.status !== 200) failed++;
      }
      peakMb = Math.max(peakMb, rssMb());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { api: api.sort((a, b) => a - b), token: tokens.sort((a, b) => a - b), failed, peakMb };
  }

  const settle = () => new Promise((resolve) => setTimeout(resolve, 5000));
  /** The server's RSS once it is within `limit` MB, sampled each second for up to RETURN_SECONDS. */
  async function memoryBack(limit: number): Promise<{ mb: number; seconds: number }> {
    for (let seconds = 0; ; seconds++) {
      const mb = rssMb();
      if (mb <= limit || seconds === RETURN_SECONDS) return { mb, seconds };
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  await probe(new Promise((resolve) => setTimeout(resolve, 3000))); // warm
  await settle();
  const startMb = rssMb();
  const rows: Record<string, string | number>[] = [];
  let missed = false;
  for (const kind of ['quiet', ...args.floods.split(',')]) {
    const lines = logLines();
    const config = JSON.stringify({ ...PORTS, token, publicQuery });
    const flood =
      kind === 'quiet'
        ? new Promise<string>((resolve) => setTimeout(() => resolve('{}'), SECONDS * 1000))
        : new Promise<string>((resolve, reject) => {
            const child = spawn(process.execPath, ['--import', 'tsx', 'bench/soak-flood.ts', kind, String(SECONDS), config], { cwd: ROOT });
            let out = '';
            child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
            child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
            child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`flood ${kind} exited with ${code}`))));
          });
    const measured = await probe(flood);
    const report = JSON.parse((await flood).trim().split('\n').at(-1) ?? '{}') as { sent?: number; answers?: Record<string, number> };
    const back = await memoryBack(startMb * MEMORY_BUDGET);
    const afterMb = back.mb;
    const apiP99 = percentile(measured.api, 0.99);
    const tokenP99 = percentile(measured.token, 0.99);
    const ok = apiP99 < P99_BUDGET_MS && tokenP99 < P99_BUDGET_MS && afterMb <= startMb * MEMORY_BUDGET && measured.failed === 0;
    missed ||= !ok;
    rows.push({
      flood: kind,
      sent: report.sent ?? 0,
      answers: Object.entries(report.answers ?? {})
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([what, n]) => `${what}:${n}`)
        .join(' '),
      'api p50/p99 ms': `${percentile(measured.api, 0.5).toFixed(1)} / ${apiP99.toFixed(1)}`,
      'token p50/p99 ms': `${percentile(measured.token, 0.5).toFixed(1)} / ${tokenP99.toFixed(1)}`,
      'probes failed': measured.failed,
      'RSS start/peak/after MB': `${startMb} / ${measured.peakMb} / ${afterMb}`,
      'back in s': back.seconds,
      'log lines': logLines() - lines,
      budget: ok ? 'met' : 'MISSED',
    });
    console.log(JSON.stringify(rows.at(-1)));
  }
  console.table(rows);
  console.log(
    `budgets: probes' p99 < ${P99_BUDGET_MS} ms and no probe refused during each flood; RSS back to ≤ ${MEMORY_BUDGET} × start (${startMb} MB) within ${RETURN_SECONDS} s`,
  );
  process.exitCode = missed ? 1 : 0;
} finally {
  await stop(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
