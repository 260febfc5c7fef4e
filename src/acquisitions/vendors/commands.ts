// `carrel vendors`: the vendors invoices come from, and their EDI settings (`carrel vendors edi`),
// through the same services as the API.
import type { Command } from 'commander';
import type { Cli } from '../../cli/kit.ts';
import { accountingUnit, CliError, print, readStdin, table } from '../../cli/common.ts';
import type { PartyId, Protocol, VendorEdi, VendorEdiInput } from './edi.ts';
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
  vendorEdiCommands(vendors, cli);
}

interface SetOptions {
  party?: string[];
  libraryParty?: string;
  protocol?: string;
  host?: string;
  port?: string;
  user?: string;
  passwordStdin?: boolean;
  ordersFolder?: string;
  filesFolder?: string;
  hostKey?: string;
  connection?: boolean;
  ordersPickup?: boolean;
  json?: boolean;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `31B:1234567` or a bare SAN/GLN (its length says which). */
function party(raw: string): PartyId {
  const [q, id] = raw.includes(':') ? raw.split(':', 2) : [raw.replace(/[\s-]/g, '').length === 13 ? '14' : '31B', raw];
  return { qualifier: q as PartyId['qualifier'], id: id ?? '' };
}

function describe(code: string, edi: VendorEdi): string {
  const c = edi.connection;
  return [
    `vendor ${code}`,
    `  party ids:      ${edi.partyIds.map((p) => `${p.qualifier}:${p.id}`).join(', ') || '(none)'}`,
    `  library as:     ${edi.libraryPartyId ? `${edi.libraryPartyId.qualifier}:${edi.libraryPartyId.id}` : '(not set)'}`,
    c
      ? `  server:         ${c.protocol}://${c.user}@${c.host}:${c.port} (password ${c.passwordSet ? 'set' : 'not set'}); orders to "${c.ordersFolder}", files from "${c.filesFolder}"`
      : '  server:         (none)',
    `  orders:         ${edi.ordersPickup ? "collected by the vendor from its SFTP account's out/ on Carrel's door" : c ? 'uploaded to its server' : 'kept in Carrel'}`,
    ...(c?.protocol === 'sftp' ? [`  host key:       ${c.hostKey ?? '(recorded on the next connection)'}`] : []),
  ].join('\n');
}

function vendorEdiCommands(vendors: Command, cli: Cli): void {
  const edi = vendors.command('edi').description('a vendor’s EDI identity and the server Carrel exchanges files with');
  edi
    .command('show')
    .argument('<code>', 'vendor code')
    .option('--json', 'print JSON')
    .action(async (code: string, opts: { json?: boolean }) => {
      const shown = await cli.read(async ({ services }) => services.vendorEdi.get((await services.vendors.byCode(code)).id));
      print(!!opts.json, shown, describe(code, shown));
    });
  edi
    .command('set')
    .description('change what the options name; the password is read from standard input, never from the command line')
    .argument('<code>', 'vendor code')
    .option(
      '--party <qualifier:id>',
      'an identifier the vendor writes for itself (31B:SAN, 14:GLN, 91:…, 92:…); repeat; replaces the list',
      collect,
    )
    .option('--library-party <qualifier:id>', 'the library’s identifier as this vendor knows it ("" clears it)')
    .option('--protocol <sftp|ftp|ftps>', 'how Carrel reaches the vendor’s server')
    .option('--host <host>', 'the vendor’s server')
    .option('--port <n>', 'its port (default 22 for sftp, 21 for ftp and ftps)')
    .option('--user <name>', 'the login')
    .option('--password-stdin', 'read the password from standard input')
    .option('--orders-folder <path>', 'where Carrel puts orders')
    .option('--files-folder <path>', 'where Carrel fetches responses and invoices')
    .option('--host-key <SHA256:…>', 'the SFTP server’s host key fingerprint, as ssh-keygen -lf prints it ("" forgets it)')
    .option('--no-connection', 'forget the server (and its password)')
    .option(
      '--orders-pickup',
      'the vendor collects its orders from out/ of its SFTP account (carrel sftp accounts create NAME --vendor CODE)',
    )
    .option('--no-orders-pickup', 'Carrel uploads the orders to the vendor’s server (or keeps them when none is set)')
    .option('--json', 'print JSON')
    .action(async (code: string, opts: SetOptions) => {
      const input: VendorEdiInput = {};
      if (opts.party) input.partyIds = opts.party.map(party);
      if (opts.ordersPickup !== undefined) input.ordersPickup = opts.ordersPickup;
      if (opts.libraryParty !== undefined) input.libraryPartyId = opts.libraryParty === '' ? null : party(opts.libraryParty);
      const server = [opts.protocol, opts.host, opts.port, opts.user, opts.ordersFolder, opts.filesFolder, opts.hostKey].some(
        (o) => o !== undefined,
      );
      if (opts.connection === false) {
        if (server || opts.passwordStdin) throw new CliError('--no-connection forgets the server: give no server options with it');
        input.connection = null;
      } else if (server || opts.passwordStdin) {
        if (!opts.protocol || !opts.host || !opts.user) throw new CliError('a server needs --protocol, --host and --user');
        const port = opts.port === undefined ? undefined : Number(opts.port);
        input.connection = {
          protocol: opts.protocol as Protocol,
          host: opts.host,
          user: opts.user,
          ...(port === undefined ? {} : { port }),
          ...(opts.passwordStdin ? { password: await readStdin() } : {}),
          ...(opts.ordersFolder === undefined ? {} : { ordersFolder: opts.ordersFolder }),
          ...(opts.filesFolder === undefined ? {} : { filesFolder: opts.filesFolder }),
          ...(opts.hostKey === undefined ? {} : { hostKey: opts.hostKey === '' ? null : opts.hostKey }),
        };
      }
      const kept = await cli.write(async ({ services }) => services.vendorEdi.set((await services.vendors.byCode(code)).id, input));
      print(!!opts.json, kept, describe(code, kept));
    });
}
