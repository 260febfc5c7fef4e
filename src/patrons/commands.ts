// `carrel patrons …`: create and list patrons with the same service the HTTP API uses.
import { Command, InvalidArgumentError } from 'commander';
import { CliError, print, readStdin, table } from '../cli/common.ts';
import type { Cli } from '../cli/kit.ts';
import { PATRON_FIELDS, presentPatron } from './present.ts';

function count(max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) > max) throw new InvalidArgumentError(`give a whole number from 0 to ${max}`);
    return Number(value);
  };
}
const collect = (value: string, previous: string[] = []) => [...previous, value];

interface CreateOptions {
  name: string[];
  barcode?: string[];
  pin?: string;
  pinStdin?: boolean;
  email?: string[];
  patronType?: number;
  homeLibrary?: string;
  expires?: string;
  json?: boolean;
}

export function patronCommands(program: Command, cli: Cli): void {
  const patrons = program.command('patrons').description('library patrons (GET /v6/patrons)');
  patrons
    .command('create')
    .description('create a patron; the PIN is stored only as a slow hash')
    .requiredOption('--name <name>', 'name, "Last, First" (repeat for more)', collect)
    .option('--barcode <barcode>', 'barcode (repeat for more)', collect)
    .option('--pin <pin>', 'PIN, 4 to 64 characters (visible to other users of this machine: prefer --pin-stdin)')
    .option('--pin-stdin', 'read the PIN from standard input')
    .option('--email <email>', 'email address (repeat for more)', collect)
    .option('--patron-type <n>', 'patron type code (GET /v6/patrons/metadata)', count(255))
    .option('--home-library <code>', 'home library location code')
    .option('--expires <date>', 'expiration date, YYYY-MM-DD')
    .option('--json', 'print JSON')
    .action(async (opts: CreateOptions) => {
      if (opts.pin !== undefined && opts.pinStdin) throw new CliError('give --pin or --pin-stdin, not both');
      const pin = opts.pinStdin ? await readStdin() : opts.pin;
      const row = await cli.write(async ({ services }) => {
        const service = services.patrons;
        const id = await service.create({
          names: opts.name,
          barcodes: opts.barcode,
          pin,
          emails: opts.email,
          patronType: opts.patronType,
          homeLibraryCode: opts.homeLibrary,
          expirationDate: opts.expires,
        });
        return service.get(id);
      });
      const patron = presentPatron(row, PATRON_FIELDS.defaults, {});
      print(
        !!opts.json,
        patron,
        `created patron ${row.id}: ${row.names.join('; ')}${row.barcodes.length ? ` (${row.barcodes.join(', ')})` : ''}`,
      );
    });
  patrons
    .command('list')
    .description('list patrons in id order (never their PINs)')
    .option('--limit <n>', 'at most this many (default 50)', count(2000), 50)
    .option('--offset <n>', 'skip this many', count(Number.MAX_SAFE_INTEGER), 0)
    .option('--json', 'print JSON')
    .action(async (opts: { limit: number; offset: number; json?: boolean }) => {
      const rows = await cli.read(({ services }) => services.patrons.list({ deleted: false, limit: opts.limit, offset: opts.offset }));
      const entries = rows.map((row) => presentPatron(row, PATRON_FIELDS.defaults, {}));
      const lines = [
        ['ID', 'NAME', 'BARCODES', 'TYPE', 'EXPIRES', 'BLOCK', 'OWED'],
        ...rows.map((r) => [
          r.id,
          r.names[0] ?? '',
          r.barcodes.join(','),
          String(r.patron_type),
          r.expiration_date ?? '',
          r.block_code,
          r.money_owed,
        ]),
      ];
      print(
        !!opts.json,
        { total: entries.length, start: opts.offset, entries },
        rows.length ? table(lines) : 'no patrons yet: carrel patrons create --name NAME --barcode B --pin-stdin',
      );
    });
}
