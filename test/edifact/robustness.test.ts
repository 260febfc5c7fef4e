// Every truncation and many seeded random mutations of a valid interchange end in a result or a
// typed problem: never a thrown error (a TypeError from a missing element, say). Loops are bounded
// by the input, so a hang would show as the runner's time-out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { balance, detect, readInterchange, readInvoice, readOrder, readOrderResponse, writeOrders } from '../../src/edifact/index.ts';
import { interchange, invoiceBody, message, orderResponseBody } from './messages.ts';

/** Everything a caller would do with the bytes; answers how many problems came back. */
function readAll(bytes: Uint8Array): number {
  const result = readInterchange(bytes, { maxSegments: 5000 });
  let problems = result.problems.length;
  for (const problem of result.problems) assert.equal(typeof problem.text, 'string');
  for (const m of result.interchange?.messages ?? []) {
    // Each reader sees every message (a mutated type must not trip one); only the matching one counts.
    const invoice = readInvoice(m);
    const response = readOrderResponse(m);
    const order = readOrder(m);
    if (m.type === 'INVOIC') problems += 'invoice' in invoice ? balance(invoice.invoice).problems.length : invoice.problems.length;
    if (m.type === 'ORDRSP' && 'problems' in response) problems += response.problems.length;
    if (m.type === 'ORDERS' && 'problems' in order) problems += order.problems.length;
  }
  detect(bytes);
  return problems;
}

/** mulberry32: a small seeded generator, so every run mutates the same way. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SERVICE = Buffer.from("'+:?.,UNHTZBGEAS0123456789\r\n ");

function sample(): Buffer {
  const orders = writeOrders({
    controlReference: 'C1',
    sender: { id: '1234567', qualifier: '31B' },
    recipient: { id: '5099999000017', qualifier: '14' },
    prepared: new Date('2026-11-29T09:00:00Z'),
    orders: [
      {
        messageReference: 'O1',
        orderNumber: 'PO1',
        date: '20261129',
        buyer: { id: '1234567', qualifier: '31B' },
        supplier: { id: '5099999000017', qualifier: '14' },
        currency: 'GBP',
        lines: [
          {
            reference: 'L1',
            isbn: '9781234567897',
            title: 'T?:+',
            quantity: 1,
            copies: [{ branch: 'MAIN', fund: 'F' }],
            price: '1.00',
            notes: ['n'],
          },
        ],
      },
    ],
  }).text;
  const unb = interchange([message('M1', 'INVOIC', invoiceBody()), message('R1', 'ORDRSP', orderResponseBody())]);
  // One file per message kind would be the usual; here all three share the bytes under test.
  const ordersMessage = orders.slice(orders.indexOf('UNH'), orders.indexOf('UNZ'));
  return Buffer.from(unb.replace(/UNZ\+2\+/, `${ordersMessage}UNZ+3+`), 'latin1');
}

describe('EDIFACT robustness', () => {
  it('the sample reads cleanly to begin with', () => {
    assert.equal(readAll(sample()), 0);
  });

  it('every truncation ends in a result or a typed problem', () => {
    const bytes = sample();
    let refused = 0;
    for (let n = 0; n < bytes.length; n++) if (readAll(bytes.subarray(0, n)) > 0) refused++;
    // A cut right after a message's UNT leaves a sound message and only a missing UNZ: still a problem.
    assert.equal(refused, bytes.length, 'every proper prefix is missing at least its UNZ');
  });

  it('5,000 seeded random mutations end in a result or a typed problem', () => {
    const next = random(20261129);
    const original = sample();
    for (let round = 0; round < 5000; round++) {
      let bytes = Buffer.from(original);
      const edits = 1 + Math.floor(next() * 4);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(next() * bytes.length);
        const byte = next() < 0.7 ? SERVICE[Math.floor(next() * SERVICE.length)]! : Math.floor(next() * 256);
        const kind = next();
        if (kind < 0.4) bytes[at] = byte;
        else if (kind < 0.7) bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from([byte]), bytes.subarray(at)]);
        else bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)]);
      }
      assert.doesNotThrow(() => readAll(bytes), `round ${round}`);
    }
  });
});
