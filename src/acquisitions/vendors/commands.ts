// `carrel vendors`: the vendors invoices come from, through the same service as the API.
import type { Command } from 'commander';
import type { Cli } from '../../cli/kit.ts';
import { accountingUnit, print, table } from '../../cli/common.ts';
import { presentVendor } from './present.ts';
import type { VendorDetails } from './service.ts';

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
    .option('--accounting-unit <n>', 'accounting unit (0 to 999)', accountingUnit)
    .option('--address1 <text>', 'first address')
    .option('--address2 <text>', 'second address')
    .option('--contact <text>', 'contact person')
    .option('--email <text>', 'email address')
    .option('--phone <text>', 'phone number')
    .option('--account-number <text>', 'the library’s account number with the vendor')
    .option('--json', 'print JSON');
}

function vendorDetails(opts: VendorOptions): VendorDetails {
  return {
    address1: opts.address1,
    address2: opts.address2,
    contact: opts.contact,
    email: opts.email,
    phone: opts.phone,
    acctNum: opts.accountNumber,
  };
}

export function vendorCommands(program: Command, cli: Cli): void {
  const vendors = program.command('vendors').description('vendors invoices come from');
  vendors
    .command('list')
    .description('list vendors')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const rows = (await cli.read(({ services }) => services.vendors.list({ limit: 2000, offset: 0 }))).map((row) => presentVendor(row));
      const text = rows.length
        ? table([['ID', 'CODE', 'NAME'], ...rows.map((v) => [v.id, v.code, v.vendorName].map(String))])
        : 'no vendors yet: carrel vendors create CODE --name NAME';
      print(!!opts.json, rows, text);
    });
  vendorOptions(
    vendors
      .command('create')
      .description('create a vendor')
      .argument('<code>', '1 to 15 lower-case letters or digits')
      .requiredOption('--name <name>', 'vendor name'),
  ).action(async (code: string, opts: VendorOptions) => {
    const vendor = await cli.write(async ({ services }) => {
      const service = services.vendors;
      const id = await service.create({ ...vendorDetails(opts), code, vendorName: opts.name!, accountingUnit: opts.accountingUnit });
      return presentVendor(await service.get(id));
    });
    print(!!opts.json, vendor, `created vendor ${code} (id ${String(vendor.id)})`);
  });
  vendorOptions(
    vendors
      .command('set')
      .description('change a vendor’s name or details ("" clears a detail)')
      .argument('<code>')
      .option('--name <name>', 'vendor name'),
  ).action(async (code: string, opts: VendorOptions) => {
    const vendor = await cli.write(async ({ services }) => {
      const service = services.vendors;
      const { id } = await service.byCode(code);
      await service.update(id, { ...vendorDetails(opts), vendorName: opts.name, accountingUnit: opts.accountingUnit });
      return presentVendor(await service.get(id));
    });
    print(!!opts.json, vendor, `changed vendor ${code} (id ${String(vendor.id)})`);
  });
}
