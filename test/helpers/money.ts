// An independent reference for the money rules, in whole cents with BigInt (no decimal library):
// what the tests compare Carrel's figures against.

/** "12.30" → 1230n. */
export function cents(text: string): bigint {
  const [whole, frac = ''] = text.split('.');
  return BigInt(whole!) * 100n + BigInt((frac + '00').slice(0, 2));
}

/** 1230n → "12.30". */
export function money(c: bigint): string {
  const sign = c < 0n ? '-' : '';
  const abs = c < 0n ? -c : c;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/** Use tax in cents on a subtotal in cents at a rate given as decimal text, halves away from zero. */
export function taxCents(subtotal: bigint, rate: string): bigint {
  const [whole, frac = ''] = rate.split('.');
  const scale = 10n ** BigInt(frac.length);
  const numerator = subtotal * (BigInt(whole!) * scale + BigInt(frac || '0'));
  const denominator = 100n * scale;
  const q = numerator / denominator;
  return (numerator % denominator) * 2n >= denominator ? q + 1n : q;
}
