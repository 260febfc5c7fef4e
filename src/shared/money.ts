// Exact decimal money for acquisitions. Amounts are decimal.js values, never JavaScript numbers;
// they come in as decimal text (or a JSON number's shortest text), go to the database as text into
// NUMERIC columns and come back as text. The rounding rule (README, "Acquisitions and use tax"):
// a line's use tax is amount × quantity × rate / 100 rounded to the cent, halves away from zero
// (what PostgreSQL's round(numeric, 2) does, so the database checks the same arithmetic).
import { Decimal as DecimalJs } from 'decimal.js';
import { fail } from './errors.ts';

/** Wide enough that every product and sum Carrel forms is exact; halves round away from zero. */
export const Decimal = DecimalJs.clone({ precision: 60, rounding: DecimalJs.ROUND_HALF_UP, toExpNeg: -60, toExpPos: 60 });
export type Decimal = DecimalJs;

export const ZERO = new Decimal(0);

/** The largest unit price, shipping or discount an invoice may carry. */
export const MAX_AMOUNT = '999999999.99';
/** The largest appropriation or opening balance of a fund. */
export const MAX_BALANCE = '9999999999999.99';
/** The largest encumbrance or expenditure a fund can hold (numeric(18, 2)). */
export const MAX_FUND_TOTAL = '9999999999999999.99';

const MONEY = /^\d{1,13}(\.\d{1,2})?$/;
const RATE = /^\d{1,3}(\.\d{1,6})?$/;

/** A money amount: digits with at most two decimals, not negative, at most `max`. 126 naming `field` otherwise. */
export function parseMoney(field: string, raw: string, max = MAX_AMOUNT): Decimal {
  const text = raw.trim();
  if (!MONEY.test(text)) {
    const why = /^-/.test(text)
      ? 'must not be negative'
      : /^\d+\.\d{3,}$/.test(text)
        ? 'has more than two decimal places'
        : 'is not an amount such as "12.30"';
    throw fail.invalidInput(`${field}: "${raw}" ${why}`);
  }
  const value = new Decimal(text);
  if (value.greaterThan(max)) throw fail.invalidInput(`${field}: ${text} is more than ${max}`);
  return value;
}

/**
 * A use tax rate in percent, 0 to 100 with at most six decimals. Answers the text to store: the
 * database keeps its digits (`7.750` stays `7.750`), without leading zeros.
 */
export function parseRate(field: string, raw: string): string {
  const text = raw.trim();
  if (!RATE.test(text)) throw fail.invalidInput(`${field}: "${raw}" is not a rate in percent such as "7.75" (at most six decimals)`);
  if (new Decimal(text).greaterThan(100)) throw fail.invalidInput(`${field}: ${text} is more than 100 percent`);
  return text.replace(/^0+(?=\d)/, '');
}

/** Use tax on a line's subtotal at `rate` percent, to the cent, halves away from zero. */
export function useTaxOn(subtotal: Decimal, rate: Decimal): Decimal {
  return subtotal.times(rate).dividedBy(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** Money as the API prints it: a decimal string with two places ("12.30"). */
export function formatMoney(value: Decimal | string): string {
  return new Decimal(value).toFixed(2);
}

const toCents = (value: Decimal) => BigInt(value.times(100).toFixed(0));
const fromCents = (cents: bigint) => new Decimal(cents.toString()).dividedBy(100);

/**
 * Splits `total` (whole cents) across lines in proportion to `weights`, exactly: each share is
 * rounded down to the cent, then the cents left over go one each to the lines with the largest
 * remainders (the earlier line first on a tie). Equal weights when all weights are zero. The shares
 * always add up to `total`.
 */
export function allocate(total: Decimal, weights: readonly Decimal[]): Decimal[] {
  if (weights.length === 0) return [];
  const t = toCents(total);
  let w = weights.map(toCents);
  let sum = w.reduce((a, b) => a + b, 0n);
  if (sum === 0n) {
    w = w.map(() => 1n);
    sum = BigInt(w.length);
  }
  const shares = w.map((wi) => (t * wi) / sum);
  const remainders = w.map((wi, i) => ({ i, r: (t * wi) % sum }));
  let left = t - shares.reduce((a, b) => a + b, 0n);
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of remainders) {
    if (left === 0n) break;
    shares[i]! += 1n;
    left -= 1n;
  }
  return shares.map(fromCents);
}

/** Adds up decimals exactly. */
export function sum(values: readonly Decimal[]): Decimal {
  return values.reduce((a, b) => a.plus(b), ZERO);
}
