// What the benchmarks share: child processes started and stopped as a deployment would, their
// peak memory, and databases beside the one given.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import postgres from 'postgres';
import { generateRecords } from '../src/generate/catalogue.ts';
import { writeIso2709 } from '../src/marc/iso2709.ts';

export const ROOT = path.resolve(import.meta.dirname, '..');

/** The URL of another database on the same server as adminUrl. */
export function dbUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A benchmark's own database beside adminUrl's: the environment of a server on it, the compiled
 * CLI run on it, and a connection to it for one use (undefined when that fails, as before the
 * database exists).
 */
export function benchDatabase(adminUrl: string, name: string) {
  const env = { DATABASE_URL: dbUrl(adminUrl, name), LOG_LEVEL: 'warn' };
  const cli = (command: string[]) =>
    execFileSync(process.execPath, ['dist/cli.js', ...command], { cwd: ROOT, env: { ...process.env, ...env } }).toString();
  const sql = async <T>(use: (db: postgres.Sql) => Promise<T>): Promise<T | undefined> => {
    const db = postgres(env.DATABASE_URL, { max: 1, onnotice: () => {} });
    try {
      return await use(db);
    } catch {
      return undefined;
    } finally {
      await db.end();
    }
  };
  return { env, cli, sql };
}

/** Starts a node process whose output goes to logFile, as a deployed server's log would, and waits for `ready` in it. */
export async function startChild(command: string[], env: Record<string, string>, ready: RegExp, logFile: string): Promise<ChildProcess> {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const fd = fs.openSync(logFile, 'w');
  const child = spawn(process.execPath, command, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', fd, fd] });
  fs.closeSync(fd);
  const deadline = Date.now() + 60_000;
  while (!ready.test(fs.readFileSync(logFile, 'utf8'))) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`${command.join(' ')} did not start:\n${fs.readFileSync(logFile, 'utf8')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return child;
}

/** A process's peak resident memory (VmHWM) in MB; 0 once it has exited. */
export function peakRssMb(pid: number): number {
  try {
    const kb = Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGINT');
  await exited;
}

/** CPU time (ms) a process has used so far; 0 when it cannot be read (gone, or on another machine). */
export function cpuMsOf(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in clock ticks of 10 ms
  } catch {
    return 0;
  }
}

/** CPU (ms) a run cost the server process, its PostgreSQL backends, and this process. */
export interface CpuCost {
  server: number;
  postgres: number;
  self: number;
}

/**
 * Runs `run` and says what it cost in CPU (read from /proc, so PostgreSQL must run on this
 * machine). The server opens connections as the load needs them: its backends are listed after
 * the run too, and one that was not there before counts from zero.
 */
export async function cpuDuring<T>(
  serverPid: number,
  backends: () => Promise<number[]>,
  run: () => Promise<T>,
): Promise<{ result: T; cpu: CpuCost }> {
  const before = new Map((await backends()).map((pid) => [pid, cpuMsOf(pid)]));
  const [server0, self0] = [cpuMsOf(serverPid), process.cpuUsage()];
  const result = await run();
  const self = process.cpuUsage(self0);
  const server = cpuMsOf(serverPid) - server0;
  const postgres = (await backends()).reduce((sum, pid) => sum + cpuMsOf(pid) - (before.get(pid) ?? 0), 0);
  return { result, cpu: { server, postgres, self: (self.user + self.system) / 1000 } };
}

/** A stable pseudo-random order of items (the same queries every run). */
export const byHash = <T>(items: T[], key: (t: T) => string): T[] => {
  const hash = (s: string) => [...s].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0, 2166136261);
  return [...items].sort((a, b) => hash(key(a)) - hash(key(b)));
};

/** The p-th quantile of ascending latencies, to 0.1 ms. */
export const percentile = (sorted: number[], p: number) =>
  sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! * 10) / 10 : NaN;

/** What each request of a run cost: CPU (µs) of the server, of its PostgreSQL backends and of this process, and database round trips. */
export interface CostPer {
  serverUs: number;
  postgresUs: number;
  selfUs: number;
  /** Transactions committed in the database per request (a statement outside a transaction is one). */
  trips: number;
}

/** Runs `go` against the server whose database is `database` (on admin's server), and what each of its `count` requests cost. */
export async function costPer<T>(
  admin: postgres.Sql,
  database: string,
  serverPid: number,
  go: () => Promise<T>,
  count: (result: T) => number,
): Promise<{ result: T; cost: CostPer }> {
  const backends = async () => (await admin`select pid from pg_stat_activity where datname = ${database}`).map((r) => r.pid as number);
  const commits = async () => {
    const [row] = await admin`select xact_commit::bigint as n from pg_stat_database where datname = ${database}`;
    await admin`select pg_stat_clear_snapshot()`;
    return Number(row?.n ?? 0);
  };
  const trips0 = await commits();
  const { result, cpu } = await cpuDuring(serverPid, backends, go);
  const trips1 = await commits();
  const n = count(result);
  const per = (ms: number) => Math.round((1000 * ms) / n);
  return {
    result,
    cost: { serverUs: per(cpu.server), postgresUs: per(cpu.postgres), selfUs: per(cpu.self), trips: (trips1 - trips0) / n },
  };
}

/**
 * `carrel import FILE --json` as the compiled CLI, timed from its start to its exit, with its peak
 * resident memory and CPU seconds (both its threads) read from /proc while it runs.
 */
export async function runImport(
  file: string,
  env: Record<string, string>,
  extra: string[] = [],
): Promise<{ seconds: number; peakRssMb: number; cpuSeconds: number; summary: { created: number; updated: number; failed: unknown[] } }> {
  const child = spawn(process.execPath, ['dist/cli.js', 'import', file, '--json', ...extra], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  let peakKb = 0;
  let cpuTicks = 0;
  const poll = setInterval(() => {
    try {
      const hwm = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
      // utime and stime (fields 14 and 15, after the command in parentheses), all threads, in ticks of 10 ms.
      const stat = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpuTicks = Math.max(cpuTicks, Number(fields[11]) + Number(fields[12]));
    } catch {
      // the process has exited
    }
  }, 50);
  const started = performance.now();
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(poll);
  if (code !== 0) throw new Error(`import exited ${code}: ${out}`);
  return {
    seconds: (performance.now() - started) / 1000,
    peakRssMb: Math.round(peakKb / 1024),
    cpuSeconds: cpuTicks / 100,
    summary: JSON.parse(out),
  };
}

/** `count` records of `carrel generate` (seed 1), written to `file` as ISO 2709. */
export async function writeRecords(file: string, count: number): Promise<void> {
  const out = fs.createWriteStream(file);
  for (const record of generateRecords(1, 1, count))
    if (!out.write(writeIso2709(record))) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  await new Promise<void>((resolve) => out.end(() => resolve()));
}

/** One GET to 127.0.0.1:port on a keep-alive connection of the agent: its status and body. */
export function getOn(port: number, agent: http.Agent, url: string, auth: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: url, agent, headers: { authorization: auth } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/**
 * `connections` keep-alive connections, each sending the stream's next unsent path as soon as its
 * last answer is in, until `seconds` are up or the stream has run out (no path is sent twice).
 */
export async function loadStream(port: number, paths: string[], auth: string, connections: number, seconds: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < paths.length && performance.now() < deadline) {
        const url = paths[next++]!;
        const t0 = performance.now();
        const { status } = await getOn(port, agent, url, auth);
        latencies.push(performance.now() - t0);
        if (status !== 200) errors++;
      }
    }),
  );
  const took = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / took, seconds: took, latencies, errors, sent: next, ranOut: next === paths.length && took < seconds };
}
