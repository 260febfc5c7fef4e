// ORDERS for library suppliers (EDItEUR library subset of D96A ORDERS, association code EAN008):
// one interchange, one message per order, per line LIN/PIA, IMD+L descriptions, QTY+21, a GIR per
// copy (branch, fund, stock category …), PRI+AAE, RFF+LI and FTX+LIN notes. The caller gives the
// control references (it keeps them unique, e.g. from a database sequence) and the time.
import { fail } from '../shared/errors.ts';
import { decimalText, writeDecimal } from './numbers.ts';
import { DEFAULT_DELIMITERS } from './syntax.ts';

/** An identifier and its scheme: 14 GLN/EAN, 31B SAN, 91 assigned by the supplier, 92 assigned by the buyer. */
export interface OrderPartyId {
  id: string;
  qualifier: '14' | '31B' | '91' | '92';
}

/** One copy's GIR data, by what EDItEUR's library subset calls it. */
export interface OrderCopy {
  /** LLO: the branch (location) the copy goes to. */
  branch?: string;
  /** LFN: the fund code the copy is charged to. */
  fund?: string;
  /** LST: stock category (item type). */
  stockCategory?: string;
  /** LSQ: sequence code (collection, shelving location). */
  sequence?: string;
  /** LSM: shelfmark (call number). */
  shelfmark?: string;
  /** LLN: loan category. */
  loanCategory?: string;
  /** LVT: servicing instruction, as text. */
  servicing?: string;
  /** Any other GIR qualifier (three capital letters) and value. */
  other?: Record<string, string>;
}

export interface OrderLine {
  /** RFF+LI: the library's order line reference the supplier quotes back (ORDRSP, INVOIC). */
  reference: string;
  /** ISBN-13/EAN-13 (13 digits) or ISBN-10 (ten characters, X allowed); without hyphens. */
  isbn?: string;
  title?: string;
  author?: string;
  publisher?: string;
  /** Year of publication. */
  year?: string;
  edition?: string;
  /** QTY+21: copies ordered, a positive whole number. */
  quantity: number;
  /** One per copy when given: as many as the quantity. */
  copies?: OrderCopy[];
  /** PRI+AAE: the expected unit price, decimal text ("12.99"). */
  price?: string;
  /** FTX+LIN: notes to the supplier, each at most 350 characters. */
  notes?: string[];
}

export interface Order {
  /** UNH message reference: unique within the interchange. */
  messageReference: string;
  /** BGM document number: the library's order number. */
  orderNumber: string;
  /** DTM+137 order date, CCYYMMDD. */
  date: string;
  /** NAD+BY: the library. */
  buyer: OrderPartyId;
  /** NAD+SU: the supplier. */
  supplier: OrderPartyId;
  /** RFF+API after NAD+BY: the library's account number with the supplier. */
  account?: string;
  /** CUX+2: ISO 4217 currency of the prices. */
  currency?: string;
  lines: OrderLine[];
}

export interface OrderBatch {
  /** UNB interchange control reference (at most 14 characters), quoted again in UNZ. */
  controlReference: string;
  /** UNB sender (the library) and recipient (the supplier). */
  sender: OrderPartyId;
  recipient: OrderPartyId;
  /** Preparation date and time, written in UTC. */
  prepared: Date;
  /** UNB test indicator: the supplier should not act on it. */
  test?: boolean;
  /** UNOC (ISO 8859-1, the default and the usual) or UNOY (UTF-8). */
  syntax?: 'UNOC' | 'UNOY';
  /** A line break after each segment, for suppliers (and people) who want one; none by default. */
  lineBreaks?: boolean;
  orders: Order[];
}

/** Service characters of what Carrel writes: the defaults, announced in a UNA. */
const D = DEFAULT_DELIMITERS;
const SPECIAL = new Set([D.component, D.element, D.release, D.segment]);

/** Text with each service character released. */
export function escapeText(text: string): string {
  let out = '';
  for (const c of text) out += SPECIAL.has(c) ? D.release + c : c;
  return out;
}

const ISBN13 = /^\d{13}$/;
const ISBN10 = /^\d{9}[\dX]$/;
const DATE = /^\d{8}$/;
const GIR_QUALIFIER = /^[A-Z]{3}$/;

/** Text split into pieces of at most `size` characters (by code point), none empty. */
function chunks(text: string, size: number): string[] {
  const points = [...text];
  const out: string[] = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(''));
  return out;
}

class Writer {
  readonly segments: string[] = [];
  constructor(private readonly latin1: boolean) {}

  /** A field's text: refused when too long or (for UNOC) not Latin-1, or when it holds a line break. */
  text(field: string, value: string, max: number): string {
    if ([...value].length > max) throw fail.invalidInput(`${field}: "${value}" is longer than ${max} characters`);
    return this.free(field, value);
  }

  free(field: string, value: string): string {
    for (const c of value) {
      if (c === '\r' || c === '\n') throw fail.invalidInput(`${field}: line breaks cannot be sent in EDIFACT`);
      if (this.latin1 && c.codePointAt(0)! > 0xff)
        throw fail.invalidInput(`${field}: "${c}" is not in ISO 8859-1 (UNOC): send the batch as UNOY`);
    }
    return escapeText(value);
  }

  /** Appends a segment of already-escaped elements, dropping trailing empty ones. */
  add(...elements: string[]): void {
    let end = elements.length;
    while (end > 1 && elements[end - 1] === '') end--;
    this.segments.push(elements.slice(0, end).join(D.element) + D.segment);
  }
}

function partyId(field: string, party: OrderPartyId, w: Writer): string {
  if (!['14', '31B', '91', '92'].includes(party.qualifier))
    throw fail.invalidInput(`${field}.qualifier: "${party.qualifier}" is not 14, 31B, 91 or 92`);
  if (party.id === '') throw fail.invalidInput(`${field}.id: empty`);
  return w.text(`${field}.id`, party.id, 35);
}

/** NAD's code list agency: 9 for a GLN/EAN (UNB's 14), the UNB qualifier otherwise. */
const nadAgency = (qualifier: string) => (qualifier === '14' ? '9' : qualifier);

const two = (n: number) => String(n).padStart(2, '0');

function writeLine(field: string, line: OrderLine, number: number, currency: boolean, w: Writer): void {
  if (!Number.isSafeInteger(line.quantity) || line.quantity < 1)
    throw fail.invalidInput(`${field}.quantity: ${line.quantity} is not a positive whole number`);
  const isbn = line.isbn?.replaceAll('-', '');
  if (isbn !== undefined && !ISBN13.test(isbn) && !ISBN10.test(isbn))
    throw fail.invalidInput(`${field}.isbn: "${line.isbn}" is neither 13 digits nor an ISBN-10`);
  const lin = ['LIN', String(number)];
  if (isbn && ISBN13.test(isbn)) lin.push('', `${isbn}${D.component}EN`);
  w.add(...lin);
  if (isbn && ISBN10.test(isbn)) w.add('PIA', '5', `${isbn}${D.component}IB`);
  const descriptions: [string, string | undefined][] = [
    ['009', line.author],
    ['050', line.title],
    ['100', line.edition],
    ['109', line.publisher],
    ['170', line.year],
  ];
  for (const [code, value] of descriptions) {
    if (!value) continue;
    // IMD+L carries two pieces of 35 characters; a longer text goes on in another IMD with the same code.
    const pieces = chunks(value, 35);
    for (let p = 0; p < pieces.length; p += 2) {
      const text = pieces.slice(p, p + 2).map((piece) => w.free(`${field}.description`, piece));
      w.add('IMD', 'L', code, ['', '', '', ...text].join(D.component));
    }
  }
  w.add('QTY', `21${D.component}${line.quantity}`);
  const copies = line.copies ?? [];
  if (copies.length > 0 && copies.length !== line.quantity)
    throw fail.invalidInput(`${field}.copies: ${copies.length} copies given for a quantity of ${line.quantity}`);
  copies.forEach((copy, c) => writeCopy(`${field}.copies[${c}]`, copy, c + 1, w));
  for (const [n, note] of (line.notes ?? []).entries()) {
    // FTX carries five pieces of 70 characters: one note, one FTX.
    if ([...note].length > 350) throw fail.invalidInput(`${field}.notes[${n}]: longer than 350 characters`);
    if (note === '') continue;
    const pieces = chunks(note, 70).map((piece) => w.free(`${field}.notes[${n}]`, piece));
    w.add('FTX', 'LIN', '', '', pieces.join(D.component));
  }
  if (line.price !== undefined) {
    const price = decimalText(line.price);
    if (price === undefined || price.startsWith('-'))
      throw fail.invalidInput(`${field}.price: "${line.price}" is not an amount such as "12.99"`);
    if (!currency) throw fail.invalidInput(`${field}.price: a price needs the order's currency`);
    w.add('PRI', ['AAE', writeDecimal(price, D.decimal), 'CA'].join(D.component));
  }
  w.add('RFF', `LI${D.component}${w.text(`${field}.reference`, line.reference, 35)}`);
}

/** The GIR data of a copy, five to a segment (the most GIR carries), all with the copy's set number. */
function writeCopy(field: string, copy: OrderCopy, number: number, w: Writer): void {
  const named: [string, string | undefined][] = [
    ['LLO', copy.branch],
    ['LFN', copy.fund],
    ['LST', copy.stockCategory],
    ['LSQ', copy.sequence],
    ['LSM', copy.shelfmark],
    ['LLN', copy.loanCategory],
    ['LVT', copy.servicing],
  ];
  for (const [qualifier, value] of Object.entries(copy.other ?? {})) {
    if (!GIR_QUALIFIER.test(qualifier))
      throw fail.invalidInput(`${field}.other: "${qualifier}" is not a GIR qualifier (three capital letters)`);
    named.push([qualifier, value]);
  }
  const data = named.filter((pair): pair is [string, string] => pair[1] !== undefined && pair[1] !== '');
  const set = String(number).padStart(3, '0');
  for (let i = 0; i < data.length; i += 5) {
    const values = data
      .slice(i, i + 5)
      .map(([qualifier, value]) => `${w.text(`${field}.${qualifier}`, value, 35)}${D.component}${qualifier}`);
    w.add('GIR', set, ...values);
  }
}

function writeOrder(field: string, order: Order, w: Writer): number {
  const start = w.segments.length;
  const reference = w.text(`${field}.messageReference`, order.messageReference, 14);
  if (reference === '') throw fail.invalidInput(`${field}.messageReference: empty`);
  if (!DATE.test(order.date)) throw fail.invalidInput(`${field}.date: "${order.date}" is not CCYYMMDD`);
  if (order.lines.length === 0) throw fail.invalidInput(`${field}.lines: an order needs at least one line`);
  w.add('UNH', reference, ['ORDERS', 'D', '96A', 'UN', 'EAN008'].join(D.component));
  w.add('BGM', '220', w.text(`${field}.orderNumber`, order.orderNumber, 35), '9');
  w.add('DTM', ['137', order.date, '102'].join(D.component));
  w.add('NAD', 'BY', [partyId(`${field}.buyer`, order.buyer, w), '', nadAgency(order.buyer.qualifier)].join(D.component));
  if (order.account) w.add('RFF', `API${D.component}${w.text(`${field}.account`, order.account, 35)}`);
  w.add('NAD', 'SU', [partyId(`${field}.supplier`, order.supplier, w), '', nadAgency(order.supplier.qualifier)].join(D.component));
  if (order.currency !== undefined) {
    if (!/^[A-Z]{3}$/.test(order.currency)) throw fail.invalidInput(`${field}.currency: "${order.currency}" is not an ISO 4217 code`);
    w.add('CUX', ['2', order.currency, '9'].join(D.component));
  }
  order.lines.forEach((line, i) => writeLine(`${field}.lines[${i}]`, line, i + 1, order.currency !== undefined, w));
  w.add('UNS', 'S');
  w.add('CNT', `2${D.component}${order.lines.length}`);
  w.add('UNT', String(w.segments.length - start + 1), reference);
  return w.segments.length - start;
}

/**
 * Writes an ORDERS interchange: UNA, UNB, one message per order, UNZ. Returns the text and its
 * bytes in the batch's character set. Throws a 126 invalid-input DomainError naming the field
 * (`orders[0].lines[2].isbn: …`) when the batch cannot be written as given.
 */
export function writeOrders(batch: OrderBatch): { text: string; bytes: Buffer } {
  const syntax = batch.syntax ?? 'UNOC';
  const w = new Writer(syntax === 'UNOC');
  if (batch.orders.length === 0) throw fail.invalidInput('orders: an interchange needs at least one order');
  const control = w.text('controlReference', batch.controlReference, 14);
  if (control === '') throw fail.invalidInput('controlReference: empty');
  const p = batch.prepared;
  if (Number.isNaN(p.getTime())) throw fail.invalidInput('prepared: not a date');
  const date = `${two(p.getUTCFullYear() % 100)}${two(p.getUTCMonth() + 1)}${two(p.getUTCDate())}`;
  const time = `${two(p.getUTCHours())}${two(p.getUTCMinutes())}`;
  const party = (field: string, id: OrderPartyId) => [partyId(field, id, w), id.qualifier].join(D.component);
  const unb = [
    'UNB',
    `${syntax}${D.component}3`,
    party('sender', batch.sender),
    party('recipient', batch.recipient),
    `${date}${D.component}${time}`,
    control,
    '',
    'ORDERS',
  ];
  if (batch.test) unb.push('', '', '', '1');
  w.add(...unb);
  const references = new Set<string>();
  batch.orders.forEach((order, i) => {
    if (references.has(order.messageReference))
      throw fail.invalidInput(`orders[${i}].messageReference: "${order.messageReference}" is used twice in the interchange`);
    references.add(order.messageReference);
    writeOrder(`orders[${i}]`, order, w);
  });
  w.add('UNZ', String(batch.orders.length), control);
  const una = `UNA${D.component}${D.element}${D.decimal}${D.release}${D.repetition}${D.segment}`;
  const text = una + w.segments.join(batch.lineBreaks ? '\n' : '') + (batch.lineBreaks ? '\n' : '');
  return { text, bytes: Buffer.from(text, syntax === 'UNOC' ? 'latin1' : 'utf8') };
}
