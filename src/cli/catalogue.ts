// `carrel import`, `carrel generate` and `carrel item-map`: records into the catalogue.
import fs from 'node:fs';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { importFiles, type ImportSummary } from '../bibs/import.ts';
import { analyzeCatalogue } from '../bibs/repository.ts';
import { systemClock } from '../circulation/calendar.ts';
import { generateRecord } from '../generate/catalogue.ts';
import { HOLDS_PER_PATRON } from '../generate/holds.ts';
import { loadGenerated } from '../generate/load.ts';
import { GENERATED_PIN, PATRONS_PER_BIB, patronBarcode } from '../generate/patrons.ts';
import { countSearchable, rebuildIndex, RebuildRunningError } from '../search/rebuild.ts';
import { DEFAULT_ITEM_MAP, parseItemMap, type ItemMap } from '../items/from-marc.ts';
import { writeIso2709 } from '../marc/iso2709.ts';
import { toMarcInJson } from '../marc/marc-in-json.ts';
import { toMarcXml } from '../marc/marcxml.ts';
import { CliError, print, progressBar, withDb } from './common.ts';
import { inRoomyHeap } from './roomy-heap.ts';

function wholeNumber(min: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min) throw new InvalidArgumentError(`give a whole number, at least ${min}`);
    return Number(value);
  };
}

function readItemMap(file: string): ItemMap {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new CliError(`cannot read the item map ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    return parseItemMap(json);
  } catch (error) {
    throw new CliError(`item map ${file}: ${(error as Error).message}`);
  }
}

function report(summary: ImportSummary, seconds: number, json: boolean): void {
  const problems = (list: ImportSummary['failed']) => list.map((f) => `  ${f.file}: ${f.position}: ${f.reason}`);
  const warnings = problems(summary.warnings);
  if (summary.warningCount > summary.warnings.length) warnings.push(`  … and ${summary.warningCount - summary.warnings.length} more`);
  print(json, { ...summary, seconds: Math.round(seconds * 10) / 10 }, [
    `read ${summary.read} records in ${seconds.toFixed(1)} s (${Math.round(summary.read / Math.max(seconds, 0.001))} records/s): ` +
      `${summary.created} created, ${summary.updated} updated, ${summary.failed.length} failed; ` +
      `items: ${summary.items.created} created, ${summary.items.updated} updated`,
    ...(summary.failed.length ? ['failed records:', ...problems(summary.failed)] : []),
    ...(warnings.length ? ['loaded with warnings:', ...warnings] : []),
  ].join('\n'));
  if (summary.failed.length) process.exitCode = 1;
}

const FORMATS = ['iso2709', 'marcxml', 'json'] as const;

async function writeGenerated(file: string, format: (typeof FORMATS)[number], seed: number, count: number, tick: (n: number) => void): Promise<void> {
  const out = fs.createWriteStream(file);
  const write = async (data: string | Uint8Array) => {
    if (!out.write(data)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  };
  if (format === 'marcxml') await write('<?xml version="1.0" encoding="UTF-8"?>\n<collection xmlns="http://www.loc.gov/MARC21/slim">\n');
  if (format === 'json') await write('[\n');
  for (let n = 1; n <= count; n++) {
    const record = generateRecord(seed, n);
    if (format === 'iso2709') await write(writeIso2709(record));
    else if (format === 'marcxml') await write(`${toMarcXml(record, false)}\n`);
    else await write(`${JSON.stringify(toMarcInJson(record))}${n < count ? ',' : ''}\n`);
    if (n % 1000 === 0) tick(n);
  }
  if (format === 'marcxml') await write('</collection>\n');
  if (format === 'json') await write(']\n');
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

export function registerCatalogueCommands(program: Command): void {
  const search = program.command('search').description('the search index behind GET /v6/bibs/search');
  search
    .command('reindex')
    .description('build the whole index again, beside the one in use, and swap it in (a running server indexes new writes by itself, within a second)')
    .option('--json', 'print the summary as JSON')
    .action(async (opts: { json?: boolean }) => {
      await inRoomyHeap();
      const started = performance.now();
      const bar = progressBar('indexing |{bar}| {percentage}% | {value}/{total} bibs', opts.json);
      const indexed = await withDb(async (db) => {
        await analyzeCatalogue(db);
        bar?.start(await countSearchable(db), 0);
        return rebuildIndex(db, (progress) => {
          if (progress.phase === 'documents') bar?.update(progress.done);
          else if (bar) {
            bar.stop();
            process.stderr.write(`building the index: ${progress.step}\n`);
          }
        }).catch((error: unknown) => {
          throw error instanceof RebuildRunningError ? new CliError(error.message) : error;
        });
      }).finally(() => bar?.stop());
      const seconds = (performance.now() - started) / 1000;
      print(!!opts.json, { indexed, seconds: Math.round(seconds * 10) / 10 }, `indexed ${indexed} bibs in ${seconds.toFixed(1)} s`);
    });

  program
    .command('import')
    .description('load MARC records (ISO 2709 in MARC-8 or UTF-8, MARCXML or MARC-in-JSON, detected from content) as bibs, with the items in their item fields; a record matching a bib by 001+003 or 035 replaces it')
    .argument('<files...>', 'MARC files')
    .option('--item-map <file>', 'JSON file saying which fields and subfields hold items (default: `carrel item-map`)')
    .option('--no-items', 'load the bibs only, ignoring item fields')
    .option('--json', 'print the summary as JSON')
    .action(async (files: string[], opts: { itemMap?: string; items: boolean; json?: boolean }) => {
      const missing = files.filter((file) => !fs.existsSync(file) || !fs.statSync(file).isFile());
      if (missing.length) throw new CliError(`no such file: ${missing.join(', ')}`);
      const itemMap = !opts.items ? null : opts.itemMap ? readItemMap(opts.itemMap) : DEFAULT_ITEM_MAP;
      const totalBytes = files.reduce((sum, file) => sum + fs.statSync(file).size, 0);
      const bar = progressBar('importing |{bar}| {percentage}% | {records} records | {rate} rec/s | {failed} failed', opts.json);
      const started = performance.now();
      bar?.start(totalBytes, 0, { records: 0, rate: 0, failed: 0 });
      const summary = await withDb((db) =>
        importFiles(db, files.map((file) => ({ name: file, open: () => fs.createReadStream(file, { highWaterMark: 256 * 1024 }) })), {
          itemMap,
          onProgress: (p) => bar?.update(p.bytes, { records: p.records, failed: p.failed, rate: Math.round(p.records / ((performance.now() - started) / 1000)) }),
          onWaiting: () => process.stderr.write('another import of this database is running: waiting for it to finish…\n'),
        }),
      ).finally(() => bar?.stop());
      report(summary, (performance.now() - started) / 1000, !!opts.json);
    });

  program
    .command('item-map')
    .description('print the default item mapping (which fields and subfields of a record hold items) as JSON, to edit and pass to `carrel import --item-map`')
    .action(() => print(true, DEFAULT_ITEM_MAP, ''));

  program
    .command('generate')
    .description('make a realistic synthetic catalogue (the same records for the same seed): loads it, or writes it to a file with --output')
    .requiredOption('--bibs <n>', 'how many bibliographic records', wholeNumber(1))
    .option('--seed <s>', 'which catalogue: the same seed gives the same records', wholeNumber(0), 1)
    .option('--patrons <n>', `how many patrons to load with them (default: one for every ${Math.round(1 / PATRONS_PER_BIB)} bibs; PIN ${GENERATED_PIN})`, wholeNumber(0))
    .option('--holds <n>', `how many holds those patrons place on those bibs (default: ${HOLDS_PER_PATRON} per patron)`, wholeNumber(0))
    .option('--output <file>', 'write the records to this file instead of loading them')
    .option('--format <format>', `file format with --output: ${FORMATS.join(', ')}`, 'iso2709')
    .option('--json', 'print the summary as JSON')
    .action(async (opts: { bibs: number; seed: number; patrons?: number; holds?: number; output?: string; format: string; json?: boolean }) => {
      if (!(FORMATS as readonly string[]).includes(opts.format)) throw new CliError(`--format takes ${FORMATS.join(', ')}`);
      const bar = progressBar(`${opts.output ? 'writing' : 'loading'} |{bar}| {percentage}% | {value}/{total} records | {rate} rec/s`, opts.json);
      const started = performance.now();
      const rate = (n: number) => Math.round(n / ((performance.now() - started) / 1000));
      bar?.start(opts.bibs, 0, { rate: 0 });
      if (opts.output) {
        const file = opts.output;
        await writeGenerated(file, opts.format as (typeof FORMATS)[number], opts.seed, opts.bibs, (n) => bar?.update(n, { rate: rate(n) })).finally(() => bar?.stop());
        const seconds = (performance.now() - started) / 1000;
        print(!!opts.json, { file, records: opts.bibs, seed: opts.seed, format: opts.format, seconds: Math.round(seconds * 10) / 10 },
          `wrote ${opts.bibs} records (seed ${opts.seed}) to ${file} in ${seconds.toFixed(1)} s; load them with: npx carrel import ${file}`);
        return;
      }
      const patronCount = opts.patrons ?? Math.round(opts.bibs * PATRONS_PER_BIB);
      const holdCount = opts.holds ?? patronCount * HOLDS_PER_PATRON;
      const summary = await withDb((db, config) => loadGenerated(db, {
        seed: opts.seed, bibs: opts.bibs, patrons: patronCount, holds: holdCount, today: systemClock.today(), rules: config.circulation,
      }, (records) => bar?.update(records, { rate: rate(records) }))).finally(() => bar?.stop());
      report(summary, (performance.now() - started) / 1000, !!opts.json);
      if (!opts.json && patronCount > 0) process.stdout.write(`patrons: ${summary.patrons.created} created (barcodes ${patronBarcode(opts.seed, 1)}…, PIN ${GENERATED_PIN})\n`);
      if (!opts.json && holdCount > 0) process.stdout.write(`holds: ${summary.holds.created} placed\n`);
    });
}
