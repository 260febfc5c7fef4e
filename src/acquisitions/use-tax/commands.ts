// `carrel use-tax`: use tax codes and their rates, through the same service as the API.
import type { Command } from 'commander';
import type { Cli } from '../../cli/kit.ts';
import { print, table } from '../../cli/common.ts';

export function useTaxCommands(program: Command, cli: Cli): void {
  const useTax = program.command('use-tax').description('use tax codes and their rates in percent (GET /invoices/metadata)');
  useTax
    .command('set')
    .description('create or replace a code; unpaid invoices take the new rate when next written, paid ones never change')
    .argument('<code>', '1 to 3 lower-case letters or digits')
    .argument('<rate>', 'percent, 0 to 100, at most six decimals; kept exactly as given (7.75, 0, 8.125)')
    .option('--description <text>', 'what the code is for')
    .option('--json', 'print JSON')
    .action(async (code: string, rate: string, opts: { description?: string; json?: boolean }) => {
      const { created, row } = await cli.write(({ services }) => services.useTax.set(code, rate, opts.description));
      print(
        !!opts.json,
        row,
        `${created ? 'created' : 'set'} use tax ${row.code}: ${row.rate}%${row.description ? ` (${row.description})` : ''}`,
      );
    });
  useTax
    .command('list')
    .description('list the codes with their rates')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const rows = await cli.read(({ services }) => services.useTax.list());
      const text = rows.length
        ? table([['CODE', 'RATE %', 'DESCRIPTION'], ...rows.map((r) => [r.code, r.rate, r.description ?? ''])])
        : 'no use tax codes yet: carrel use-tax set CODE RATE';
      print(!!opts.json, rows, text);
    });
  useTax
    .command('remove')
    .description('remove a code that no invoice uses')
    .argument('<code>')
    .option('--json', 'print JSON')
    .action(async (code: string, opts: { json?: boolean }) => {
      await cli.write(({ services }) => services.useTax.remove(code));
      print(!!opts.json, { code, removed: true }, `removed use tax ${code}`);
    });
}
