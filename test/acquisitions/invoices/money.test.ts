// The money rules on their own: parsing, the use tax rounding rule, sharing out to the cent.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toApiError } from '../../../src/http/error-handler.ts';
import { allocate, Decimal, parseMoney, parseRate, useTaxOn } from '../../../src/shared/money.ts';
import { priceInvoice } from '../../../src/acquisitions/invoices/pricing.ts';
import { cents, money, taxCents } from '../../helpers/money.ts';

const refused = (fn: () => unknown, pattern: RegExp) =>
  assert.throws(fn, (error: unknown) => {
    const answer = toApiError(error);
    return answer?.code === 126 && pattern.test(answer.description ?? '');
  });
const d = (text: string) => new Decimal(text);

describe('money', () => {
  it('reads amounts with at most two decimals, exactly, and refuses the rest naming the field', () => {
    assert.equal(parseMoney('amount', '12.3').toFixed(2), '12.30');
    assert.equal(parseMoney('amount', '0').toFixed(2), '0.00');
    assert.equal(
      parseMoney('amount', String(0.1))
        .plus(parseMoney('amount', String(0.2)))
        .toFixed(),
      '0.3',
    );
    refused(() => parseMoney('lineItems.0.amount', '-1.00'), /lineItems\.0\.amount: "-1\.00" must not be negative/);
    refused(() => parseMoney('amount', '1.234'), /more than two decimal places/);
    refused(() => parseMoney('amount', String(0.1 + 0.2)), /more than two decimal places/);
    refused(() => parseMoney('amount', '1e3'), /not an amount/);
    refused(() => parseMoney('amount', ''), /not an amount/);
    refused(() => parseMoney('amount', '1000000000.00'), /more than 999999999\.99/);
  });

  it('reads rates in percent and keeps their digits', () => {
    assert.equal(parseRate('rate', '7.75'), '7.75');
    assert.equal(parseRate('rate', '0'), '0');
    assert.equal(parseRate('rate', '8.125'), '8.125');
    assert.equal(parseRate('rate', '7.750'), '7.750');
    assert.equal(parseRate('rate', '007.5'), '7.5');
    assert.equal(parseRate('rate', '100'), '100');
    refused(() => parseRate('rate', '100.01'), /more than 100 percent/);
    refused(() => parseRate('rate', '-1'), /not a rate/);
    refused(() => parseRate('rate', '1.1234567'), /not a rate/);
  });

  it('rounds use tax to the cent, halves away from zero', () => {
    assert.equal(useTaxOn(d('1.00'), d('0.5')).toFixed(2), '0.01'); // 0.005
    assert.equal(useTaxOn(d('10.00'), d('7.75')).toFixed(2), '0.78'); // 0.775
    assert.equal(useTaxOn(d('0.30'), d('8.125')).toFixed(2), '0.02'); // 0.024375
    assert.equal(useTaxOn(d('0.20'), d('8.125')).toFixed(2), '0.02'); // 0.01625
    assert.equal(useTaxOn(d('999999999.99'), d('100')).toFixed(2), '999999999.99');
    assert.equal(useTaxOn(d('123.45'), d('0')).toFixed(2), '0.00');
    for (let c = 0n; c < 5000n; c += 7n) {
      for (const rate of ['7.75', '8.125', '0.5', '6.000001']) {
        assert.equal(useTaxOn(d(money(c)), d(rate)).toFixed(2), money(taxCents(c, rate)), `${money(c)} at ${rate}`);
      }
    }
  });

  it('shares an amount out in proportion, to the cent, always adding up', () => {
    assert.deepEqual(
      allocate(d('1.00'), [d('1'), d('1'), d('1')]).map((x) => x.toFixed(2)),
      ['0.34', '0.33', '0.33'],
    );
    assert.deepEqual(
      allocate(d('0.05'), [d('0'), d('0')]).map((x) => x.toFixed(2)),
      ['0.03', '0.02'],
    );
    assert.deepEqual(
      allocate(d('10.00'), [d('30.00'), d('10.00')]).map((x) => x.toFixed(2)),
      ['7.50', '2.50'],
    );
    assert.deepEqual(
      allocate(d('0.02'), [d('0.01'), d('0.01'), d('0.01')]).map((x) => x.toFixed(2)),
      ['0.01', '0.01', '0.00'],
    );
    for (let n = 1; n < 40; n++) {
      const weights = Array.from({ length: n }, (_, i) => d(money(BigInt((i * 7919) % 1000))));
      const total = d(money(BigInt(n * 1237)));
      const shares = allocate(total, weights);
      assert.equal(shares.reduce((a, b) => a.plus(b), d('0')).toFixed(2), total.toFixed(2));
      assert.ok(shares.every((s) => s.decimalPlaces() <= 2 && !s.isNegative()));
    }
  });

  it('prices 0.1 + 0.2 exactly, with the invoice tax the sum of the rounded line taxes', () => {
    const priced = priceInvoice(
      [
        { amount: d('0.1'), quantity: 1, useTax: true },
        { amount: d('0.2'), quantity: 1, useTax: true },
      ],
      '8.125',
      d('0'),
      d('0'),
    );
    assert.equal(priced.subtotal.toFixed(2), '0.30');
    assert.deepEqual(
      priced.lines.map((l) => l.useTaxAmount.toFixed(2)),
      ['0.01', '0.02'],
    );
    assert.equal(priced.useTaxAmount.toFixed(2), '0.03', 'not 0.02, the tax on 0.30 taken whole');
    assert.equal(priced.total.toFixed(2), '0.33');
  });

  it('prices thousands of awkward lines to the cent, every invoice figure the sum of the lines', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => ({
      amount: money(BigInt((i * 37) % 10007) + 1n),
      quantity: (i % 7) + 1,
      useTax: i % 3 !== 0,
    }));
    const priced = priceInvoice(
      lines.map((l) => ({ ...l, amount: d(l.amount) })),
      '8.125',
      d('12.34'),
      d('5.67'),
    );
    let subtotal = 0n;
    let tax = 0n;
    priced.lines.forEach((line, i) => {
      const sub = cents(lines[i]!.amount) * BigInt(lines[i]!.quantity);
      subtotal += sub;
      const t = lines[i]!.useTax ? taxCents(sub, '8.125') : 0n;
      tax += t;
      assert.equal(line.subtotal.toFixed(2), money(sub));
      assert.equal(line.useTaxAmount.toFixed(2), money(t));
      assert.equal(line.total.toFixed(2), line.subtotal.plus(line.useTaxAmount).plus(line.shipping).minus(line.discount).toFixed(2));
    });
    assert.equal(priced.subtotal.toFixed(2), money(subtotal));
    assert.equal(priced.useTaxAmount.toFixed(2), money(tax));
    assert.equal(priced.shipping.toFixed(2), '12.34');
    assert.equal(priced.discount.toFixed(2), '5.67');
    assert.equal(priced.total.toFixed(2), money(subtotal + tax + 1234n - 567n));
  });

  it('refuses a discount above the subtotal, shipping with no line, and use tax with no code', () => {
    refused(
      () => priceInvoice([{ amount: d('1.00'), quantity: 1, useTax: false }], null, d('0'), d('1.01')),
      /discount 1\.01 is more than/,
    );
    refused(() => priceInvoice([], null, d('5.00'), d('0')), /at least one line item/);
    refused(() => priceInvoice([{ amount: d('1.00'), quantity: 1, useTax: true }], null, d('0'), d('0')), /lineItems\.0\.useTax/);
  });
});
