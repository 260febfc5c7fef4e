// `carrel funds`: funds and their balances, through the same service as the API.
import type { Command } from 'commander';
import type { Cli } from '../../cli/kit.ts';
import { accountingUnit, print, table } from '../../cli/common.ts';
import { presentFund } from './present.ts';

export function fundCommands(program: Command, cli: Cli): void {
  const funds = program.command('funds').description('funds: appropriation, expenditure, encumbrance and free balance');
  funds
    .command('list')
    .description('list funds with their balances')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const rows = (await cli.read(({ services }) => services.funds.list(2000, 0))).map((row) => presentFund(row));
      const text = rows.length
        ? table([
            ['CODE', 'NAME', 'CURRENCY', 'APPROPRIATION', 'EXPENDITURE', 'ENCUMBRANCE', 'FREE BALANCE'],
            ...rows.map((f) => [f.code, f.fundName, f.currency, f.appropriation, f.expenditure, f.encumbrance, f.freeBalance].map(String)),
          ])
        : 'no funds yet: carrel funds create CODE --name NAME --appropriation AMOUNT';
      print(!!opts.json, rows, text);
    });
  funds
    .command('create')
    .description('create a fund')
    .argument('<code>', '1 to 15 lower-case letters or digits')
    .requiredOption('--name <name>', 'fund name')
    .option('--appropriation <amount>', 'money given to the fund, e.g. 15000.00', '0')
    .option('--currency <code>', 'ISO 4217 currency of its amounts', 'USD')
    .option('--expenditure <amount>', 'opening expenditure', '0')
    .option('--encumbrance <amount>', 'opening encumbrance', '0')
    .option('--accounting-unit <n>', 'accounting unit (0 to 999)', accountingUnit)
    .option('--note <text>', 'a note')
    .option('--json', 'print JSON')
    .action(
      async (
        code: string,
        opts: {
          name: string;
          appropriation: string;
          currency: string;
          expenditure: string;
          encumbrance: string;
          accountingUnit?: number;
          note?: string;
          json?: boolean;
        },
      ) => {
        const fund = await cli.write(async ({ services }) => {
          const service = services.funds;
          await service.create({
            code,
            fundName: opts.name,
            appropriation: opts.appropriation,
            currency: opts.currency,
            expenditure: opts.expenditure,
            encumbrance: opts.encumbrance,
            accountingUnit: opts.accountingUnit,
            note: opts.note,
          });
          return presentFund(await service.get(code));
        });
        print(!!opts.json, fund, `created fund ${code}: appropriation ${String(fund.appropriation)} ${String(fund.currency)}`);
      },
    );
  funds
    .command('set')
    .description('change a fund’s name, appropriation, accounting unit or note')
    .argument('<code>')
    .option('--name <name>', 'fund name')
    .option('--appropriation <amount>', 'money given to the fund')
    .option('--accounting-unit <n>', 'accounting unit (0 to 999)', accountingUnit)
    .option('--note <text>', 'a note ("" clears it)')
    .option('--json', 'print JSON')
    .action(
      async (code: string, opts: { name?: string; appropriation?: string; accountingUnit?: number; note?: string; json?: boolean }) => {
        const fund = await cli.write(async ({ services }) => {
          const service = services.funds;
          await service.update(code, {
            fundName: opts.name,
            appropriation: opts.appropriation,
            accountingUnit: opts.accountingUnit,
            note: opts.note,
          });
          return presentFund(await service.get(code));
        });
        print(
          !!opts.json,
          fund,
          `fund ${code}: appropriation ${String(fund.appropriation)}, free balance ${String(fund.freeBalance)} ${String(fund.currency)}`,
        );
      },
    );
}
