// Vendors' INVOIC files through the files service, as the SFTP door hands them over: each message
// becomes an open invoice on the orders its lines name, or is refused whole (nothing written)
// naming the segment; the file's other messages still load; a retry loads only what had not loaded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { snapshot } from '../../helpers/acquisitions.ts';
import { ENGINE } from '../../helpers/db.ts';
import { interchange, invoic } from './messages.ts';
import { ediWorld } from './world.ts';

interface Report {
  loaded: number;
  refused: number;
  messages: { message: string; status: string; invoice?: string; reference?: string; tag?: string; segment?: number; reason?: string }[];
}

describe(`INVOIC files into invoices on ${ENGINE}`, () => {
  const w = ediWorld<Report>('edifact-invoic');
  const { fund, placeOrder, drop } = w;

  it('loads an INVOIC of two lines paying two orders as an open invoice, exact to the cent', async () => {
    const a = await placeOrder('INV-A');
    const b = await placeOrder('INV-B', { copies: 1, location: [{ locationCode: 'mn', copies: 1 }] });
    const fundBefore = await fund('books');
    const file = await drop(
      interchange('SOMEHUB', [
        invoic('M1', {
          invNum: 'E-1001',
          supplier: 'EBSCO1',
          lines: [
            { ref: 'INV-A', quantity: 2, amount: '19.90' },
            { ref: 'INV-B', amount: '8.45' },
          ],
          charge: '3.50',
          allowance: '1.25',
        }),
      ]),
    );
    assert.equal(file.status, 'loaded', JSON.stringify(file.report));
    const [message] = file.report.messages;
    assert.equal(message!.status, 'loaded');
    const invoice = await w.read(`/v6/invoices/${message!.invoice}?fields=invNum,invDate,vendor,status,total,lineItemCount`);
    assert.equal(invoice.invNum, 'E-1001');
    assert.equal(invoice.invDate, '2026-11-20');
    assert.equal(invoice.vendor.code, 'ebsco');
    assert.equal(invoice.lineItemCount, 2);
    // 19.90 + 8.45 + 3.50 charges − 1.25 allowances = the message's MOA+86.
    assert.equal(invoice.total, '30.60');
    assert.equal(invoice.status.code, 'o');
    const row = await w.t.services.invoices.get(message!.invoice!);
    assert.equal(row.total, '30.60');
    assert.equal(row.shipping, '3.50');
    assert.equal(row.discount, '1.25');
    const lines = await w.t.services.invoices.lines(row.id);
    assert.deepEqual(
      lines.map((l) => [l.order_id, l.quantity, l.amount, l.fund_code]),
      [
        [a, 2, '9.95', 'books'],
        [b, 1, '8.45', 'books'],
      ],
    );
    // Loaded open: the orders still encumber; paying moves them to expenditure as any invoice.
    assert.deepEqual(await fund('books'), fundBefore);
    await w.t.services.invoices.pay(row.id);
    const paid = await fund('books');
    assert.equal(Number(paid.encumbrance), Number(fundBefore.encumbrance) - 30);
    assert.equal(Number(paid.expenditure), Number(fundBefore.expenditure) + 30.6);
  });

  it('refuses a message that does not balance, writing nothing of it, and loads the file’s other message', async () => {
    await placeOrder('BAL-A');
    await placeOrder('BAL-B');
    const before = await snapshot(w.t.testDb.db);
    const file = await drop(
      interchange('EBSCO1', [
        invoic('M1', { invNum: 'E-2001', lines: [{ ref: 'BAL-A', amount: '10.00' }], total: '11.00' }),
        invoic('M2', { invNum: 'E-2002', lines: [{ ref: 'BAL-B', amount: '12.00' }] }),
      ]),
    );
    assert.equal(file.status, 'refused');
    assert.equal(file.report.loaded, 1);
    const [m1, m2] = file.report.messages;
    assert.equal(m1!.status, 'refused');
    assert.equal(m1!.tag, 'MOA');
    assert.match(m1!.reason!, /does not balance.*MOA\+86 is 11\.00/);
    assert.equal(m2!.status, 'loaded');
    const invoices = await w.t.services.invoices.list({ invNum: ['E-2001', 'E-2002'], deleted: false, limit: 10, offset: 0 });
    assert.deepEqual(
      invoices.map((i) => i.inv_num),
      ['E-2002'],
    );
    assert.notDeepEqual(await snapshot(w.t.testDb.db), before);
  });

  it('refuses the whole message when one line names an order Carrel does not have, naming the RFF and the reference', async () => {
    await placeOrder('KNOWN-1');
    const before = await snapshot(w.t.testDb.db);
    const file = await drop(
      interchange('EBSCO1', [
        invoic('M1', {
          invNum: 'E-3001',
          lines: [
            { ref: 'KNOWN-1', amount: '10.00' },
            { ref: 'NOSUCH-9', amount: '5.00' },
          ],
        }),
      ]),
    );
    assert.equal(file.status, 'refused');
    const [m1] = file.report.messages;
    assert.equal(m1!.tag, 'RFF');
    assert.equal(m1!.reference, 'NOSUCH-9');
    assert.match(m1!.reason!, /line 2: no open order of vendor ebsco has line reference NOSUCH-9/);
    assert.deepEqual(await snapshot(w.t.testDb.db), before);
  });

  it('refuses an invoice whose currency is not its funds’', async () => {
    await placeOrder('CUR-1');
    const before = await snapshot(w.t.testDb.db);
    const file = await drop(
      interchange('EBSCO1', [invoic('M1', { invNum: 'E-4001', currency: 'EUR', lines: [{ ref: 'CUR-1', amount: '10.00' }] })]),
    );
    assert.equal(file.status, 'refused');
    assert.match(file.report.messages[0]!.reason!, /the invoice is in EUR but fund books is kept in USD/);
    assert.deepEqual(await snapshot(w.t.testDb.db), before);
  });

  it('loads the tax the vendor charges: each line’s own when stated, else the message’s shared out', async () => {
    await placeOrder('TAX-1');
    await placeOrder('TAX-2', { copies: 1, location: [{ locationCode: 'mn', copies: 1 }] });
    await placeOrder('TAX-3');
    const file = await drop(
      interchange('EBSCO1', [
        // An e-book at 20 % and a printed book zero-rated: the lines' own tax, 4.00 + 0.00.
        invoic('M1', {
          invNum: 'E-5001',
          tax: '4.00',
          lines: [
            { ref: 'TAX-1', quantity: 2, amount: '20.00', tax: { rate: '20', amount: '4.00' } },
            { ref: 'TAX-2', amount: '10.00', tax: { rate: '0', amount: '0.00' } },
          ],
        }),
        // Only the summary's tax: shared out as shipping is.
        invoic('M2', { invNum: 'E-5002', tax: '2.00', charge: '1.00', lines: [{ ref: 'TAX-3', quantity: 2, amount: '18.00' }] }),
      ]),
    );
    assert.equal(file.status, 'loaded', JSON.stringify(file.report));
    const [byLine, shared] = file.report.messages;
    const first = await w.read(`/v6/invoices/${byLine!.invoice}?fields=tax,total,lineItems`);
    assert.deepEqual([first.tax, first.total], ['4.00', '34.00']);
    assert.deepEqual(
      first.lineItems.map((l: any) => [l.amount, l.quantity, l.tax, l.total]),
      [
        ['10.00', 2, '4.00', '24.00'],
        ['10.00', 1, '0.00', '10.00'],
      ],
    );
    const second = await w.read(`/v6/invoices/${shared!.invoice}?fields=tax,shipping,total,lineItems`);
    assert.deepEqual([second.tax, second.shipping, second.total], ['2.00', '1.00', '21.00']);
    assert.deepEqual(
      second.lineItems.map((l: any) => [l.tax, l.total]),
      [['2.00', '21.00']],
    );
  });

  it('refuses the same invoice sent again under another file name as already loaded', async () => {
    await placeOrder('DUP-1', { copies: 4, location: [{ locationCode: 'mn', copies: 4 }] });
    const text = interchange('EBSCO1', [invoic('M1', { invNum: 'E-6001', lines: [{ ref: 'DUP-1', amount: '10.00' }] })]);
    const first = await drop(text, 'dup-a.edi');
    assert.equal(first.status, 'loaded');
    const before = await snapshot(w.t.testDb.db);
    const again = await drop(text, 'dup-b.edi');
    assert.equal(again.status, 'refused');
    assert.match(again.report.messages[0]!.reason!, /vendor ebsco already has invoice number E-6001/);
    assert.deepEqual(await snapshot(w.t.testDb.db), before);
  });

  it('refuses a message from a party no vendor has, naming the segment', async () => {
    const file = await drop(
      interchange('STRANGER', [invoic('M1', { invNum: 'E-7001', supplier: 'NOBODY', lines: [{ ref: 'X', amount: '1.00' }] })]),
    );
    assert.equal(file.status, 'refused');
    assert.equal(file.report.messages[0]!.tag, 'NAD');
    assert.match(file.report.messages[0]!.reason!, /no vendor has NAD\+SU NOBODY nor the UNB sender STRANGER/);
    const unsigned = await drop(interchange('STRANGER', [invoic('M1', { invNum: 'E-7002', lines: [{ ref: 'X', amount: '1.00' }] })]));
    assert.equal(unsigned.report.messages[0]!.tag, 'UNB');
    assert.equal(unsigned.report.messages[0]!.reference, 'STRANGER');
  });

  it('retried once the missing order exists, loads only the message not loaded before', async () => {
    await placeOrder('RT-1');
    const file = await drop(
      interchange('EBSCO1', [
        invoic('M1', { invNum: 'E-8001', lines: [{ ref: 'RT-1', amount: '10.00' }] }),
        invoic('M2', { invNum: 'E-8002', lines: [{ ref: 'RT-2', amount: '11.00' }] }),
      ]),
    );
    assert.equal(file.status, 'refused');
    const firstId = file.report.messages[0]!.invoice;
    assert.equal(file.report.messages[1]!.reference, 'RT-2');
    await placeOrder('RT-2');
    await w.t.services.files.retry(file.id);
    assert.equal(await w.t.services.files.processOne(file.id), true);
    const retried = await w.t.services.files.get(file.id);
    const report = retried.report as Report;
    assert.equal(retried.status, 'loaded', JSON.stringify(report));
    assert.equal(report.messages[0]!.invoice, firstId);
    assert.equal(report.messages[1]!.status, 'loaded');
    const rows = await w.t.services.invoices.list({ invNum: ['E-8001', 'E-8002'], deleted: false, limit: 10, offset: 0 });
    assert.equal(rows.length, 2);
  });
});
