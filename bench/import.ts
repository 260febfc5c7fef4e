// `npm run bench:import`: `carrel import` of ISO 2709 records from `carrel generate` (seed 1) into PostgreSQL, beside the
// parse-only rate of the same file in the same run, with the import process's peak memory.
// Runs: parse only (in this process), import of new records, and re-import of the same file
// (every record matches by 001+003 and is replaced).
// Options: --records N (default 100000), --database-url URL.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { writeIso2709 } from '../src/marc/iso2709.ts';
import { readMarc } from '../src/marc/read.ts';
import { generateRecords } from '../src/generate/catalogue.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    'database-url': { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const RECORDS = Number(args.records);
const DB = 'carrel_bench_import';

async function runImport(
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

async function main(): Promise<void> {
  execBuild();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-bench-'));
  const file = path.join(dir, 'generated.mrc');
  const out = fs.createWriteStream(file);
  for (const record of generateRecords(1, 1, RECORDS))
    if (!out.write(writeIso2709(record))) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  await new Promise<void>((resolve) => out.end(() => resolve()));
  const size = fs.statSync(file).size;

  let parsed = 0;
  const t0 = performance.now();
  for await (const result of readMarc(fs.createReadStream(file, { highWaterMark: 256 * 1024 }))) if (result.record) parsed++;
  const parseSeconds = (performance.now() - t0) / 1000;

  const admin = postgres(args['database-url'], { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${DB} with (force)`);
  await admin.unsafe(`create database ${DB}`);
  const url = new URL(args['database-url']);
  url.pathname = `/${DB}`;
  const env = { DATABASE_URL: url.toString(), LOG_LEVEL: 'warn' };
  const fresh = await runImport(file, env);
  const again = await runImport(file, env);
  // The same file into another fresh database, bibs only: what the items cost.
  await admin.unsafe(`drop database if exists ${DB} with (force)`);
  await admin.unsafe(`create database ${DB}`);
  const bibsOnly = await runImport(file, env, ['--no-items']);
  await admin.unsafe(`drop database if exists ${DB} with (force)`);
  await admin.end();
  fs.rmSync(dir, { recursive: true, force: true });

  console.log(`\n${RECORDS} generated records, ${(size / 1e6).toFixed(1)} MB of ISO 2709; PostgreSQL; Node ${process.version}\n`);
  console.table([
    {
      run: 'parse only (baseline)',
      'records/s': Math.round(parsed / parseSeconds),
      seconds: parseSeconds.toFixed(1),
      'CPU s': '',
      'peak RSS MB': '',
    },
    {
      run: 'carrel import, new records',
      'records/s': Math.round(RECORDS / fresh.seconds),
      seconds: fresh.seconds.toFixed(1),
      'CPU s': fresh.cpuSeconds.toFixed(1),
      'peak RSS MB': fresh.peakRssMb,
      created: fresh.summary.created,
    },
    {
      run: 'carrel import --no-items, new records',
      'records/s': Math.round(RECORDS / bibsOnly.seconds),
      seconds: bibsOnly.seconds.toFixed(1),
      'CPU s': bibsOnly.cpuSeconds.toFixed(1),
      'peak RSS MB': bibsOnly.peakRssMb,
      created: bibsOnly.summary.created,
    },
    {
      run: 'carrel import, all matching',
      'records/s': Math.round(RECORDS / again.seconds),
      seconds: again.seconds.toFixed(1),
      'CPU s': again.cpuSeconds.toFixed(1),
      'peak RSS MB': again.peakRssMb,
      updated: again.summary.updated,
    },
  ]);
  console.log(
    `\nbudget: import >= 10,000 records/s -> ${Math.round(RECORDS / fresh.seconds)} (re-import ${Math.round(RECORDS / again.seconds)}); import/parse = ${(RECORDS / fresh.seconds / (parsed / parseSeconds)).toFixed(2)}`,
  );
}

function execBuild(): void {
  // The CLI runs as `npm start` does: compiled to dist/.
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
}

await main();
