// `npm run bench:edi`: a vendor's INVOIC of 1,000 lines, each billing one of 1,000 orders placed
// first, received and processed by the files service as the SFTP door hands it over (reading the
// interchange, checking the balance, finding each line's order by its RFF+LI, writing the invoice
// in one transaction), beside the same invoice created through InvoiceService directly in the same
// run (the baseline: what the invoice itself costs to write). On PostgreSQL, in its own database
// carrel_bench_edi, made afresh each run.
// Options: --lines N (default 1000), --database-url URL.
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { migrate } from '../src/db/migrate.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { addBib, setUpLibrary } from '../test/helpers/circulation.ts';
import { servicesOn } from '../test/helpers/services.ts';
import { interchange, invoic } from '../test/acquisitions/edi/messages.ts';
import { dbUrl } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    lines: { type: 'string', default: '1000' },
    'database-url': { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const LINES = Number(args.lines);
const DB = 'carrel_bench_edi';
const BUDGET_SECONDS = 2;

const admin = postgres(args['database-url'], { max: 1, onnotice: () => {} });
await admin.unsafe(`drop database if exists ${DB} with (force)`);
await admin.unsafe(`create database ${DB}`);
const db = openPostgres(dbUrl(args['database-url'], DB), { max: 4, connectTimeoutSec: 10 });
try {
  await migrate(db);
  const services = servicesOn(db);
  await setUpLibrary(db);
  const bibId = await addBib(db, 'Benchmarked book');
  await services.funds.create({ code: 'books', fundName: 'Books', appropriation: '10000000.00' });
  const vendorId = await services.vendors.create({ code: 'bench', vendorName: 'Bench Books' });
  await services.vendorEdi.set(vendorId, { partyIds: [{ qualifier: '91', id: 'BENCH1' }] });
  const place = async (prefix: string) => {
    const ids: string[] = [];
    for (let i = 1; i <= LINES; i++)
      ids.push(
        await services.orders.create({
          bibId,
          vendor: 'bench',
          fund: 'books',
          copies: 1,
          location: [{ locationCode: 'mn', copies: 1 }],
          estimatedPrice: '10.00',
          lineReference: `${prefix}-${i}`,
        }),
      );
    return ids;
  };
  const placed0 = performance.now();
  const ediOrders = await place('EDI');
  const baseOrders = await place('BASE');
  const placeSeconds = (performance.now() - placed0) / 1000;
  const amount = (i: number) => `${10 + (i % 7)}.${String(i % 100).padStart(2, '0')}`;

  // Baseline: the same invoice (lines, amounts, orders) through InvoiceService.
  const base0 = performance.now();
  await services.invoices.create({
    invNum: 'BASE-1',
    invDate: '2026-11-20',
    vendorCode: 'bench',
    currency: 'USD',
    lineItems: baseOrders.map((order, i) => ({ fund: 'books', amount: amount(i), quantity: 1, order })),
  });
  const baseSeconds = (performance.now() - base0) / 1000;

  const text = interchange('BENCH1', [
    invoic('M1', { invNum: 'EDI-1', lines: ediOrders.map((_, i) => ({ ref: `EDI-${i + 1}`, amount: amount(i) })) }),
  ]);
  const received0 = performance.now();
  const file = await services.files.receive('bench', 'bench.edi', Buffer.from(text, 'latin1'));
  const receiveSeconds = (performance.now() - received0) / 1000;
  const edi0 = performance.now();
  await services.files.processOne(file.id);
  const ediSeconds = (performance.now() - edi0) / 1000;
  const done = await services.files.get(file.id);
  if (done.status !== 'loaded') throw new Error(`the INVOIC was not loaded: ${JSON.stringify(done.report).slice(0, 2000)}`);
  const [edi] = await services.invoices.list({ invNum: ['EDI-1'], deleted: false, limit: 1, offset: 0 });
  const [base] = await services.invoices.list({ invNum: ['BASE-1'], deleted: false, limit: 1, offset: 0 });
  if (edi!.total !== base!.total || edi!.line_count !== LINES) throw new Error(`totals differ: ${edi!.total} vs ${base!.total}`);

  const row = (run: string, seconds: number) =>
    `| ${run.padEnd(46)} | ${String(LINES).padStart(5)} | ${seconds.toFixed(3).padStart(7)} | ${Math.round(LINES / seconds)
      .toLocaleString('en')
      .padStart(7)} |`;
  console.log(
    `\nINVOIC of ${LINES} lines, ${Math.round(text.length / 1024)} KB, total ${edi!.total} (orders placed first: ${placeSeconds.toFixed(1)} s)\n`,
  );
  console.log(`| ${'run'.padEnd(46)} | lines | seconds | lines/s |`);
  console.log(`| ${'-'.repeat(46)} | ----- | ------- | ------- |`);
  console.log(row('InvoiceService.create, same invoice (baseline)', baseSeconds));
  console.log(row('files: receive (keep the bytes)', receiveSeconds));
  console.log(row('files: process the INVOIC', ediSeconds));
  console.log(`\nprocess / baseline = ${(ediSeconds / baseSeconds).toFixed(2)}`);
  console.log(
    `budget: INVOIC of ${LINES} lines processed in <= ${BUDGET_SECONDS} s -> ${ediSeconds.toFixed(3)} s ${ediSeconds <= BUDGET_SECONDS ? 'met' : 'NOT met'}`,
  );
} finally {
  await db.close();
  await admin.unsafe(`drop database if exists ${DB} with (force)`);
  await admin.end();
}
