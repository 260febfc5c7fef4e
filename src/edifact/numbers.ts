// Numbers as EDIFACT writes them: digits, an optional minus sign, and a decimal mark that may be
// "." or "," whatever the UNA announces (ISO 9735 lets a receiver accept either); no exponent,
// no thousands separators. Kept as decimal text, never a JavaScript number, so money stays exact.

const NUMBER = /^-?(?:\d+(?:[.,]\d*)?|[.,]\d+)$/;

/** The number as decimal text with "." as its mark ("7,40" → "7.40", ",5" → "0.5"), or undefined when it is not one. */
export function decimalText(raw: string): string | undefined {
  // Forty characters is far past any amount or quantity; it keeps a garbage value out of decimal.js.
  if (raw.length > 40 || !NUMBER.test(raw)) return undefined;
  const text = raw.replace(',', '.');
  const negative = text.startsWith('-');
  const digits = negative ? text.slice(1) : text;
  const withLead = digits.startsWith('.') ? `0${digits}` : digits;
  const whole = withLead.endsWith('.') ? withLead.slice(0, -1) : withLead;
  return negative ? `-${whole}` : whole;
}

/** A decimal written with the sender's decimal mark. */
export function writeDecimal(text: string, mark: string): string {
  return mark === '.' ? text : text.replace('.', mark);
}
