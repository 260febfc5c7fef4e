// A patron's dump: REC INFO, the fixed-length fields in number order with their short labels
// (the table REST's fixedFields use, src/shared/fixed-fields.ts), a HOLD line per hold, then the
// variable-length fields. Dates are Sierra's mm-dd-yy, money $0.00. Never the PIN.
import type { HoldRow } from '../holds/service.ts';
import { HOLD_STATE } from '../holds/states.ts';
import type { PatronRow } from '../patrons/service.ts';
import { daysBetween, dayIn } from '../shared/calendar.ts';
import { FIXED_FIELDS } from '../shared/fixed-fields.ts';
import type { Line } from './body.ts';

const NO_DATE = '  -  -  ';

/** 2026-11-25 as 11-25-26; with the century (a birth date), 11-25-2026. */
function mmddyy(day: string | null | undefined, century = false): string {
  if (!day) return NO_DATE;
  const [y, m, d] = day.split('-');
  return `${m}-${d}-${century ? y : y!.slice(2)}`;
}

type PatronNumber = keyof (typeof FIXED_FIELDS)['patron'];

/** The variable-length fields, by tag, with Sierra's default labels, in the order the dump gives them. */
const VARIABLE: { tag: string; label: string; values: (row: PatronRow) => string[] }[] = [
  { tag: 'n', label: 'PATRN NAME', values: (r) => r.names },
  { tag: 'a', label: 'ADDRESS', values: (r) => r.addresses.filter((a) => a.type !== 'h').map((a) => a.lines.join('$')) },
  { tag: 'h', label: 'ADDRESS2', values: (r) => r.addresses.filter((a) => a.type === 'h').map((a) => a.lines.join('$')) },
  { tag: 't', label: 'TELEPHONE', values: (r) => r.phones.filter((p) => p.type !== 'p').map((p) => p.number) },
  { tag: 'p', label: 'TELEPHONE2', values: (r) => r.phones.filter((p) => p.type === 'p').map((p) => p.number) },
  { tag: 'b', label: 'P BARCODE', values: (r) => r.barcodes },
  { tag: 'u', label: 'UNIQUE ID', values: (r) => r.unique_ids },
  { tag: 'x', label: 'NOTE', values: (r) => r.notes },
  { tag: 'z', label: 'EMAIL ADDR', values: (r) => r.emails },
  { tag: 'm', label: 'MESSAGE', values: (r) => (r.message ? [r.message] : []) },
];

/** A hold as Sierra's HOLD[p8] line: P#, I# (the bib or item), placed, not wanted before, not needed after, status, type, pickup. */
function holdLine(patronId: string, hold: HoldRow): string {
  // ST is the status letter's character code (b 98, i 105, t 116), 0 while on hold.
  const status = hold.state === HOLD_STATE.ready ? (hold.record_type === 'i' ? 'i' : 'b') : hold.state === HOLD_STATE.inTransit ? 't' : '0';
  const st = status === '0' ? 0 : status.charCodeAt(0);
  const record = hold.record_type === 'i' ? hold.item_id : hold.bib_id;
  const wait = Math.max(0, daysBetween(hold.placed, hold.not_wanted_before));
  return [
    `P#=${patronId}`,
    `I#=${record}`,
    `P=${mmddyy(hold.placed)}`,
    `NNB=${mmddyy(hold.not_wanted_before)} (${wait} days)`,
    'RLA=0',
    `NNA=${mmddyy(hold.not_needed_after)}`,
    `ST=${st}`,
    `TP=${hold.record_type}`,
    `PU=${hold.pickup_location.padEnd(5)}`,
  ].join(', ');
}

export function dumpLines(row: PatronRow, holds: readonly HoldRow[], timeZone: string): Line[] {
  const day = (instant: Date | null | undefined) => (instant ? mmddyy(dayIn(instant, timeZone)) : NO_DATE);
  const fixed: Partial<Record<PatronNumber, string>> = {
    43: mmddyy(row.expiration_date),
    44: '-',
    45: '-',
    46: '0',
    47: String(row.patron_type),
    48: String(row.checkouts_total ?? 0),
    50: String(row.current_checkouts ?? 0),
    ...(row.birth_date ? { 51: mmddyy(row.birth_date, true) } : {}),
    53: (row.home_library_code ?? 'none').padEnd(5),
    54: '-',
    56: row.block_code || '-',
    80: 'p',
    81: row.id,
    83: day(row.created_date),
    84: day(row.updated_date),
    86: '1',
    96: `$${Number(row.money_owed).toFixed(2)}`,
    126: '0',
    163: day(row.last_circ_activity),
    268: row.emails.length ? 'z' : '-',
  };
  const table = FIXED_FIELDS.patron as Record<number, { short: string }>;
  // The library's own fields, with the short labels its profile gives them, over the defaults above.
  const lines = new Map<number, { label: string; value: string }>(
    Object.entries(fixed).map(([n, value]) => [Number(n), { label: table[Number(n)]!.short, value }]),
  );
  for (const v of row.fixed_values) lines.set(v.number, { label: v.short, value: v.value });
  const numbers = [...lines.keys()].sort((a, b) => a - b);
  return [
    { label: 'REC INFO', code: '!', value: 'p' },
    ...numbers.map((n) => ({ code: n, ...lines.get(n)! })),
    ...holds.map((hold) => ({ label: 'HOLD', code: 8, value: holdLine(row.id, hold) })),
    ...VARIABLE.flatMap((v) => v.values(row).map((value) => ({ label: v.label, code: v.tag, value }))),
  ];
}
