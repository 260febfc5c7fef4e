// INVOIC and ORDRSP messages written by hand in the shapes of EDItEUR's library subset of D96A
// (docs/edifact.md), with the envelope counted, for the processing tests and the bench.

export interface InvoiceLineSpec {
  ref: string;
  quantity?: number;
  /** MOA+203, decimal text. */
  amount: string;
  /** The line's own TAX (rate and MOA+124), when the vendor states each line's. */
  tax?: { rate: string; amount: string };
}

export interface InvoiceSpec {
  invNum: string;
  date?: string;
  currency?: string;
  /** NAD+SU party id (with agency 91); absent: no NAD+SU. */
  supplier?: string;
  lines: InvoiceLineSpec[];
  /** Message-level ALC+C freight and ALC+A allowance. */
  charge?: string;
  allowance?: string;
  /** The summary's tax (MOA+124 in a TAX group). */
  tax?: string;
  /** MOA+86; absent: what the lines, charges, allowances and tax come to. */
  total?: string;
}

const cents = (text: string) => Math.round(Number(text) * 100);
const money = (c: number) => (c / 100).toFixed(2);

/** The segments of one INVOIC message, UNH to UNT (without the ' terminators). */
export function invoic(ref: string, spec: InvoiceSpec): string[] {
  const body = [
    `UNH+${ref}+INVOIC:D:96A:UN:EAN008`,
    `BGM+380+${spec.invNum}+9`,
    `DTM+137:${spec.date ?? '20261120'}:102`,
    ...(spec.supplier ? [`NAD+SU+${spec.supplier}::91`] : []),
    'NAD+BY+LIBRARY1::91',
    `CUX+2:${spec.currency ?? 'USD'}:4`,
    ...(spec.charge ? ['ALC+C++++FC', `MOA+23:${spec.charge}`] : []),
    ...(spec.allowance ? ['ALC+A++++DI', `MOA+204:${spec.allowance}`] : []),
  ];
  spec.lines.forEach((line, i) => {
    const qty = line.quantity ?? 1;
    body.push(
      `LIN+${i + 1}++9780000${String(i).padStart(6, '0')}:EN`,
      `IMD+L+050+:::Title ${i + 1}`,
      `QTY+47:${qty}`,
      `MOA+203:${line.amount}`,
      `PRI+AAA:${money(cents(line.amount) / qty)}`,
      `RFF+LI:${line.ref}`,
    );
    if (line.tax) body.push(`TAX+7+VAT+++:::${line.tax.rate}+${line.tax.rate === '0' ? 'Z' : 'S'}`, `MOA+124:${line.tax.amount}`);
  });
  const lines = spec.lines.reduce((n, l) => n + cents(l.amount), 0);
  const total = lines + cents(spec.charge ?? '0') - cents(spec.allowance ?? '0') + cents(spec.tax ?? '0');
  body.push('UNS+S', `CNT+2:${spec.lines.length}`, `MOA+79:${money(lines)}`);
  // A MOA right after a TAX belongs to it: the message total comes first.
  body.push(`MOA+86:${spec.total ?? money(total)}`);
  if (spec.tax) body.push('TAX+7+VAT+++:::20+S', `MOA+124:${spec.tax}`);
  return [...body, `UNT+${body.length + 1}+${ref}`];
}

export interface ResponseLineSpec {
  ref: string;
  /** LIN action code: 5 accepted, 2 cancelled, 24 changed, 10 not found. */
  action: string;
  backOrdered?: number;
}

/** The segments of one ORDRSP message. */
export function ordrsp(ref: string, spec: { number: string; supplier?: string; lines: ResponseLineSpec[] }): string[] {
  const body = [
    `UNH+${ref}+ORDRSP:D:96A:UN:EAN005`,
    `BGM+231+${spec.number}+4`,
    'DTM+137:20261121:102',
    ...(spec.supplier ? [`NAD+SU+${spec.supplier}::91`] : []),
    'NAD+BY+LIBRARY1::91',
  ];
  spec.lines.forEach((line, i) => {
    body.push(`LIN+${i + 1}+${line.action}+9780000${String(i).padStart(6, '0')}:EN`, 'QTY+21:1');
    if (line.backOrdered) body.push(`QTY+83:${line.backOrdered}`);
    body.push(`RFF+LI:${line.ref}`);
  });
  body.push('UNS+S', `CNT+2:${spec.lines.length}`);
  return [...body, `UNT+${body.length + 1}+${ref}`];
}

/** An interchange from `sender` holding the messages, one segment a line. */
export function interchange(sender: string, messages: string[][], control = '1001'): string {
  const segments = [`UNB+UNOC:3+${sender}:91+LIBRARY1:91+261120:1200+${control}`, ...messages.flat(), `UNZ+${messages.length}+${control}`];
  return `UNA:+.? '\n${segments.map((s) => `${s}'`).join('\n')}\n`;
}
