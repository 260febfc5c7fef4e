// An order's whole EDI round trip, with the vendor played by the test: orders placed over REST go
// out as ORDERS to the vendor's own SFTP server (ssh2's Server, test/helpers/vendor-sftp.ts), the
// vendor reads that file twice (with Carrel's reader, and segment by segment as its own system
// would, checking the line references, quantities and parties), answers with an ORDRSP and an
// INVOIC in its out folder, and Carrel's fetch loads them. The end state is read through REST:
// the order's status, the invoice (number, lines, tax, total, each line on its order) and the
// GBP fund's balances; a USD invoice for the GBP fund is refused with a report; a second fetch
// processes nothing again.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readInterchange, readOrder } from '../../../src/edifact/index.ts';
import { create, caller, type Caller } from '../../helpers/api.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { setUpLibrary } from '../../helpers/circulation.ts';
import { ENGINE } from '../../helpers/db.ts';
import { bearer } from '../../helpers/tokens.ts';
import { startVendorServer, type VendorServer } from '../../helpers/vendor-sftp.ts';

const USER = 'lib-e2e';
const PASSWORD = 'vendor-e2e-secret';
const VENDOR_SAN = '1234560';
const LIBRARY_SAN = '000345X';
const ACCOUNT = 'ACC-7781';

/** The vendor's own reading of an interchange: segments split on unreleased apostrophes, elements on +. */
function vendorSegments(text: string): string[][] {
  const body = text.startsWith('UNA') ? text.slice(9) : text;
  const segments: string[] = [];
  let current = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '?') current += body[++i] ?? '';
    else if (c === "'") {
      segments.push(current.trim());
      current = '';
    } else if (c !== '\n' && c !== '\r') current += c;
  }
  return segments.filter(Boolean).map((s) => s.split('+'));
}

/** An interchange the vendor writes: its segments with UNA, UNB, UNT and UNZ counted round them. */
function vendorInterchange(control: string, messages: string[][]): string {
  const counted = messages.map((m, i) => {
    const ref = `${control}${i + 1}`;
    return [`UNH+${ref}+${m[0]}`, ...m.slice(1), `UNT+${m.length + 1}+${ref}`];
  });
  return [
    "UNA:+.? '",
    `UNB+UNOC:3+${VENDOR_SAN}:31B+${LIBRARY_SAN}:31B+261125:0930+${control}`,
    ...counted.flat(),
    `UNZ+${messages.length}+${control}`,
  ]
    .map((s, i) => (i === 0 ? s : `${s}'`))
    .join('\n');
}

interface FileEntry {
  name: string;
  kind: string;
  status: string;
  report: { messages?: { status: string; reason?: string; invoice?: string }[] };
}

describe(`an order's EDI round trip with a vendor's SFTP server, on ${ENGINE}`, () => {
  let t: TestApp;
  let api: Caller;
  let server: VendorServer;
  const orders: { id: string; ref: string; copies: number; price: string }[] = [];
  let sentFile = '';
  let invoiceId = '';

  before(async () => {
    t = await createTestApp({ CARREL_SECRETS_KEY: Buffer.alloc(32, 9).toString('base64') });
    api = caller(t, await bearer(t, ['Invoices_Write', 'Acquisitions_Write', 'Files_Read']));
    server = await startVendorServer(USER, PASSWORD, ['in', 'out']);
    await setUpLibrary(t.testDb.db);
    await create(api, '/v6/funds', { code: 'ukbks', fundName: 'UK books', appropriation: '500.00', currency: 'GBP' });
    const vendorId = await create(api, '/v6/vendors', { code: 'gardn', vendorName: 'Gardners', acctNum: ACCOUNT });
    const edi = await api.send('PUT', `/v6/vendors/${vendorId}/edi`, {
      partyIds: [{ qualifier: '31B', id: VENDOR_SAN }],
      libraryPartyId: { qualifier: '31B', id: LIBRARY_SAN },
      connection: {
        protocol: 'sftp',
        host: '127.0.0.1',
        port: server.port,
        user: USER,
        password: PASSWORD,
        ordersFolder: 'in',
        filesFolder: 'out',
      },
    });
    assert.equal(edi.statusCode, 200, edi.body);
  });
  after(async () => {
    await server?.close();
    await t?.close();
  });

  it('sends the orders placed over REST as ORDERS the vendor can read and check', async () => {
    for (const [title, isbn, copies, price] of [
      ['The first title', '9780306406157', 2, '12.99'],
      ['An e-book', '9781861972712', 1, '25.00'],
    ] as const) {
      const [bib] = await t.testDb.db.query<{ id: string }>(
        `insert into bibs (title, isbns, created_date, updated_date) values ($1, $2, now(), now()) returning id::text as id`,
        [title, [isbn]],
      );
      const id = await create(api, '/v6/orders', {
        bibId: bib!.id,
        vendor: 'gardn',
        fund: 'ukbks',
        copies,
        location: [{ locationCode: 'mn', copies }],
        estimatedPrice: Number(price),
      });
      orders.push({ id, ref: `o${id}`, copies, price });
    }
    const fund = (await api.get('/v6/funds/ukbks')).json();
    assert.deepEqual([fund.currency, fund.encumbrance, fund.expenditure], ['GBP', '50.98', '0.00']);

    const [sent] = await t.services.ediTransport.send({ vendor: 'gardn' });
    assert.equal(sent?.outcome, 'sent', JSON.stringify(sent));
    assert.deepEqual(fs.readdirSync(path.join(server.root, 'in')), [sent.file]);
    sentFile = sent.file!;
    const bytes = fs.readFileSync(path.join(server.root, 'in', sentFile));

    // Carrel's own reader gives back the orders.
    const { interchange, envelopeOk } = readInterchange(bytes);
    assert.ok(interchange && envelopeOk);
    const read = interchange.messages.map((m) => {
      const r = readOrder(m);
      assert.ok('order' in r, JSON.stringify(r));
      return r.order;
    });
    assert.deepEqual(
      read.map((o) => [o.account, o.buyer, o.supplier, o.currency, o.lines.map((l) => [l.reference, l.quantity, l.price])]),
      orders.map((o) => [
        ACCOUNT,
        { qualifier: '31B', id: LIBRARY_SAN },
        { qualifier: '31B', id: VENDOR_SAN },
        'GBP',
        [[o.ref, o.copies, o.price]],
      ]),
    );

    // The vendor's system reads the segments themselves: who orders, on which account, what and how many.
    const segments = vendorSegments(bytes.toString('latin1'));
    assert.deepEqual(segments[0]!.slice(0, 3), ['UNB', 'UNOC:3', `${LIBRARY_SAN}:31B`]);
    assert.equal(segments[0]![3], `${VENDOR_SAN}:31B`);
    const tagged = (tag: string, first: string) => segments.filter((s) => s[0] === tag && s[1]!.split(':')[0] === first);
    assert.deepEqual(
      tagged('NAD', 'BY').map((s) => s[2]),
      orders.map(() => `${LIBRARY_SAN}::31B`),
    );
    assert.deepEqual(
      tagged('NAD', 'SU').map((s) => s[2]),
      orders.map(() => `${VENDOR_SAN}::31B`),
    );
    assert.deepEqual(
      tagged('RFF', 'API').map((s) => s[1]),
      orders.map(() => `API:${ACCOUNT}`),
    );
    // Each RFF+LI follows its line's QTY+21, in the order the lines come.
    const lines: [string, string][] = [];
    let quantity = '';
    for (const s of segments) {
      if (s[0] === 'QTY' && s[1]!.startsWith('21:')) quantity = s[1]!.slice(3);
      if (s[0] === 'RFF' && s[1]!.startsWith('LI:')) lines.push([s[1]!.slice(3), quantity]);
    }
    assert.deepEqual(
      lines,
      orders.map((o) => [o.ref, String(o.copies)]),
    );
    assert.equal(segments.filter((s) => s[0] === 'GIR').length, 3, 'one GIR a copy');
  });

  it('loads the ORDRSP and the INVOIC the vendor drops, once', async () => {
    const [first, second] = orders as [(typeof orders)[0], (typeof orders)[0]];
    const response = vendorInterchange('5001', [
      [
        'ORDRSP:D:96A:UN:EAN005',
        'BGM+231+R5001+4',
        'DTM+137:20261125:102',
        `NAD+SU+${VENDOR_SAN}::31B`,
        `NAD+BY+${LIBRARY_SAN}::31B`,
        ...orders.flatMap((o, i) => [`LIN+${i + 1}+5+9780306406157:EN`, `QTY+21:${o.copies}`, `RFF+LI:${o.ref}`]),
        'UNS+S',
        `CNT+2:${orders.length}`,
      ],
    ]);
    // The vendor's prices: 12.00 a copy where Carrel estimated 12.99, 22.50 where it estimated 25.00.
    const billed = [
      { order: first, isbn: '9780306406157', unit: '12.00', amount: '24.00', rate: '0', tax: '0.00', category: 'Z' },
      { order: second, isbn: '9781861972712', unit: '22.50', amount: '22.50', rate: '20', tax: '4.50', category: 'S' },
    ];
    // In the UK printed books are zero-rated for VAT (a TAX at 0 %, nothing charged) and e-books are
    // charged 20 %: the vendor states each line's tax, and the summary's by rate.
    const invoice = (number: string, currency: string) => [
      'INVOIC:D:96A:UN:EAN008',
      `BGM+380+${number}+9`,
      'DTM+137:20261126:102',
      `NAD+SU+${VENDOR_SAN}::31B`,
      `NAD+BY+${LIBRARY_SAN}::31B`,
      `RFF+API:${ACCOUNT}`,
      `CUX+2:${currency}:4`,
      ...billed.flatMap((b, i) => [
        `LIN+${i + 1}++${b.isbn}:EN`,
        `QTY+47:${b.order.copies}`,
        `MOA+203:${b.amount}`,
        `PRI+AAA:${b.unit}`,
        `RFF+LI:${b.order.ref}`,
        `TAX+7+VAT+++:::${b.rate}+${b.category}`,
        `MOA+124:${b.tax}`,
      ]),
      'UNS+S',
      'CNT+2:2',
      'MOA+79:46.50',
      'MOA+86:51.00',
      'TAX+7+VAT+++:::0+Z',
      'MOA+125:24.00',
      'MOA+124:0.00',
      'TAX+7+VAT+++:::20+S',
      'MOA+125:22.50',
      'MOA+124:4.50',
    ];
    const out = path.join(server.root, 'out');
    fs.writeFileSync(path.join(out, 'R5001.EDI'), response);
    fs.writeFileSync(path.join(out, 'I6001.EDI'), vendorInterchange('6001', [invoice('INV-6001', 'GBP')]));
    fs.writeFileSync(path.join(out, 'I6002.EDI'), vendorInterchange('6002', [invoice('INV-6002', 'USD')]));

    const [fetched] = await t.services.ediTransport.fetch({ vendor: 'gardn' });
    assert.equal(fetched?.outcome, 'fetched', JSON.stringify(fetched));
    assert.deepEqual(fetched.files.map((f) => f.name).sort(), ['I6001.EDI', 'I6002.EDI', 'R5001.EDI']);
    const files = (await api.get('/v6/files?limit=10')).json().entries as FileEntry[];
    const byName = new Map(files.map((f) => [f.name, f]));
    assert.deepEqual([...byName].map(([name, f]) => [name, f.kind, f.status]).sort(), [
      ['I6001.EDI', 'edifact-invoic', 'loaded'],
      ['I6002.EDI', 'edifact-invoic', 'refused'],
      ['R5001.EDI', 'edifact-ordrsp', 'loaded'],
    ]);
    const refusal = byName.get('I6002.EDI')!.report.messages![0]!;
    assert.equal(refusal.status, 'refused');
    assert.match(refusal.reason!, /USD.*ukbks.*GBP/);
    invoiceId = byName.get('I6001.EDI')!.report.messages![0]!.invoice!;

    const again = await t.services.ediTransport.fetch({ vendor: 'gardn' });
    assert.deepEqual(again, [{ vendor: 'gardn', outcome: 'nothing', files: [] }]);
    assert.equal((await api.get('/v6/files?limit=10')).json().entries.length, 3, 'nothing fetched twice');
    const invoices = (await api.get('/v6/invoices?limit=10')).json();
    assert.equal(invoices.total, 1, 'one invoice: the USD one refused, nothing loaded twice');
  });

  it('ends with the order answered and invoiced, and the GBP fund charged what the invoice says', async () => {
    const [first, second] = orders as [(typeof orders)[0], (typeof orders)[0]];
    const order = (await api.get(`/v6/orders/${first.id}?fields=status,vendorStatus,encumbrance`)).json();
    assert.deepEqual([order.status.code, order.vendorStatus], ['o', 'accepted']);

    const [invoice] = (
      await api.get(
        `/v6/invoices?id=${invoiceId}&fields=invNum,invDate,currency,status,subtotal,useTaxAmount,shipping,tax,discount,total,lineItemCount,lineItems`,
      )
    ).json().entries as Record<string, any>[];
    assert.deepEqual(
      [invoice!.invNum, invoice!.invDate, invoice!.currency, invoice!.status.code, invoice!.lineItemCount],
      ['INV-6001', '2026-11-26', 'GBP', 'o', 2],
    );
    assert.deepEqual(
      [invoice!.subtotal, invoice!.useTaxAmount, invoice!.shipping, invoice!.tax, invoice!.discount, invoice!.total],
      ['46.50', '0.00', '0.00', '4.50', '0.00', '51.00'],
    );
    assert.deepEqual(
      (invoice!.lineItems as Record<string, any>[]).map((l) => [l.order, l.fund.code, l.quantity, l.amount, l.tax, l.total]),
      [
        [first.id, 'ukbks', 2, '12.00', '0.00', '24.00'],
        [second.id, 'ukbks', 1, '22.50', '4.50', '27.00'],
      ],
    );
    // Unpaid, the orders still hold their encumbrance (2 × 12.99 + 25.00); paying moves the invoice's total to expended.
    let fund = (await api.get('/v6/funds/ukbks')).json();
    assert.deepEqual([fund.encumbrance, fund.expenditure], ['50.98', '0.00']);
    const paid = await api.send('POST', `/v6/invoices/${invoiceId}/pay`);
    assert.equal(paid.statusCode, 204, paid.body);
    fund = (await api.get('/v6/funds/ukbks')).json();
    assert.deepEqual([fund.currency, fund.encumbrance, fund.expenditure, fund.freeBalance], ['GBP', '0.00', '51.00', '449.00']);
    const done = (await api.get(`/v6/orders/${first.id}?fields=status,paidCopies`)).json();
    assert.deepEqual([done.status.code, done.paidCopies], ['a', 2]);
  });
});
