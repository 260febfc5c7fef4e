// `carrel fines list|charge|pay`: what a patron owes, a manual charge, a payment at the desk.
import type { Command } from 'commander';
import { CliError, print, table } from '../cli/common.ts';
import type { Cli } from '../cli/kit.ts';
import { formatMoney, parseMoney } from '../shared/money.ts';
import { presentFine, FINE_FIELDS } from './present.ts';
import { CHARGE_TYPES } from './service.ts';

/** An amount such as 2.50, in cents. */
function toCents(raw: string): number {
  try {
    return Number(parseMoney('amount', raw).times(100).toFixed(0));
  } catch {
    throw new CliError(`"${raw}" is not an amount such as 2.50`);
  }
}

export function fineCommands(program: Command, cli: Cli): void {
  const fines = program
    .command('fines')
    .description("patrons' fines: overdue fines by the circulation rules (the library profile), manual charges, payments");
  fines
    .command('list')
    .description('the fines a patron owes')
    .argument('<patron>', 'patron id')
    .option('--json', 'print JSON')
    .action(async (patron: string, opts: { json?: boolean }) => {
      const rows = await cli.read(({ services }) => services.fines.owed(patron, 2000, 0));
      const lines = [
        ['INVOICE', 'TYPE', 'ASSESSED', 'CHARGE', 'PAID', 'DESCRIPTION'],
        ...rows.map((f) => [
          f.id,
          CHARGE_TYPES[f.charge_type] ?? f.charge_type,
          f.assessed_date.toISOString().slice(0, 10),
          formatMoney(f.item_charge),
          formatMoney(f.paid_amount),
          f.description ?? '',
        ]),
      ];
      print(
        !!opts.json,
        rows.map((f) => presentFine(f, FINE_FIELDS.defaults, '')),
        rows.length ? table(lines) : `patron ${patron} owes no fines`,
      );
    });
  fines
    .command('charge')
    .description('charge a patron a manual fine')
    .argument('<patron>', 'patron id')
    .argument('<amount>', 'the amount, such as 2.50')
    .option('--reason <text>', 'what the charge is for')
    .option('--location <code>', 'where it was charged')
    .option('--json', 'print JSON')
    .action(async (patron: string, amount: string, opts: { reason?: string; location?: string; json?: boolean }) => {
      const id = await cli.write(({ services }) =>
        services.fines.charge(patron, { amount: toCents(amount), reason: opts.reason ?? null, location: opts.location ?? null }),
      );
      print(!!opts.json, { invoiceNumber: Number(id) }, `charged patron ${patron} ${formatMoney(amount)} (invoice ${id})`);
    });
  fines
    .command('pay')
    .description("pay a patron's fine")
    .argument('<patron>', 'patron id')
    .argument('<invoice>', "the fine's invoice number (carrel fines list)")
    .argument('<amount>', 'the amount, such as 2.50')
    .option('--type <n>', 'payment type: 1 cash (default), 2 check, 3 credit card', '1')
    .option('--json', 'print JSON')
    .action(async (patron: string, invoice: string, amount: string, opts: { type: string; json?: boolean }) => {
      await cli.write(({ services }) =>
        services.fines.pay(patron, [{ amount: toCents(amount), paymentType: Number(opts.type), invoiceNumber: invoice }]),
      );
      print(
        !!opts.json,
        { paid: formatMoney(amount), invoiceNumber: Number(invoice) },
        `paid ${formatMoney(amount)} on invoice ${invoice}`,
      );
    });
}
