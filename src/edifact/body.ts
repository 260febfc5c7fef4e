// The body of a book-trade message (INVOIC, ORDRSP, and ORDERS when read back): one walk over its
// segments into header, line items and summary, each value keeping where it was read. The groups
// of D96A are followed only as far as these messages need: a MOA or PCD right after a TAX or ALC
// belongs to that tax or allowance, any other segment ends the group.
import { component, messageSegmentAt, type Message } from './interchange.ts';
import { decimalText } from './numbers.ts';
import { describeAt, problemAt, type EdifactProblem, type SegmentAt } from './problems.ts';
import type { Segment } from './syntax.ts';

/** A coded value with its qualifier, e.g. RFF+LI:ORD-1 → { qualifier: 'LI', value: 'ORD-1' }. */
export interface Reference {
  qualifier: string;
  value: string;
  at: SegmentAt;
}

/** MOA: qualifier (203 line amount, 79 total line items, 86 message total, 9 amount due …) and exact decimal text. */
export interface Amount {
  qualifier: string;
  /** Decimal text with "." as its mark, as exact as sent ("35.260"). */
  value: string;
  currency?: string;
  at: SegmentAt;
}

/** QTY: qualifier (21 ordered, 47 invoiced, 83 back-ordered, 12 dispatched …) and decimal text. */
export interface Quantity {
  qualifier: string;
  value: string;
  at: SegmentAt;
}

/** PRI: AAA net unit price, AAB gross unit price, AAE information price (the order's price) … */
export interface Price {
  qualifier: string;
  value: string;
  /** Price type (CA catalogue, …) and its qualifier (SRP, …), when sent. */
  type?: string;
  typeQualifier?: string;
  at: SegmentAt;
}

/** DTM: qualifier (137 document date, 131 tax point, 44 availability …), value, format (102 CCYYMMDD). */
export interface DateValue {
  qualifier: string;
  value: string;
  format: string;
  at: SegmentAt;
}

/** TAX with the MOA that follow it (124 tax amount, 125 taxable amount). */
export interface Tax {
  /** 7 = tax. */
  function: string;
  /** VAT, GST … */
  type: string;
  /** The rate in percent, decimal text, when sent. */
  rate?: string;
  /** S standard, Z zero-rated, E exempt … */
  category?: string;
  amounts: Amount[];
  at: SegmentAt;
}

/** ALC with the PCD and MOA that follow it (8 amount, 204 allowance, 23 charge). */
export interface AllowanceCharge {
  kind: 'allowance' | 'charge';
  /** The special service code, e.g. DI discount, when sent. */
  service?: string;
  /** PCD percentage, decimal text. */
  percent?: string;
  amounts: Amount[];
  at: SegmentAt;
}

/** NAD: party qualifier (BY buyer, SU supplier, DP delivery …), its identifier and the agency (9 GLN/EAN, 31B SAN, 91/92). */
export interface Party {
  qualifier: string;
  id: string;
  agency: string;
  name?: string;
  /** RFF right after the NAD: API account number, VA tax number … */
  references: Reference[];
  at: SegmentAt;
}

/** PIA / LIN item number: the id and its type (EN EAN-13/ISBN-13, IB ISBN-10, IS ISSN …). */
export interface ItemId {
  id: string;
  type: string;
  /** PIA function: 5 product identification, 1 additional, 3 substitute … (absent for the LIN's own). */
  function?: string;
  at: SegmentAt;
}

/** IMD+L: a bibliographic description (050 title, 009 author, 109/120 publisher, 170 year …); repeats of a code are joined. */
export interface Description {
  code: string;
  text: string;
  at: SegmentAt;
}

/** FTX: subject (LIN, LNO, SUB, AAB …), an optional coded value with its EDItEUR list, and text. */
export interface FreeText {
  subject: string;
  code?: string;
  list?: string;
  /** The text pieces joined with spaces, as suppliers split text at word ends. */
  text: string;
  /** The text pieces as sent (up to five of 70 characters each). */
  parts: string[];
  at: SegmentAt;
}

/** GIR: one copy's data, by qualifier (LLO branch, LFN fund, LST stock category, LSQ sequence, LSM shelfmark …). */
export interface CopyData {
  /** The GIR set number (001, 002 …): one per copy. */
  copy: string;
  fields: Record<string, string>;
  at: SegmentAt;
}

export interface LineItem {
  /** LIN line item number. */
  lineNumber: string;
  /** LIN action code (ORDRSP: 5 accepted, 24 changed, 2 cancelled, 10 not found …). */
  action?: string;
  itemId?: ItemId;
  additionalIds: ItemId[];
  descriptions: Description[];
  quantities: Quantity[];
  amounts: Amount[];
  prices: Price[];
  references: Reference[];
  dates: DateValue[];
  taxes: Tax[];
  allowances: AllowanceCharge[];
  notes: FreeText[];
  copies: CopyData[];
  at: SegmentAt;
}

export interface Body {
  /** BGM: document name code (380 invoice, 231 order response, 220 order …), number and message function. */
  document?: { name: string; number: string; function: string; responseType?: string; at: SegmentAt };
  dates: DateValue[];
  /** CUX: the reference currency (ISO 4217). */
  currency?: { code: string; at: SegmentAt };
  parties: Party[];
  references: Reference[];
  amounts: Amount[];
  taxes: Tax[];
  allowances: AllowanceCharge[];
  notes: FreeText[];
  lines: LineItem[];
  summary: { amounts: Amount[]; taxes: Tax[]; allowances: AllowanceCharge[]; counts: Quantity[]; at?: SegmentAt };
}

/** Reads a message's body; numbers that are not numbers and segments out of place are problems. */
/** The problem that refuses a message read as another type than it is; none when it is that type. */
export function wrongType(message: Message, type: string): EdifactProblem[] | undefined {
  if (message.type === type) return undefined;
  return [problemAt('content', message.at, `${describeAt(message.at)}: message ${message.reference} is ${message.type}, not ${type}`)];
}

export function readBody(message: Message): { body: Body; problems: EdifactProblem[] } {
  const problems: EdifactProblem[] = [];
  const body: Body = {
    dates: [],
    parties: [],
    references: [],
    amounts: [],
    taxes: [],
    allowances: [],
    notes: [],
    lines: [],
    summary: { amounts: [], taxes: [], allowances: [], counts: [] },
  };
  let line: LineItem | undefined;
  let party: Party | undefined;
  let group: Tax | AllowanceCharge | undefined;
  let summary = false;
  const segs = message.segments;
  // The segment being read and its place; the helpers below read them (made once, not per segment).
  let seg = segs[0]!;
  let at = message.at;
  const bad = (text: string) => problems.push(problemAt('content', at, `${describeAt(at)}: ${text}`));
  const number = (raw: string, what: string): string | undefined => {
    const value = decimalText(raw);
    if (value === undefined) bad(`${what} "${raw}" is not a number`);
    return value;
  };
  const c = (e: number, i = 0) => component(seg, e, i);
  for (let k = 1; k < segs.length - 1; k++) {
    seg = segs[k]!;
    at = messageSegmentAt(message, seg);
    if (seg.tag !== 'MOA' && seg.tag !== 'PCD') group = undefined;
    if (seg.tag !== 'RFF') party = undefined;
    const where = summary ? body.summary : (line ?? body);
    switch (seg.tag) {
      case 'BGM':
        if (body.document) bad('a second BGM');
        else if (line || summary) bad('BGM after the line items');
        else {
          body.document = { name: c(0), number: c(1), function: c(2), at };
          if (c(3)) body.document.responseType = c(3);
        }
        break;
      case 'DTM': {
        const date = { qualifier: c(0), value: c(0, 1), format: c(0, 2), at };
        (line && !summary ? line.dates : body.dates).push(date);
        break;
      }
      case 'CUX':
        if (!line && !summary && c(0, 1)) body.currency = { code: c(0, 1), at };
        break;
      case 'NAD':
        party = { qualifier: c(0), id: c(1), agency: c(1, 2), references: [], at };
        if (c(3)) party.name = seg.elements[3]!.filter(Boolean).join(' ');
        // A line's own parties (rare in library files) are not read; their RFF go with them, unread.
        if (!line && !summary) body.parties.push(party);
        break;
      case 'RFF': {
        const reference = { qualifier: c(0), value: c(0, 1), at };
        if (party) party.references.push(reference);
        else (line && !summary ? line.references : body.references).push(reference);
        break;
      }
      case 'LIN':
        if (summary) {
          bad('LIN after UNS: line items come before the summary');
          break;
        }
        line = {
          lineNumber: c(0),
          additionalIds: [],
          descriptions: [],
          quantities: [],
          amounts: [],
          prices: [],
          references: [],
          dates: [],
          taxes: [],
          allowances: [],
          notes: [],
          copies: [],
          at,
        };
        if (c(1)) line.action = c(1);
        if (c(2)) line.itemId = { id: c(2), type: c(2, 1), at };
        body.lines.push(line);
        break;
      case 'PIA':
        if (!line || summary) bad('PIA outside a line item');
        else
          for (let e = 1; e < seg.elements.length && e <= 5; e++)
            if (c(e)) line.additionalIds.push({ id: c(e), type: c(e, 1), function: c(0), at });
        break;
      case 'IMD':
        if (!line || summary) bad('IMD outside a line item');
        else line.descriptions.push({ code: c(1), text: c(2, 3) + c(2, 4), at });
        break;
      case 'QTY': {
        const value = number(c(0, 1), `QTY+${c(0)} quantity`);
        if (value === undefined) break;
        if (summary || !line) bad('QTY outside a line item');
        else line.quantities.push({ qualifier: c(0), value, at });
        break;
      }
      case 'CNT': {
        const value = number(c(0, 1), `CNT+${c(0)} control total`);
        if (value !== undefined) body.summary.counts.push({ qualifier: c(0), value, at });
        break;
      }
      case 'MOA': {
        const value = number(c(0, 1), `MOA+${c(0)} amount`);
        if (value === undefined) break;
        const amount: Amount = { qualifier: c(0), value, at };
        if (c(0, 2)) amount.currency = c(0, 2);
        (group ?? where).amounts.push(amount);
        break;
      }
      case 'PRI': {
        const value = number(c(0, 1), `PRI+${c(0)} price`);
        if (value === undefined) break;
        if (!line || summary) bad('PRI outside a line item');
        else {
          const price: Price = { qualifier: c(0), value, at };
          if (c(0, 2)) price.type = c(0, 2);
          if (c(0, 3)) price.typeQualifier = c(0, 3);
          line.prices.push(price);
        }
        break;
      }
      case 'TAX': {
        const tax: Tax = { function: c(0), type: c(1), amounts: [], at };
        if (c(4, 3)) {
          const rate = number(c(4, 3), 'TAX rate');
          if (rate === undefined) break;
          tax.rate = rate;
        }
        if (c(5)) tax.category = c(5);
        where.taxes.push(tax);
        group = tax;
        break;
      }
      case 'ALC': {
        if (c(0) !== 'A' && c(0) !== 'C') {
          bad(`ALC qualifier "${c(0)}" is neither A (allowance) nor C (charge)`);
          break;
        }
        const alc: AllowanceCharge = { kind: c(0) === 'A' ? 'allowance' : 'charge', amounts: [], at };
        if (c(4)) alc.service = c(4);
        where.allowances.push(alc);
        group = alc;
        break;
      }
      case 'PCD': {
        const value = number(c(0, 1), 'PCD percentage');
        if (value !== undefined && group && 'kind' in group) group.percent = value;
        break;
      }
      case 'FTX': {
        const parts = (seg.elements[3] ?? []).filter(Boolean);
        const note: FreeText = { subject: c(0), text: parts.join(' '), parts, at };
        if (c(2)) note.code = c(2);
        if (c(2, 1)) note.list = c(2, 1);
        (line && !summary ? line.notes : body.notes).push(note);
        break;
      }
      case 'GIR':
        if (!line || summary) bad('GIR outside a line item');
        else {
          // A copy with more than five data may go on in a second GIR with the same set number.
          const copy = readCopy(seg, at);
          const last = line.copies.at(-1);
          if (last?.copy === copy.copy) last.fields = { ...copy.fields, ...last.fields };
          else line.copies.push(copy);
        }
        break;
      case 'UNS':
        if (summary) bad('a second UNS');
        summary = true;
        body.summary.at = at;
        break;
    }
  }
  if (!body.document) problems.push(problemAt('content', message.at, `${describeAt(message.at)}: message ${message.reference} has no BGM`));
  return { body, problems };
}

/** A GIR qualifier: three capital letters or digits (which also keeps "__proto__" out of the record). */
const GIR_QUALIFIER = /^[A-Z0-9]{3}$/;

/** GIR+001+value:LLO+value:LFN…: a copy's data; a qualifier given twice keeps its first value. */
function readCopy(seg: Segment, at: SegmentAt): CopyData {
  const fields: Record<string, string> = {};
  for (let e = 1; e < seg.elements.length; e++) {
    const [value = '', qualifier = ''] = seg.elements[e]!;
    if (GIR_QUALIFIER.test(qualifier) && !Object.hasOwn(fields, qualifier)) fields[qualifier] = value;
  }
  return { copy: component(seg, 0), fields, at };
}

/** The first of `items` with this qualifier. */
export function byQualifier<T extends { qualifier: string }>(items: readonly T[], qualifier: string): T | undefined {
  return items.find((item) => item.qualifier === qualifier);
}
