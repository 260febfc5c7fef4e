// INVOIC reading and balance(): the lines, their order line references and prices, tax and
// allowances, and the summary totals checked against the lines in exact decimals.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { balance, readInterchange, readInvoice, readInvoices, type Invoice } from '../../src/edifact/index.ts';
import { interchange, invoiceBody, message, orderResponseBody, SUMMARY } from './messages.ts';

function invoiceOf(body: string[]): Invoice {
  const { interchange: read, problems } = readInterchange(interchange([message('M1', 'INVOIC', body)]));
  assert.deepEqual(problems, []);
  const result = readInvoice(read!.messages[0]!);
  assert.ok('invoice' in result, JSON.stringify(result));
  return result.invoice;
}

/** The summary with one MOA replaced (or removed, with `to` undefined). */
function summaryWith(qualifier: string, to: string | undefined, extra: string[] = []): string[] {
  const out = SUMMARY.flatMap((s) =>
    s.startsWith(`MOA+${qualifier}:`) && !s.startsWith('MOA+124') ? (to === undefined ? [] : [`MOA+${qualifier}:${to}`]) : [s],
  );
  return [...out.slice(0, 2), ...extra, ...out.slice(2)];
}

describe('EDIFACT INVOIC', () => {
  it('reads the document, its parties and references, and each line', () => {
    const invoice = invoiceOf(invoiceBody());
    assert.equal(invoice.invoiceNumber, 'INV-2001');
    assert.equal(invoice.documentName, '380');
    assert.equal(invoice.function, '9');
    assert.equal(invoice.documentDate?.value, '20261125');
    assert.equal(invoice.currency, 'GBP');
    assert.equal(invoice.supplier?.id, '5099999000017');
    assert.equal(invoice.supplier?.agency, '9');
    assert.deepEqual(
      invoice.supplier?.references.map((r) => [r.qualifier, r.value]),
      [['VA', 'GB123456789']],
    );
    assert.equal(invoice.buyer?.id, '1234567');
    assert.equal(invoice.buyer?.agency, '31B');
    assert.deepEqual(
      invoice.buyer?.references.map((r) => [r.qualifier, r.value]),
      [['API', 'ACCT-77']],
    );
    assert.deepEqual(
      invoice.allowances.map((a) => [a.kind, a.service, a.amounts.map((m) => [m.qualifier, m.value])]),
      [['charge', 'FC', [['23', '4.50']]]],
    );
    const [one, two] = invoice.lines;
    assert.equal(one!.isbn, '9781234567897');
    assert.equal(one!.invoicedQuantity, '2');
    assert.equal(one!.lineAmount?.value, '20.00');
    assert.equal(one!.discount?.value, '5.00');
    assert.equal(one!.netPrice?.value, '10.00');
    assert.equal(one!.grossPrice?.value, '12.50');
    assert.equal(one!.orderLineReference, 'ORD-1/1');
    assert.equal(one!.orderNumber, 'ORD-1');
    assert.equal(one!.item.descriptions[0]!.text, "A book of +plus+ things: a' study");
    assert.deepEqual(
      one!.taxes.map((t) => [t.type, t.rate, t.category, t.amounts.map((m) => [m.qualifier, m.value])]),
      [['VAT', '20', 'S', [['124', '4.00']]]],
    );
    assert.deepEqual(
      one!.allowances.map((a) => [a.kind, a.service, a.percent, a.amounts.map((m) => [m.qualifier, m.value])]),
      [['allowance', 'DI', '20', [['8', '5.00']]]],
    );
    assert.equal(two!.isbn, '030640615X', 'the PIA ISBN-10 when the LIN has none');
    assert.equal(two!.lineAmount?.value, '7.50', 'a decimal comma read as a point');
    assert.equal(two!.orderLineReference, 'ORD-1/2');
    assert.deepEqual(
      invoice.summary.amounts.map((m) => [m.qualifier, m.value]),
      [
        ['79', '27.50'],
        ['86', '36.00'],
        ['9', '36.00'],
      ],
    );
    assert.deepEqual(Object.fromEntries(Object.entries(invoice.totals).map(([name, amount]) => [name, amount.value])), {
      lineItems: '27.50',
      taxable: '20.00',
      tax: '4.00',
      messageTotal: '36.00',
      amountDue: '36.00',
    });
    assert.deepEqual(
      invoice.summary.taxes[0]!.amounts.map((m) => m.qualifier),
      ['125', '124'],
    );
    assert.deepEqual(
      invoice.summary.counts.map((c) => [c.qualifier, c.value]),
      [['2', '2']],
    );
    assert.equal(one!.lineAmount.at.messageSegment, 14);
    assert.equal(one!.lineAmount.at.segment, 15, 'UNB counts in the interchange');
  });

  it('balances: lines = MOA+79, and 79 + charges − allowances + tax = MOA+86', () => {
    const result = balance(invoiceOf(invoiceBody()));
    assert.deepEqual(result.problems, []);
    assert.equal(result.ok, true);
    assert.deepEqual(result.figures, { lines: '27.5', charges: '4.5', allowances: '0', tax: '4', expected: '36' });
  });

  it('names the MOA+86 that does not agree', () => {
    const invoice = invoiceOf(invoiceBody(summaryWith('86', '36.01')));
    const result = balance(invoice);
    assert.equal(result.ok, false);
    assert.equal(result.problems.length, 1);
    const [problem] = result.problems;
    const moa86 = invoice.summary.amounts.find((a) => a.qualifier === '86')!;
    assert.equal(problem!.kind, 'balance');
    assert.equal(problem!.tag, 'MOA');
    assert.equal(problem!.segment, moa86.at.segment);
    assert.equal(problem!.messageSegment, moa86.at.messageSegment);
    assert.match(problem!.text, /MOA\+86 is 36\.01 but line items 27\.5 \+ charges 4\.5 − allowances 0 \+ tax 4 come to 36/);
  });

  it('names the MOA+79 that is not the sum of the lines', () => {
    const result = balance(invoiceOf(invoiceBody(summaryWith('79', '27.60'))));
    assert.deepEqual(
      result.problems.map((p) => [p.tag, p.text.match(/MOA\+\d+/)?.[0]]),
      [
        ['MOA', 'MOA+79'],
        ['MOA', 'MOA+86'],
      ],
    );
  });

  it('checks MOA+9 when there is no MOA+86, and the lines when there is no MOA+79', () => {
    assert.equal(balance(invoiceOf(invoiceBody(summaryWith('86', undefined)))).ok, true);
    assert.equal(balance(invoiceOf(invoiceBody(summaryWith('79', undefined)))).ok, true);
    const wrong9 = balance(invoiceOf(invoiceBody(summaryWith('86', undefined).map((s) => (s === 'MOA+9:36.00' ? 'MOA+9:35.00' : s)))));
    assert.match(wrong9.problems[0]!.text, /MOA\+9 is 35\.00/);
  });

  it('subtracts message-level allowances and adds charges', () => {
    const body = invoiceBody(summaryWith('86', '34.00')).flatMap((s) => (s === 'MOA+23:4.50' ? [s, 'ALC+A++++DI', 'MOA+204:2.00'] : [s]));
    const result = balance(invoiceOf(body.map((s) => (s === 'MOA+9:36.00' ? 'MOA+9:34.00' : s))));
    assert.deepEqual(result.problems, []);
    assert.equal(result.figures.allowances, '2');
    const noCharge = balance(invoiceOf(invoiceBody().filter((s) => s !== 'ALC+C++++FC' && s !== 'MOA+23:4.50')));
    assert.match(noCharge.problems[0]!.text, /MOA\+86 is 36\.00 but .* come to 31\.5/);
  });

  it('takes the tax total from MOA+176 when the summary states it', () => {
    const result = balance(invoiceOf(invoiceBody(summaryWith('86', '37.00', ['MOA+176:5.00']))));
    assert.equal(result.figures.tax, '5');
    assert.equal(result.ok, true);
    const wrong = balance(invoiceOf(invoiceBody(summaryWith('86', '36.00', ['MOA+176:5.00']))));
    assert.match(wrong.problems[0]!.text, /MOA\+86 is 36\.00 but .* \+ tax 5 come to 37/);
  });

  it('adds up exactly: no binary floating point drift', () => {
    const lines = Array.from({ length: 10 }, (_, i) => [`LIN+${i + 1}`, 'QTY+47:1', 'MOA+203:0.10', `RFF+LI:L${i}`]).flat();
    const invoice = invoiceOf(['BGM+380+X+9', ...lines, 'UNS+S', 'MOA+79:1.00', 'MOA+86:1.00']);
    assert.equal(balance(invoice).ok, true);
  });

  it('names a line without MOA+203, and a summary with no total', () => {
    const result = balance(invoiceOf(['BGM+380+X+9', 'LIN+1', 'QTY+47:1', 'UNS+S']));
    assert.deepEqual(
      result.problems.map((p) => p.tag),
      ['LIN', 'UNS'],
    );
  });

  it('refuses an invoice with an amount that is not a number, or no BGM, or of another type', () => {
    const read = (type: string, body: string[]) =>
      readInvoice(readInterchange(interchange([message('M1', type, body)])).interchange!.messages[0]!);
    const badAmount = read(
      'INVOIC',
      invoiceBody().map((s) => (s === 'MOA+203:20.00' ? 'MOA+203:20.00EUR' : s)),
    );
    assert.ok('problems' in badAmount);
    assert.equal(badAmount.problems[0]!.tag, 'MOA');
    assert.match(badAmount.problems[0]!.text, /MOA\+203 amount "20\.00EUR" is not a number/);
    const noBgm = read('INVOIC', invoiceBody().slice(1));
    assert.ok('problems' in noBgm && /has no BGM/.test(noBgm.problems[0]!.text));
    const other = read('ORDRSP', invoiceBody());
    assert.ok('problems' in other && /is ORDRSP, not INVOIC/.test(other.problems[0]!.text));
  });

  it('readInvoices reads every INVOIC of a file and names a message of another type', () => {
    const read = readInterchange(
      interchange([
        message('M1', 'INVOIC', invoiceBody()),
        message('R1', 'ORDRSP', orderResponseBody()),
        message('M2', 'INVOIC', invoiceBody()),
      ]),
    );
    const { invoices, problems } = readInvoices(read.interchange!);
    assert.deepEqual(
      invoices.map((i) => [i.messageReference, i.messageIndex]),
      [
        ['M1', 0],
        ['M2', 2],
      ],
    );
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.messageIndex, 1);
    assert.match(problems[0]!.text, /R1 is ORDRSP, not INVOIC/);
  });

  it('balances the common supplier shape: CRLF lines, no UNA, line discounts, only MOA+129 and MOA+9', () => {
    const line = (n: number, isbn: string, net: string, gross: string, off: string) => [
      `LIN+${n}++${isbn}:EN`,
      'IMD+L+009+:::Author, An',
      'QTY+47:1',
      `GIR+001+3914000000000${n}:LAC+MAIN:LLO+ADULT:LSQ`,
      `MOA+203:${net}`,
      `MOA+52:${off}`,
      `PRI+AAA:${net}`,
      `PRI+AAB:${gross}`,
      `RFF+LI:77/${n}`,
      'TAX+7+VAT+++:::0+Z',
      'MOA+124:0',
      'ALC+A++++DI::28',
      'PCD+3:35',
      `MOA+8:${off}`,
      'TAX+7+VAT+++:::0+Z',
    ];
    const body = [
      'BGM+380+900123+43',
      'DTM+131:20261120:102',
      'DTM+137:20261120:102',
      'RFF+DQ:900123',
      'NAD+BY+1234567::31B',
      'NAD+SU+5099999000017::9',
      'CUX+2:GBP:4',
      'PAT+1++5:3:D:30',
      ...line(1, '9781234567897', '6.49', '9.99', '3.50'),
      ...line(2, '9780000000002', '11.04', '16.99', '5.95'),
      'UNS+S',
      'CNT+2:2',
      'MOA+129:17.530',
      'MOA+9:17.530',
      'TAX+7+VAT+++:::0+Z',
      'MOA+125:17.530',
      'MOA+124:0',
    ];
    const text = interchange([message('900123', 'INVOIC', body)], { una: false }).replaceAll("'", "'\r\n");
    const { interchange: read, problems } = readInterchange(Buffer.from(text, 'latin1'));
    assert.deepEqual(problems, []);
    const result = readInvoice(read!.messages[0]!);
    assert.ok('invoice' in result);
    assert.deepEqual(
      result.invoice.lines.map((l) => [l.orderLineReference, l.item.copies[0]!.fields]),
      [
        ['77/1', { LAC: '39140000000001', LLO: 'MAIN', LSQ: 'ADULT' }],
        ['77/2', { LAC: '39140000000002', LLO: 'MAIN', LSQ: 'ADULT' }],
      ],
    );
    assert.equal(result.invoice.lines[1]!.item.at.line, 26, 'the line of the file is kept');
    assert.deepEqual(balance(result.invoice), {
      ok: true,
      problems: [],
      figures: { lines: '17.53', charges: '0', allowances: '0', tax: '0', expected: '17.53' },
    });
  });
});
