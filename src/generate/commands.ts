// `carrel generate`: a realistic synthetic catalogue with patrons and holds, loaded or written to a file.
import fs from 'node:fs';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { printImportSummary } from '../bibs/commands.ts';
import { CliError, print, progressBar } from '../cli/common.ts';
import type { Cli } from '../cli/kit.ts';
import { writeIso2709 } from '../marc/iso2709.ts';
import { toMarcInJson } from '../marc/marc-in-json.ts';
import { toMarcXml } from '../marc/marcxml.ts';
import { generateRecord } from './catalogue.ts';
import { HOLDS_PER_PATRON } from './holds.ts';
import { loadGenerated } from './load.ts';
import { GENERATED_PIN, PATRONS_PER_BIB, patronBarcode } from './patrons.ts';

function wholeNumber(min: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min) throw new InvalidArgumentError(`give a whole number, at least ${min}`);
    return Number(value);
  };
}

const FORMATS = ['iso2709', 'marcxml', 'json'] as const;

async function writeGenerated(
  file: string,
  format: (typeof FORMATS)[number],
  seed: number,
  count: number,
  tick: (n: number) => void,
): Promise<void> {
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

export function generateCommands(program: Command, cli: Cli): void {
  program
    .command('generate')
    .description(
      'make a realistic synthetic catalogue (the same records for the same seed): loads it, or writes it to a file with --output',
    )
    .requiredOption('--bibs <n>', 'how many bibliographic records', wholeNumber(1))
    .option('--seed <s>', 'which catalogue: the same seed gives the same records', wholeNumber(0), 1)
    .option(
      '--patrons <n>',
      `how many patrons to load with them (default: one for every ${Math.round(1 / PATRONS_PER_BIB)} bibs; PIN ${GENERATED_PIN})`,
      wholeNumber(0),
    )
    .option('--holds <n>', `how many holds those patrons place on those bibs (default: ${HOLDS_PER_PATRON} per patron)`, wholeNumber(0))
    .option('--output <file>', 'write the records to this file instead of loading them')
    .option('--format <format>', `file format with --output: ${FORMATS.join(', ')}`, 'iso2709')
    .option('--json', 'print the summary as JSON')
    .action(
      async (opts: { bibs: number; seed: number; patrons?: number; holds?: number; output?: string; format: string; json?: boolean }) => {
        if (!(FORMATS as readonly string[]).includes(opts.format)) throw new CliError(`--format takes ${FORMATS.join(', ')}`);
        const bar = progressBar(
          `${opts.output ? 'writing' : 'loading'} |{bar}| {percentage}% | {value}/{total} records | {rate} rec/s`,
          opts.json,
        );
        const started = performance.now();
        const rate = (n: number) => Math.round(n / ((performance.now() - started) / 1000));
        bar?.start(opts.bibs, 0, { rate: 0 });
        if (opts.output) {
          const file = opts.output;
          await writeGenerated(file, opts.format as (typeof FORMATS)[number], opts.seed, opts.bibs, (n) =>
            bar?.update(n, { rate: rate(n) }),
          ).finally(() => bar?.stop());
          const seconds = (performance.now() - started) / 1000;
          print(
            !!opts.json,
            { file, records: opts.bibs, seed: opts.seed, format: opts.format, seconds: Math.round(seconds * 10) / 10 },
            `wrote ${opts.bibs} records (seed ${opts.seed}) to ${file} in ${seconds.toFixed(1)} s; load them with: npx carrel import ${file}`,
          );
          return;
        }
        const patronCount = opts.patrons ?? Math.round(opts.bibs * PATRONS_PER_BIB);
        const holdCount = opts.holds ?? patronCount * HOLDS_PER_PATRON;
        const summary = await cli
          .write(async ({ db, services }) => {
            const settings = await services.library.settings();
            return loadGenerated(
              db,
              {
                seed: opts.seed,
                bibs: opts.bibs,
                patrons: patronCount,
                holds: holdCount,
                today: await services.library.today(),
                rules: settings,
              },
              (records) => bar?.update(records, { rate: rate(records) }),
            );
          })
          .finally(() => bar?.stop());
        printImportSummary(summary, (performance.now() - started) / 1000, !!opts.json);
        if (!opts.json && patronCount > 0)
          process.stdout.write(
            `patrons: ${summary.patrons.created} created (barcodes ${patronBarcode(opts.seed, 1)}…, PIN ${GENERATED_PIN})\n`,
          );
        if (!opts.json && holdCount > 0) process.stdout.write(`holds: ${summary.holds.created} placed\n`);
      },
    );
}
