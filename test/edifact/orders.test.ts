// ORDERS writing: the segments a supplier receives, release characters, counts, refusals naming
// the field, and the round trip through Carrel's own reader.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { readInterchange, readOrder, writeOrders, type OrderBatch } from '../../src/edifact/index.ts';
import { DomainError } from '../../src/shared/errors.ts';

function batch(): OrderBatch {
  return {
    controlReference: 'ORD0000001',
    sender: { id: '1234567', qualifier: '31B' },
    recipient: { id: '5099999000017', qualifier: '14' },
    prepared: new Date('2026-11-29T09:05:00Z'),
    orders: [
      {
        messageReference: 'M0001',
        orderNumber: 'PO-2026-001',
        date: '20261129',
        buyer: { id: '1234567', qualifier: '31B' },
        supplier: { id: '5099999000017', qualifier: '14' },
        account: 'ACCT-77',
        currency: 'GBP',
        lines: [
          {
            reference: 'PO-2026-001/1',
            isbn: '978-1-234-56789-7',
            title: "Rivers: a study? Of 'streams' + brooks, over thirty-five characters and on past seventy of them",
            author: 'Doe, Jane',
            publisher: 'Example Press',
            year: '2026',
            quantity: 2,
            copies: [
              { branch: 'MAIN', fund: 'ADULT-NF', stockCategory: 'BOOK', sequence: 'NEW', shelfmark: '551.48 DOE', loanCategory: '14DAY' },
              { branch: 'EAST', fund: 'ADULT-NF', other: { LCL: '551' } },
            ],
            price: '24.99',
            notes: ['Please supply hardback; jacketed: ?yes+'],
          },
          { reference: 'PO-2026-001/2', isbn: '030640615X', title: 'Café crème', quantity: 1 },
        ],
      },
      {
        messageReference: 'M0002',
        orderNumber: 'PO-2026-002',
        date: '20261129',
        buyer: { id: '5012345000019', qualifier: '14' },
        supplier: { id: '7654321', qualifier: '31B' },
        lines: [{ reference: 'PO-2026-002/1', title: 'No ISBN yet', quantity: 3 }],
      },
    ],
  };
}

const written = (b: OrderBatch = batch()) => writeOrders(b).text;

function refusal(change: (b: OrderBatch) => void): string {
  const b = batch();
  change(b);
  try {
    writeOrders(b);
  } catch (error) {
    assert.ok(error instanceof DomainError);
    assert.equal(error.kind, 'invalidInput');
    return error.detail!;
  }
  assert.fail('writeOrders should have refused');
}

describe('EDIFACT ORDERS writer', () => {
  it('writes the envelope, header and line segments EDItEUR’s library subset uses', () => {
    const segments = written()
      .slice(9)
      .split(/(?<!\?)'/);
    assert.equal(written().slice(0, 9), "UNA:+.? '");
    assert.deepEqual(segments.slice(0, 9), [
      'UNB+UNOC:3+1234567:31B+5099999000017:14+261129:0905+ORD0000001++ORDERS',
      'UNH+M0001+ORDERS:D:96A:UN:EAN008',
      'BGM+220+PO-2026-001+9',
      'DTM+137:20261129:102',
      'NAD+BY+1234567::31B',
      'RFF+API:ACCT-77',
      'NAD+SU+5099999000017::9',
      'CUX+2:GBP:9',
      'LIN+1++9781234567897:EN',
    ]);
    assert.ok(segments.includes('IMD+L+009+:::Doe, Jane'));
    // 35 characters to a component, two to an IMD, then another IMD with the same code.
    assert.ok(segments.includes("IMD+L+050+:::Rivers?: a study?? Of ?'streams?' ?+ bro:oks, over thirty-five characters an"));
    assert.ok(segments.includes('IMD+L+050+:::d on past seventy of them'));
    assert.ok(segments.includes('QTY+21:2'));
    assert.ok(segments.includes('GIR+001+MAIN:LLO+ADULT-NF:LFN+BOOK:LST+NEW:LSQ+551.48 DOE:LSM'));
    assert.ok(segments.includes('GIR+001+14DAY:LLN'), 'the sixth datum goes on in a second GIR of the same copy');
    assert.ok(segments.includes('GIR+002+EAST:LLO+ADULT-NF:LFN+551:LCL'));
    assert.ok(segments.includes('FTX+LIN+++Please supply hardback; jacketed?: ??yes?+'));
    assert.ok(segments.includes('PRI+AAE:24.99:CA'));
    assert.ok(segments.includes('RFF+LI:PO-2026-001/1'));
    assert.ok(segments.includes('PIA+5+030640615X:IB'), 'an ISBN-10 goes in PIA, not LIN');
    assert.ok(segments.includes('UNS+S'));
    assert.ok(segments.includes('CNT+2:2'));
    assert.equal(segments.at(-2), 'UNZ+2+ORD0000001');
  });

  it('counts UNT and UNZ right: the reader accepts every message', () => {
    const result = readInterchange(writeOrders(batch()).bytes);
    assert.deepEqual(result.problems, []);
    assert.equal(result.envelopeOk, true);
    assert.equal(result.interchange!.messages.length, 2);
  });

  it('round-trips: what is read back is the batch that was written', () => {
    const b = batch();
    for (const lineBreaks of [false, true]) {
      const { interchange } = readInterchange(writeOrders({ ...b, lineBreaks }).bytes);
      const orders = interchange!.messages.map((m) => {
        const read = readOrder(m);
        assert.ok('order' in read, JSON.stringify(read));
        return read.order;
      });
      const expected = b.orders.map((o) => ({
        ...o,
        lines: o.lines.map((l) => ({ ...l, ...(l.isbn ? { isbn: l.isbn.replaceAll('-', '') } : {}) })),
      }));
      assert.deepEqual(orders, expected);
      assert.equal(interchange!.header.controlReference, 'ORD0000001');
    }
  });

  it('writes ISO 8859-1 bytes for UNOC and UTF-8 for UNOY', () => {
    const latin = writeOrders(batch()).bytes;
    assert.ok(latin.includes(Buffer.from('Caf\xe9', 'latin1')));
    const b = batch();
    b.syntax = 'UNOY';
    b.orders[0]!.lines[1]!.title = 'Łódź';
    const utf8 = writeOrders(b);
    assert.ok(utf8.bytes.includes(Buffer.from('Łódź', 'utf8')));
    assert.match(utf8.text, /UNB\+UNOY:3/);
    const read = readInterchange(utf8.bytes);
    const order = readOrder(read.interchange!.messages[0]!);
    assert.ok('order' in order && order.order.lines[1]!.title === 'Łódź');
  });

  it('marks a test interchange in UNB', () => {
    const b = batch();
    b.test = true;
    assert.equal(readInterchange(writeOrders(b).bytes).interchange!.header.test, true);
  });

  it('refuses a batch it cannot write, naming the field', () => {
    assert.match(
      refusal((b) => (b.orders[0]!.lines[0]!.quantity = 0)),
      /^orders\[0\]\.lines\[0\]\.quantity: 0 is not a positive whole number/,
    );
    assert.match(
      refusal((b) => b.orders[0]!.lines[0]!.copies!.pop()),
      /^orders\[0\]\.lines\[0\]\.copies: 1 copies given for a quantity of 2/,
    );
    assert.match(
      refusal((b) => (b.orders[0]!.lines[1]!.isbn = '12345')),
      /^orders\[0\]\.lines\[1\]\.isbn/,
    );
    assert.match(
      refusal((b) => (b.orders[0]!.lines[1]!.title = 'Łódź')),
      /^orders\[0\]\.lines\[1\]\.description: "Ł" is not in ISO 8859-1/,
    );
    assert.match(
      refusal((b) => (b.orders[1]!.messageReference = 'M0001')),
      /^orders\[1\]\.messageReference: "M0001" is used twice/,
    );
    assert.match(
      refusal((b) => (b.orders[0]!.lines[0]!.reference = 'x'.repeat(36))),
      /^orders\[0\]\.lines\[0\]\.reference: .* longer than 35/,
    );
    assert.match(
      refusal((b) => (b.orders[1]!.lines[0]!.price = '3.00')),
      /^orders\[1\]\.lines\[0\]\.price: a price needs the order's currency/,
    );
    assert.match(
      refusal((b) => (b.orders[0]!.lines[0]!.notes = ['one\ntwo'])),
      /line breaks/,
    );
    assert.match(
      refusal((b) => (b.controlReference = 'X'.repeat(15))),
      /^controlReference/,
    );
  });

  it('round-trips any text, service characters and Latin-1 included (fast-check, fixed seed)', () => {
    // Text made of the service characters, spaces, letters and Latin-1 letters, so every escape is met.
    const char = fc.constantFrom('?', ':', '+', "'", ' ', 'a', 'Z', '9', 'é', 'ß', '.', ',');
    const text = (min: number, max: number) => fc.string({ unit: char, minLength: min, maxLength: max });
    const copyFields = {
      branch: text(1, 35),
      fund: text(1, 35),
      stockCategory: text(1, 35),
      sequence: text(1, 35),
      shelfmark: text(1, 35),
      loanCategory: text(1, 35),
    };
    // Plain objects, as a caller builds them (deepEqual compares prototypes).
    const copy = fc.record(copyFields, { noNullPrototype: true });
    const line = fc.integer({ min: 1, max: 3 }).chain((quantity) =>
      fc.record(
        {
          reference: text(1, 35),
          title: text(1, 150),
          author: text(1, 80),
          quantity: fc.constant(quantity),
          copies: fc.array(copy, { minLength: quantity, maxLength: quantity }),
          notes: fc.array(text(1, 350), { maxLength: 2 }),
        },
        { noNullPrototype: true },
      ),
    );
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 4 }), text(1, 35), (lines, orderNumber) => {
        const b = batch();
        // An empty list of notes is written as none and read back absent.
        const written = lines.map(({ notes, ...rest }) => (notes.length > 0 ? { ...rest, notes } : rest));
        b.orders = [{ ...b.orders[0]!, orderNumber, lines: written }];
        const { interchange, problems } = readInterchange(writeOrders(b).bytes);
        assert.deepEqual(problems, []);
        const read = readOrder(interchange!.messages[0]!);
        assert.ok('order' in read);
        assert.deepEqual(read.order, b.orders[0]);
      }),
      { seed: 20261129, numRuns: 300 },
    );
  });
});
