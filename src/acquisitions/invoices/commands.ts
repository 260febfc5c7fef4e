// The acquisitions commands of `carrel`: use tax codes, funds, vendors, and the paid-invoice export
// for accounting software. They call the same services as the HTTP API.
import fs from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Db } from '../../db/types.ts';
import { presentFund } from '../funds/routes.ts';
import { FundService } from '../funds/service.ts';
import { DomainError } from '../../shared/errors.ts';
import { parseDateFilter } from '../../shared/filters.ts';
import { UseTaxService } from '../use-tax/service.ts';
import { presentVendor } from '../vendors/routes.ts';
import { VendorService, type VendorDetails } from '../vendors/service.ts';
import { exportRow, toCsv, toJson } from './export.ts';
import { InvoiceService } from './service.ts';

export interface CliHelpers {
  withDb: <T>(fn: (db: Db) => Promise<T>) => Promise<T>;
  print: (json: boolean, data: unknown, text: string) => void;
  table: (rows: string[][]) => string;
}

function instantArg(value: string): Date {
  try {
    const filter = parseDateFilter('date', value);
    if (filter.kind !== 'at') throw new InvalidArgumentError('give one date (2026-11-02) or instant (2026-11-02T10:00:00Z)');
    return filter.at;
  } catch (error) {
    if (error instanceof DomainError) throw new InvalidArgumentError('give a date such as 2026-11-02 or an instant such as 2026-11-02T10:00:00Z');
    throw error;
  }
}

function wholeNumber(value: string): number {
  if (!/^\d{1,3}$/.test(value)) throw new InvalidArgumentError('give a whole number from 0 to 999');
  return Number(value);
}

interface VendorOptions {
  name?: string;
  accountingUnit?: number;
  address1?: string;
  address2?: string;
  contact?: string;
  email?: string;
  phone?: string;
  accountNumber?: string;
  json?: boolean;
}

function vendorOptions(command: Command): Command {
  return command
    .option('--accounting-unit <n>', 'accounting unit (0 to 999)', wholeNumber)
    .option('--address1 <text>', 'first address')
    .option('--address2 <text>', 'second address')
    .option('--contact <text>', 'contact person')
    .option('--email <text>', 'email address')
    .option('--phone <text>', 'phone number')
    .option('--account-number <text>', 'the library’s account number with the vendor')
    .option('--json', 'print JSON');
}

function vendorDetails(opts: VendorOptions): VendorDetails {
  return { address1: opts.address1, address2: opts.address2, contact: opts.contact, email: opts.email, phone: opts.phone, acctNum: opts.accountNumber };
}

export function addAcquisitionCommands(program: Command, { withDb, print, table }: CliHelpers): void {
  const useTax = program.command('use-tax').description('use tax codes and their rates in percent (GET /invoices/metadata)');
  useTax
    .command('set')
    .description('create or replace a code; unpaid invoices take the new rate when next written, paid ones never change')
    .argument('<code>', '1 to 3 lower-case letters or digits')
    .argument('<rate>', 'percent, 0 to 100, at most six decimals; kept exactly as given (7.75, 0, 8.125)')
    .option('--description <text>', 'what the code is for')
    .option('--json', 'print JSON')
    .action(async (code: string, rate: string, opts: { description?: string; json?: boolean }) => {
      const { created, row } = await withDb((db) => new UseTaxService(db).set(code, rate, opts.description));
      print(!!opts.json, row, `${created ? 'created' : 'set'} use tax ${row.code}: ${row.rate}%${row.description ? ` (${row.description})` : ''}`);
    });
  useTax
    .command('list')
    .description('list the codes with their rates')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const rows = await withDb((db) => new UseTaxService(db).list());
      const text = rows.length ? table([['CODE', 'RATE %', 'DESCRIPTION'], ...rows.map((r) => [r.code, r.rate, r.description ?? ''])]) : 'no use tax codes yet: carrel use-tax set CODE RATE';
      print(!!opts.json, rows, text);
    });
  useTax
    .command('remove')
    .description('remove a code that no invoice uses')
    .argument('<code>')
    .option('--json', 'print JSON')
    .action(async (code: string, opts: { json?: boolean }) => {
      await withDb((db) => new UseTaxService(db).remove(code));
      print(!!opts.json, { code, removed: true }, `removed use tax ${code}`);
    });

  const funds = program.command('funds').description('funds: appropriation, expenditure, encumbrance and free balance');
  funds
    .command('list')
    .description('list funds with their balances')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const rows = (await withDb((db) => new FundService(db).list(2000, 0))).map((row) => presentFund(row));
      const text = rows.length
        ? table([['CODE', 'NAME', 'CURRENCY', 'APPROPRIATION', 'EXPENDITURE', 'ENCUMBRANCE', 'FREE BALANCE'],
          ...rows.map((f) => [f.code, f.fundName, f.currency, f.appropriation, f.expenditure, f.encumbrance, f.freeBalance].map(String))])
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
    .option('--accounting-unit <n>', 'accounting unit (0 to 999)', wholeNumber)
    .option('--note <text>', 'a note')
    .option('--json', 'print JSON')
    .action(async (code: string, opts: { name: string; appropriation: string; currency: string; expenditure: string; encumbrance: string; accountingUnit?: number; note?: string; json?: boolean }) => {
      const fund = await withDb(async (db) => {
        const service = new FundService(db);
        await service.create({ code, fundName: opts.name, appropriation: opts.appropriation, currency: opts.currency, expenditure: opts.expenditure, encumbrance: opts.encumbrance, accountingUnit: opts.accountingUnit, note: opts.note });
        return presentFund(await service.get(code));
      });
      print(!!opts.json, fund, `created fund ${code}: appropriation ${String(fund.appropriation)} ${String(fund.currency)}`);
    });
  funds
    .command('set')
    .description('change a fund’s name, appropriation, accounting unit or note')
    .argument('<code>')
    .option('--name <name>', 'fund name')
    .option('--appropriation <amount>', 'money given to the fund')
    .option('--accounting-unit <n>', 'accounting unit (0 to 999)', wholeNumber)
    .option('--note <text>', 'a note ("" clears it)')
    .option('--json', 'print JSON')
    .action(async (code: string, opts: { name?: string; appropriation?: string; accountingUnit?: number; note?: string; json?: boolean }) => {
      const fund = await withDb(async (db) => {
        const service = new FundService(db);
        await service.update(code, { fundName: opts.name, appropriation: opts.appropriation, accountingUnit: opts.accountingUnit, note: opts.note });
        return presentFund(await service.get(code));
      });
      print(!!opts.json, fund, `fund ${code}: appropriation ${String(fund.appropriation)}, free balance ${String(fund.freeBalance)} ${String(fund.currency)}`);
    });

  const vendors = program.command('vendors').description('vendors invoices come from');
  vendors
    .command('list')
    .description('list vendors')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const rows = (await withDb((db) => new VendorService(db).list({ limit: 2000, offset: 0 }))).map((row) => presentVendor(row));
      const text = rows.length ? table([['ID', 'CODE', 'NAME'], ...rows.map((v) => [v.id, v.code, v.vendorName].map(String))]) : 'no vendors yet: carrel vendors create CODE --name NAME';
      print(!!opts.json, rows, text);
    });
  vendorOptions(vendors.command('create').description('create a vendor').argument('<code>', '1 to 15 lower-case letters or digits').requiredOption('--name <name>', 'vendor name'))
    .action(async (code: string, opts: VendorOptions) => {
      const vendor = await withDb(async (db) => {
        const service = new VendorService(db);
        const id = await service.create({ ...vendorDetails(opts), code, vendorName: opts.name!, accountingUnit: opts.accountingUnit });
        return presentVendor(await service.get(id));
      });
      print(!!opts.json, vendor, `created vendor ${code} (id ${String(vendor.id)})`);
    });
  vendorOptions(vendors.command('set').description('change a vendor’s name or details ("" clears a detail)').argument('<code>').option('--name <name>', 'vendor name'))
    .action(async (code: string, opts: VendorOptions) => {
      const vendor = await withDb(async (db) => {
        const service = new VendorService(db);
        const { id } = await service.byCode(code);
        await service.update(id, { ...vendorDetails(opts), vendorName: opts.name, accountingUnit: opts.accountingUnit });
        return presentVendor(await service.get(id));
      });
      print(!!opts.json, vendor, `changed vendor ${code} (id ${String(vendor.id)})`);
    });

  const invoices = program.command('invoices').description('invoices: the export of paid invoices for accounting software');
  invoices
    .command('export')
    .description('write paid invoices for accounting software, one row per line item with its use tax')
    .requiredOption('--paid-since <date>', 'paid at or after this date (2026-11-01) or instant (2026-11-01T00:00:00Z)', instantArg)
    .option('--paid-before <date>', 'paid before this date or instant (default: the last whole second that is over)', instantArg)
    .addOption(new Option('--format <format>', 'csv or json').choices(['csv', 'json']).makeOptionMandatory())
    .option('--output <file>', 'write here instead of to standard output')
    .action(async (opts: { paidSince: Date; paidBefore?: Date; format: 'csv' | 'json'; output?: string }) => {
      const result = await withDb((db) => new InvoiceService(db).paidLines(opts.paidSince, opts.paidBefore));
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
