// `carrel orders`: list, show, place, receive and cancel purchase orders, through the same service as the API.
import { type Command, InvalidArgumentError } from 'commander';
import type { Cli } from '../../cli/kit.ts';
import { print, table } from '../../cli/common.ts';
import { ORDER_FIELDS, presentOrder } from './present.ts';
import { parseRecordId } from '../../shared/filters.ts';
import type { OrderRow } from './service.ts';

const ALL_FIELDS = ORDER_FIELDS.all.filter((f) => f !== 'deletedDate');

function positive(value: string): number {
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('give a whole number of copies, 1 or more');
  return Number(value);
}

/** `mn:2` (location mn, two copies), repeatable. */
function locationArg(value: string, previous: { locationCode: string; copies: number }[] = []) {
  const match = /^([^:\s]{1,20}):(\d{1,6})$/.exec(value);
  if (!match) throw new InvalidArgumentError('give LOCATION:COPIES, e.g. mn:2');
  return [...previous, { locationCode: match[1]!, copies: Number(match[2]) }];
}

const line = (o: OrderRow) =>
  `order ${o.id} (${o.line_reference}): bib ${o.bib_id}, ${o.copies} copies from ${o.vendor_code} on fund ${o.fund_code} at ${o.estimated_price} ${o.currency}; status ${o.status}, received ${o.received_copies}, paid ${o.paid_copies}, encumbrance ${o.encumbrance}`;

export function orderCommands(program: Command, cli: Cli): void {
  const orders = program.command('orders').description('purchase orders: place, receive, cancel; invoices pay them');
  orders
    .command('list')
    .description('list orders')
    .option('--status <codes>', 'status codes, comma-separated: o, 1, q, a, z')
    .option('--limit <n>', 'at most this many', positive, 50)
    .option('--offset <n>', 'skip this many', (v) => Number(v), 0)
    .option('--json', 'print JSON')
    .action(async (opts: { status?: string; limit: number; offset: number; json?: boolean }) => {
      const rows = await cli.read(({ services }) =>
        services.orders.list({ status: opts.status?.split(','), limit: opts.limit, offset: opts.offset }),
      );
      const text = rows.length
        ? table([
            ['ID', 'LINE REF', 'BIB', 'VENDOR', 'FUND', 'COPIES', 'PRICE', 'STATUS', 'RECEIVED', 'ENCUMBRANCE'],
            ...rows.map((o) =>
              [
                o.id,
                o.line_reference,
                o.bib_id,
                o.vendor_code,
                o.fund_code,
                o.copies,
                o.estimated_price,
                o.status,
                o.received_copies,
                o.encumbrance,
              ].map(String),
            ),
          ])
        : 'no orders';
      print(
        !!opts.json,
        rows.map((o) => presentOrder(o, ALL_FIELDS)),
        text,
      );
    });
  orders
    .command('show')
    .description('show an order')
    .argument('<id>')
    .option('--json', 'print JSON')
    .action(async (id: string, opts: { json?: boolean }) => {
      const row = await cli.read(({ services }) => services.orders.get(parseRecordId('id', id)));
      print(!!opts.json, presentOrder(row, ALL_FIELDS), line(row));
    });
  orders
    .command('create')
    .description('place an order: encumbers the fund with copies × price')
    .requiredOption('--bib <id>', 'the bib ordered')
    .requiredOption('--vendor <code>', 'vendor code')
    .requiredOption('--fund <code>', 'fund code')
    .requiredOption('--location <code:copies>', 'a location and its copies, e.g. mn:2 (repeat for more)', locationArg)
    .requiredOption('--price <amount>', 'estimated price of one copy, e.g. 12.99')
    .option('--line-reference <text>', 'the line reference (default o and the id)')
    .option('--note <text>', 'a note')
    .option('--json', 'print JSON')
    .action(
      async (opts: {
        bib: string;
        vendor: string;
        fund: string;
        location: { locationCode: string; copies: number }[];
        price: string;
        lineReference?: string;
        note?: string;
        json?: boolean;
      }) => {
        const row = await cli.write(async ({ services }) => {
          const id = await services.orders.create({
            bibId: opts.bib,
            vendor: opts.vendor,
            fund: opts.fund,
            copies: opts.location.reduce((n, l) => n + l.copies, 0),
            location: opts.location,
            estimatedPrice: opts.price,
            lineReference: opts.lineReference,
            note: opts.note,
          });
          return services.orders.get(id);
        });
        print(!!opts.json, presentOrder(row, ALL_FIELDS), `placed ${line(row)}`);
      },
    );
  orders
    .command('receive')
    .description('receive copies: new items at the order’s locations')
    .argument('<id>')
    .option('--copies <n>', 'copies received (default: all not yet received)', positive)
    .option('--json', 'print JSON')
    .action(async (id: string, opts: { copies?: number; json?: boolean }) => {
      const { row, items } = await cli.write(async ({ services }) => {
        const items = await services.orders.receive(parseRecordId('id', id), opts.copies ?? 'all');
        return { row: await services.orders.get(id), items };
      });
      print(
        !!opts.json,
        { order: presentOrder(row, ALL_FIELDS), itemIds: items },
        `received ${items.length} copies as items ${items.join(', ')}: ${line(row)}`,
      );
    });
  orders
    .command('cancel')
    .description('cancel an order, releasing its encumbrance')
    .argument('<id>')
    .option('--json', 'print JSON')
    .action(async (id: string, opts: { json?: boolean }) => {
      const row = await cli.write(async ({ services }) => {
        await services.orders.cancel(parseRecordId('id', id));
        return services.orders.get(id);
      });
      print(!!opts.json, presentOrder(row, ALL_FIELDS), `cancelled ${line(row)}`);
    });
}
