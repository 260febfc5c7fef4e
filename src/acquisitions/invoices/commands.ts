// `carrel invoices export`: paid invoices for accounting software, through the same service as the API.
import fs from 'node:fs';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { Cli } from '../../cli/kit.ts';
import { DomainError } from '../../shared/errors.ts';
import { parseDateFilter } from '../../shared/filters.ts';
import { exportRow, toCsv, toJson } from './export.ts';

function instantArg(value: string): Date {
  try {
    const filter = parseDateFilter('date', value);
    if (filter.kind !== 'at') throw new InvalidArgumentError('give one date (2026-11-02) or instant (2026-11-02T10:00:00Z)');
    return filter.at;
  } catch (error) {
    if (error instanceof DomainError)
      throw new InvalidArgumentError('give a date such as 2026-11-02 or an instant such as 2026-11-02T10:00:00Z');
    throw error;
  }
}

export function invoiceCommands(program: Command, cli: Cli): void {
  const invoices = program.command('invoices').description('invoices: the export of paid invoices for accounting software');
  invoices
    .command('export')
    .description('write paid invoices for accounting software, one row per line item with its use tax')
    .requiredOption('--paid-since <date>', 'paid at or after this date (2026-11-01) or instant (2026-11-01T00:00:00Z)', instantArg)
    .option('--paid-before <date>', 'paid before this date or instant (default: the last whole second that is over)', instantArg)
    .addOption(new Option('--format <format>', 'csv or json').choices(['csv', 'json']).makeOptionMandatory())
    .option('--output <file>', 'write here instead of to standard output')
    .action(async (opts: { paidSince: Date; paidBefore?: Date; format: 'csv' | 'json'; output?: string }) => {
      const result = await cli.read(({ services }) => services.invoices.paidLines(opts.paidSince, opts.paidBefore));
      const rows = result.rows.map(exportRow);
      const body = opts.format === 'csv' ? toCsv(rows) : toJson(rows);
      if (opts.output) fs.writeFileSync(opts.output, body);
      else process.stdout.write(body);
      const count = new Set(rows.map((r) => r.invoiceId)).size;
      const until = result.before.toISOString().replace('.000Z', 'Z');
      process.stderr.write(
        `exported ${rows.length} line items of ${count} invoices paid from ${result.since.toISOString().replace('.000Z', 'Z')} up to ${until} (not included); next: --paid-since ${until}\n`,
      );
    });
}
