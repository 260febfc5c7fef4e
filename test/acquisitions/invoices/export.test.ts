// `carrel use-tax`, `carrel funds`, `carrel vendors` and `carrel invoices export`, through the real
// command on the engine under test; and the CSV quoting on its own.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../src/config.ts';
import { openClientDb } from '../../../src/db/open.ts';
import { EXPORT_COLUMNS, toCsv, type ExportColumn, type ExportRow } from '../../../src/acquisitions/invoices/export.ts';
import { csvField } from '../../../src/shared/csv.ts';
import { servicesOn } from '../../helpers/services.ts';
import { childDatabase, ENGINE } from '../../helpers/db.ts';
import { carrel } from '../../helpers/process.ts';
import { parseCsv } from '../../helpers/csv.ts';

describe('CSV fields', () => {
  it('quotes what needs quoting and doubles quotes', () => {
    assert.equal(csvField('plain'), 'plain');
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField('two\nlines'), '"two\nlines"');
    assert.equal(csvField(' edge'), '" edge"');
    assert.equal(csvField(null), '');
    assert.equal(csvField(false), 'false');
    assert.equal(toCsv([]), `${EXPORT_COLUMNS.join(',')}\r\n`);
  });

  it('neutralises spreadsheet formulas in text columns, never in numbers', () => {
    const row = Object.fromEntries(EXPORT_COLUMNS.map((c) => [c, null])) as ExportRow;
    Object.assign(row, {
      invNum: '=HYPERLINK("http://x","y")',
      vendorName: '+SUM(A1)',
      fundName: '@cmd',
      note: '\tlead',
      order: '-1+2',
      amount: '-5.00',
      quantity: 1,
      useTaxRate: '7.75',
      invoiceTotal: '12.00',
    });
    const [, cells] = parseCsv(toCsv([row]));
    const at = (c: ExportColumn) => cells![EXPORT_COLUMNS.indexOf(c)];
    assert.equal(at('invNum'), `'=HYPERLINK("http://x","y")`);
    assert.equal(at('vendorName'), "'+SUM(A1)");
    assert.equal(at('fundName'), "'@cmd");
    assert.equal(at('note'), "'\tlead");
    assert.equal(at('order'), "'-1+2");
    assert.equal(at('amount'), '-5.00', 'numbers untouched');
    assert.equal(csvField('=1+1'), '=1+1', 'csvField itself is plain RFC 4180');
  });
});

describe(`acquisitions commands on ${ENGINE}`, () => {
  let child: Awaited<ReturnType<typeof childDatabase>>;
  let env: Record<string, string>;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-export-'));
  before(async () => {
    child = await childDatabase();
    env = child.env;
  });
  after(async () => {
    await child.remove();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('sets up use tax codes, funds and vendors from the command line', async () => {
    const set = await carrel(['use-tax', 'set', 'a', '7.75', '--description', 'State use tax', '--json'], env);
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual(JSON.parse(set.stdout), { code: 'a', rate: '7.75', description: 'State use tax' });
    assert.equal((await carrel(['use-tax', 'set', 'c', '8.125'], env)).stdout, 'created use tax c: 8.125%\n');
    const bad = await carrel(['use-tax', 'set', 'x', '7,75'], env);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^carrel: rate: "7,75" is not a rate/);
    assert.doesNotMatch(bad.stderr, /at .*\.ts/, 'no stack trace');
    const fund = await carrel(['funds', 'create', 'books', '--name', 'Books', '--appropriation', '1000.00', '--json'], env);
    assert.equal(fund.code, 0, fund.stderr);
    assert.equal(JSON.parse(fund.stdout).freeBalance, '1000.00');
    assert.equal(
      (await carrel(['vendors', 'create', 'ebsco', '--name', 'EBSCO, "the" vendor', '--email', 'orders@example.org'], env)).code,
      0,
    );
    const list = await carrel(['use-tax', 'list'], env);
    assert.match(list.stdout, /^CODE\s+RATE %\s+DESCRIPTION\na\s+7\.75\s+State use tax\nc\s+8\.125\n$/);
    assert.equal((await carrel(['funds', 'set', 'books', '--appropriation', '1200', '--json'], env)).code, 0);
    assert.equal(JSON.parse((await carrel(['funds', 'list', '--json'], env)).stdout)[0].appropriation, '1200.00');
    assert.equal(JSON.parse((await carrel(['vendors', 'list', '--json'], env)).stdout)[0].code, 'ebsco');
    const help = await carrel(['invoices', 'export', '--help'], env);
    assert.match(help.stdout, /--paid-since/);
  });

  it('exports paid invoices, one row per line with its use tax, as CSV and as JSON', async () => {
    const db = await openClientDb(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
    let paidId: string;
    try {
      const invoices = servicesOn(db).invoices;
      paidId = await invoices.create({
        invNum: 'A-1',
        invDate: '2026-11-02',
        vendorCode: 'ebsco',
        useTaxCode: 'c',
        shipping: '1.00',
        lineItems: [
          { fund: 'books', amount: '0.1', note: 'first, "quoted"\nsecond line' },
          { fund: 'books', amount: '0.2', quantity: 2, useTax: false },
        ],
      });
      await invoices.pay(paidId);
      await invoices.create({ invNum: 'A-2', invDate: '2026-11-02', vendorCode: 'ebsco', lineItems: [{ fund: 'books', amount: '5.00' }] });
    } finally {
      await db.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 1100)); // the payment's second is over

    const csv = await carrel(['invoices', 'export', '--paid-since', '2000-01-01', '--format', 'csv'], env);
    assert.equal(csv.code, 0, csv.stderr);
    const [header, ...rows] = parseCsv(csv.stdout);
    assert.deepEqual(header, [...EXPORT_COLUMNS]);
    assert.equal(rows.length, 2, 'the unpaid invoice is not exported');
    const byName = rows.map((row) => Object.fromEntries(header.map((h, i) => [h, row[i]])));
    // 0.10 at 8.125% = 0.008125 → 0.01; shipping 1.00 shared 0.10 : 0.40 → 0.20, 0.80.
    assert.deepEqual(
      byName.map((r) => [
        r.invoiceId,
        r.invNum,
        r.vendorName,
        r.fundCode,
        r.amount,
        r.quantity,
        r.subtotal,
        r.useTax,
        r.useTaxCode,
        r.useTaxRate,
        r.useTaxAmount,
        r.shipping,
        r.lineTotal,
        r.invoiceTotal,
        r.currency,
      ]),
      [
        [paidId, 'A-1', 'EBSCO, "the" vendor', 'books', '0.10', '1', '0.10', 'true', 'c', '8.125', '0.01', '0.20', '0.31', '1.51', 'USD'],
        [paidId, 'A-1', 'EBSCO, "the" vendor', 'books', '0.20', '2', '0.40', 'false', '', '', '0.00', '0.80', '1.20', '1.51', 'USD'],
      ],
    );
    assert.equal(byName[0]!.note, 'first, "quoted"\nsecond line');
    assert.match(byName[0]!.paidDate!, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const next = /next: --paid-since (\S+)/.exec(csv.stderr)?.[1];
    assert.ok(next, csv.stderr);
    assert.match(csv.stderr, /exported 2 line items of 1 invoices/);

    const file = path.join(tmp, 'paid.json');
    const json = await carrel(['invoices', 'export', '--paid-since', '2000-01-01T00:00:00Z', '--format', 'json', '--output', file], env);
    assert.equal(json.code, 0, json.stderr);
    assert.equal(json.stdout, '');
    const entries = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.equal(entries.length, 2);
    assert.deepEqual(Object.keys(entries[0]), [...EXPORT_COLUMNS]);
    assert.deepEqual([entries[0].useTaxAmount, entries[0].quantity, entries[0].useTax, entries[1].useTaxCode], ['0.01', 1, true, null]);

    const later = await carrel(['invoices', 'export', '--paid-since', next, '--format', 'json'], env);
    assert.deepEqual(JSON.parse(later.stdout), [], 'the next window starts where this one ended');
    const earlier = await carrel(
      ['invoices', 'export', '--paid-since', '2000-01-01', '--paid-before', '2000-01-02', '--format', 'csv'],
      env,
    );
    assert.equal(earlier.stdout, `${EXPORT_COLUMNS.join(',')}\r\n`);
  });

  it('refuses a missing or unknown format and a bad date', async () => {
    const noFormat = await carrel(['invoices', 'export', '--paid-since', '2026-01-01'], env);
    assert.equal(noFormat.code, 1);
    assert.match(noFormat.stderr, /--format/);
    const xml = await carrel(['invoices', 'export', '--paid-since', '2026-01-01', '--format', 'xml'], env);
    assert.equal(xml.code, 1);
    assert.match(xml.stderr, /csv, json|"csv", "json"/);
    const date = await carrel(['invoices', 'export', '--paid-since', 'last week', '--format', 'csv'], env);
    assert.equal(date.code, 1);
    assert.match(date.stderr, /2026-11-02/);
  });
});
