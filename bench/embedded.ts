// `npm run bench:embedded`: what a statement costs on the embedded engine in the caller's thread
// (as commands and tests open it) against the engine in a thread of its own (as the server opens
// it, so that a library's statement can be ended), in turns on copies of one data directory.
//
//   point     a bib's row by a distinct id, as a REST read does
//   write     a transaction that updates a distinct bib's row, as a REST write does
//
// Prints per-statement latency (p50/p99, µs) for each, and the thread's cost as a ratio.
// Options: --statements N per run (default 3000), --rounds N (default 3).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openPGlite, withEngine } from '../src/db/pglite.ts';
import { PGliteThread } from '../src/db/pglite-thread.ts';
import type { Db } from '../src/db/types.ts';
import { loadDemoIfEmpty } from '../src/demo/load.ts';
import { seedPgliteDataDir } from '../test/helpers/db.ts';
import { percentile } from './lib.ts';

const { values: args } = parseArgs({
  options: { statements: { type: 'string', default: '3000' }, rounds: { type: 'string', default: '3' } },
});
const STATEMENTS = Number(args.statements);
const ROUNDS = Number(args.rounds);

async function measure(db: Db, ids: string[]): Promise<{ point: number[]; write: number[] }> {
  const point: number[] = [];
  const write: number[] = [];
  for (let i = 0; i < STATEMENTS; i++) {
    const id = ids[(i * 7919) % ids.length]!;
    let start = process.hrtime.bigint();
    await db.query('select * from bibs where id = $1', [id]);
    point.push(Number(process.hrtime.bigint() - start) / 1000);
    start = process.hrtime.bigint();
    await db.transaction((tx) => tx.query('update bibs set updated_date = now() where id = $1', [id]));
    write.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  return { point: point.sort((a, b) => a - b), write: write.sort((a, b) => a - b) };
}

const source = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-bench-embedded-'));
await seedPgliteDataDir(source);
{
  const db = await openPGlite({ dataDir: path.join(source, 'pglite') });
  await loadDemoIfEmpty(db);
  await db.close();
}
const rows: { run: string; point50: number; point99: number; write50: number; write99: number }[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // In turns, each on its own copy of the same directory.
  for (const kind of round % 2 === 0 ? ['same thread', 'own thread'] : ['own thread', 'same thread']) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-bench-embedded-'));
    fs.cpSync(source, dir, { recursive: true });
    const dataDir = path.join(dir, 'pglite');
    const db = kind === 'same thread' ? await openPGlite({ dataDir }) : await withEngine(new PGliteThread(dataDir, []));
    const ids = (await db.query<{ id: string }>('select id from bibs')).map((r) => r.id);
    await measure(db, ids.slice(0, 50)); // warm
    const { point, write } = await measure(db, ids);
    rows.push({
      run: kind,
      point50: percentile(point, 0.5),
      point99: percentile(point, 0.99),
      write50: percentile(write, 0.5),
      write99: percentile(write, 0.99),
    });
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
fs.rmSync(source, { recursive: true, force: true });

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const summary = ['same thread', 'own thread'].map((run) => {
  const of = rows.filter((r) => r.run === run);
  return {
    run,
    'point p50 µs': median(of.map((r) => r.point50)).toFixed(0),
    'point p99 µs': median(of.map((r) => r.point99)).toFixed(0),
    'write p50 µs': median(of.map((r) => r.write50)).toFixed(0),
    'write p99 µs': median(of.map((r) => r.write99)).toFixed(0),
  };
});
console.table(summary);
const ratio = (key: 'point p50 µs' | 'write p50 µs') => (Number(summary[1]![key]) / Number(summary[0]![key])).toFixed(2);
console.log(
  `own thread / same thread, median of ${ROUNDS} rounds in turns: point ${ratio('point p50 µs')}, write ${ratio('write p50 µs')}`,
);
