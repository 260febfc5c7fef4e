// Vendors' ORDRSP files through the files service: each line's status recorded on its order, a
// cancelled line cancelling an order nothing of which was received or paid (releasing what it
// encumbers); a message with a line naming no order Carrel has is refused whole, nothing written.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ENGINE } from '../../helpers/db.ts';
import { interchange, ordrsp } from './messages.ts';
import { ediWorld } from './world.ts';

interface Report {
  loaded: number;
  refused: number;
  messages: { status: string; reference?: string; tag?: string; reason?: string; lines?: Record<string, unknown>[] }[];
}

describe(`ORDRSP files into orders on ${ENGINE}`, () => {
  const w = ediWorld<Report>('edifact-ordrsp');
  const { fund, placeOrder, drop } = w;

  it('records each line’s status; a cancelled line cancels its order and releases the encumbrance', async () => {
    const accepted = await placeOrder('R-1');
    const back = await placeOrder('R-2');
    const cancelled = await placeOrder('R-3');
    const before = await fund('books');
    const file = await drop(
      interchange('EBSCO1', [
        ordrsp('M1', {
          number: 'RSP-1',
          lines: [
            { ref: 'R-1', action: '5' },
            { ref: 'R-2', action: '5', backOrdered: 2 },
            { ref: 'R-3', action: '2' },
          ],
        }),
      ]),
    );
    assert.equal(file.status, 'loaded', JSON.stringify(file.report));
    assert.equal((await w.t.services.orders.get(accepted)).vendor_status, 'accepted');
    assert.equal((await w.t.services.orders.get(back)).vendor_status, 'back-ordered');
    const gone = await w.t.services.orders.get(cancelled);
    assert.equal(gone.vendor_status, 'cancelled');
    assert.equal(gone.status, 'z');
    assert.equal(gone.encumbrance, '0.00');
    assert.equal(Number((await fund('books')).encumbrance), Number(before.encumbrance) - 20);
    assert.equal(file.report.messages[0]!.lines![2]!.cancelled, true);
    // Sent again (or its file retried): the cancelled order is not open any more, and that is no refusal.
    const again = await drop(interchange('EBSCO1', [ordrsp('M1', { number: 'RSP-1', lines: [{ ref: 'R-3', action: '2' }] })]));
    assert.equal(again.status, 'loaded', JSON.stringify(again.report));
    assert.equal(again.report.messages[0]!.lines![0]!.notCancelled, 'already cancelled');
    assert.equal(Number((await fund('books')).encumbrance), Number(before.encumbrance) - 20);
  });

  it('keeps an order with received copies that the vendor cancels, saying why', async () => {
    const id = await placeOrder('R-4');
    await w.t.services.orders.receive(id, 1);
    const file = await drop(interchange('EBSCO1', [ordrsp('M1', { number: 'RSP-2', lines: [{ ref: 'R-4', action: '2' }] })]));
    assert.equal(file.status, 'loaded');
    const order = await w.t.services.orders.get(id);
    assert.equal(order.status, 'o');
    assert.equal(order.vendor_status, 'cancelled');
    assert.equal(file.report.messages[0]!.lines![0]!.notCancelled, 'has received copies');
  });

  it('refuses the whole message when a line names no order, recording nothing of it', async () => {
    const id = await placeOrder('R-5');
    const file = await drop(
      interchange('EBSCO1', [
        ordrsp('M1', {
          number: 'RSP-3',
          lines: [
            { ref: 'R-5', action: '2' },
            { ref: 'R-404', action: '5' },
          ],
        }),
      ]),
    );
    assert.equal(file.status, 'refused');
    assert.equal(file.report.messages[0]!.reference, 'R-404');
    assert.equal(file.report.messages[0]!.tag, 'RFF');
    const order = await w.t.services.orders.get(id);
    assert.equal(order.status, 'o');
    assert.equal(order.vendor_status, null);
  });
});
