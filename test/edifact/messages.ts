// Test interchanges written for these tests, following EDItEUR's library subset of D96A: a message
// is its segments without terminators; the helpers add UNH/UNT (counting right) and UNB/UNZ.

export const UNA = "UNA:+.? '";

/** UNH … UNT around `body`; `count` overrides the UNT segment count (to test the check). */
export function message(reference: string, type: string, body: string[], count?: number): string[] {
  return [`UNH+${reference}+${type}:D:96A:UN:EAN008`, ...body, `UNT+${count ?? body.length + 2}+${reference}`];
}

export function interchange(
  messages: string[][],
  options: { una?: boolean; unzCount?: number; control?: string; app?: string } = {},
): string {
  const control = options.control ?? 'CTL000042';
  const segments = [
    `UNB+UNOC:3+5099999000017:14+1234567:31B+261125:0930+${control}++${options.app ?? 'INVOIC'}`,
    ...messages.flat(),
    `UNZ+${options.unzCount ?? messages.length}+${control}`,
  ];
  return (options.una === false ? '' : UNA) + segments.map((s) => `${s}'`).join('');
}

/**
 * An invoice of two lines: a freight charge at message level, a 20 % discount on line 1, VAT at
 * 20 % on line 1 and zero on line 2. Lines 20.00 + 7.50 = 27.50; + 4.50 freight + 4.00 VAT = 36.00.
 */
export function invoiceBody(summary: string[] = SUMMARY): string[] {
  return [
    'BGM+380+INV-2001+9',
    'DTM+137:20261125:102',
    'NAD+SU+5099999000017::9',
    'RFF+VA:GB123456789',
    'NAD+BY+1234567::31B',
    'RFF+API:ACCT-77',
    'CUX+2:GBP:4',
    'ALC+C++++FC',
    'MOA+23:4.50',
    'LIN+1++9781234567897:EN',
    "IMD+L+050+:::A book of ?+plus?+ things?: a?' study",
    'QTY+47:2',
    'MOA+203:20.00',
    'MOA+52:5.00',
    'PRI+AAA:10.00',
    'PRI+AAB:12.50',
    'RFF+LI:ORD-1/1',
    'RFF+ON:ORD-1',
    'TAX+7+VAT+++:::20+S',
    'MOA+124:4.00',
    'ALC+A++++DI',
    'PCD+3:20',
    'MOA+8:5.00',
    'LIN+2',
    'PIA+5+030640615X:IB',
    'QTY+47:1',
    'MOA+203:7,50',
    'PRI+AAA:7.50',
    'RFF+LI:ORD-1/2',
    'TAX+7+VAT+++:::0+Z',
    'MOA+124:0',
    ...summary,
  ];
}

export const SUMMARY = [
  'UNS+S',
  'CNT+2:2',
  'MOA+79:27.50',
  'MOA+86:36.00',
  'MOA+9:36.00',
  'TAX+7+VAT+++:::20+S',
  'MOA+125:20.00',
  'MOA+124:4.00',
];

/** An order response with one line for each status the reader tells apart. */
export function orderResponseBody(): string[] {
  return [
    'BGM+231+RSP-88+4+AC',
    'DTM+137:20261126:102',
    'RFF+ON:ORD-1',
    'NAD+BY+1234567::31B',
    'NAD+SU+5099999000017::9',
    'CUX+2:GBP:9',
    'LIN+1+5+9781234567897:EN',
    'QTY+21:1',
    'PRI+AAE:12.50:CA',
    'RFF+LI:ORD-1/1',
    'LIN+2+24',
    'PIA+5+030640615X:IB',
    'QTY+21:3',
    'QTY+12:1',
    'QTY+83:2',
    'DTM+44:20270115:102',
    'FTX+LIN++RP:8B:28',
    'RFF+LI:ORD-1/2',
    'RFF+SLI:SUP-9',
    'LIN+3+2+9780000000002:EN',
    'QTY+21:1',
    'FTX+LIN++OP:8B:28',
    'RFF+LI:ORD-1/3',
    'LIN+4',
    'PIA+3+9782222222226:EN',
    'PIA+5+9781111111113:EN',
    'QTY+21:1',
    'FTX+LIN++110:12B:28+Paperback sent:instead of hardback',
    'RFF+LI:ORD-1/4',
    'LIN+5+10',
    'RFF+LI:ORD-1/5',
    'LIN+6',
    'FTX+LIN++101:12B:28',
    'RFF+LI:ORD-1/6',
    'LIN+7',
    'QTY+21:2',
    'FTX+LIN++401:12B:28',
    'RFF+LI:ORD-1/7',
    'UNS+S',
    'CNT+2:7',
  ];
}
