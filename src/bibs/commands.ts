// `carrel import` and `carrel item-map`: MARC records into the catalogue, with their items.
import fs from 'node:fs';
import type { Command } from 'commander';
import { CliError, print, progressBar } from '../cli/common.ts';
import type { Cli } from '../cli/kit.ts';
import { DEFAULT_ITEM_MAP, parseItemMap, type ItemMap } from '../items/from-marc.ts';
import { importFiles, type ImportSummary, type UnknownCode } from './import.ts';

const KIND = { location: 'location', itemType: 'item type' } as const;

/** The codes items named that the library lacks, once each: what was added, and what was left off. */
function unknownCodeLines(codes: UnknownCode[]): string[] {
  const line = (u: UnknownCode) => `  ${KIND[u.kind]} ${u.code}: ${u.items.toLocaleString('en-US')} item${u.items === 1 ? '' : 's'}`;
  const added = codes.filter((u) => u.created);
  const left = codes.filter((u) => !u.created);
  return [
    ...(added.length
      ? ['added to the library (under the first branch; not pickup locations; the default rules):', ...added.map(line)]
      : []),
    ...(left.length
      ? [
          'codes this library does not have, left off the items naming them (`carrel profile apply` to add them, or import again with --create-missing):',
          ...left.map(line),
        ]
      : []),
  ];
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

/** Prints what an import or a generated load did; exit code 1 when a record failed. */
export function printImportSummary(summary: ImportSummary, seconds: number, json: boolean): void {
  const problems = (list: ImportSummary['failed']) => list.map((f) => `  ${f.file}: ${f.position}: ${f.reason}`);
  const warnings = problems(summary.warnings);
  if (summary.warningCount > summary.warnings.length) warnings.push(`  … and ${summary.warningCount - summary.warnings.length} more`);
  print(
    json,
    { ...summary, seconds: Math.round(seconds * 10) / 10 },
    [
      `read ${summary.read} records in ${seconds.toFixed(1)} s (${Math.round(summary.read / Math.max(seconds, 0.001))} records/s): ` +
        `${summary.created} created, ${summary.updated} updated, ${summary.failed.length} failed; ` +
        `items: ${summary.items.created} created, ${summary.items.updated} updated` +
        (summary.holdings.created + summary.holdings.updated
          ? `; holdings: ${summary.holdings.created} created, ${summary.holdings.updated} updated`
          : ''),
      ...(summary.failed.length ? ['failed records:', ...problems(summary.failed)] : []),
      ...unknownCodeLines(summary.unknownCodes),
      ...(warnings.length ? ['loaded with warnings:', ...warnings] : []),
    ].join('\n'),
  );
  if (summary.failed.length) process.exitCode = 1;
}

export function bibCommands(program: Command, cli: Cli): void {
  program
    .command('import')
    .description(
      'load MARC records (ISO 2709 in MARC-8 or UTF-8, MARCXML or MARC-in-JSON, detected from content) as bibs, with the items in their item fields and the holdings in their 852/853-868; a record matching a bib by 001+003 or 035 replaces it; MARC holdings records join the bib their 004 names (by its 001), replacing one with the same 001',
    )
    .argument('<files...>', 'MARC files')
    .option('--item-map <file>', 'JSON file saying which fields and subfields hold items (default: `carrel item-map`)')
    .option('--no-items', 'load the bibs only, ignoring item fields')
    .option(
      '--create-missing',
      'add the location and item type codes items name that the library lacks (locations under the first branch, not for pickup; item types under the default rules)',
    )
    .option('--json', 'print the summary as JSON')
    .action(async (files: string[], opts: { itemMap?: string; items: boolean; createMissing?: boolean; json?: boolean }) => {
      const missing = files.filter((file) => !fs.existsSync(file) || !fs.statSync(file).isFile());
      if (missing.length) throw new CliError(`no such file: ${missing.join(', ')}`);
      const itemMap = !opts.items ? null : opts.itemMap ? readItemMap(opts.itemMap) : DEFAULT_ITEM_MAP;
      const totalBytes = files.reduce((sum, file) => sum + fs.statSync(file).size, 0);
      const bar = progressBar('importing |{bar}| {percentage}% | {records} records | {rate} rec/s | {failed} failed', opts.json);
      const started = performance.now();
      bar?.start(totalBytes, 0, { records: 0, rate: 0, failed: 0 });
      const summary = await cli
        .write(({ db }) =>
          importFiles(
            db,
            files.map((file) => ({ name: file, open: () => fs.createReadStream(file, { highWaterMark: 256 * 1024 }) })),
            {
              itemMap,
              createMissing: !!opts.createMissing,
              onProgress: (p) =>
                bar?.update(p.bytes, {
                  records: p.records,
                  failed: p.failed,
                  rate: Math.round(p.records / ((performance.now() - started) / 1000)),
                }),
              onWaiting: () => process.stderr.write('another import of this database is running: waiting for it to finish…\n'),
            },
          ),
        )
        .finally(() => bar?.stop());
      printImportSummary(summary, (performance.now() - started) / 1000, !!opts.json);
    });

  program
    .command('item-map')
    .description(
      'print the default item mapping (which fields and subfields of a record hold items) as JSON, to edit and pass to `carrel import --item-map`',
    )
    .action(() => print(true, DEFAULT_ITEM_MAP, ''));
}
