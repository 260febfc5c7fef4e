// ORDRSP as library suppliers send it (EDItEUR library subset of D96A ORDRSP): for each line of an
// order, what the supplier will do, read from the LIN action code, the coded FTX+LIN (EDItEUR code
// lists 12B order line status and 8B availability) and the back-ordered quantity.
import {
  byQualifier,
  readBody,
  type DateValue,
  type FreeText,
  type ItemId,
  type LineItem,
  type Party,
  type Price,
  type Reference,
  wrongType,
} from './body.ts';
import type { Message } from './interchange.ts';
import { headerOf, isbnOf } from './invoice.ts';
import type { EdifactProblem, SegmentAt } from './problems.ts';

/**
 * What the supplier says of a line, coarsely:
 * - accepted: will supply as ordered;
 * - changed: accepted with a change (price, quantity, substitute);
 * - back-ordered: not yet, still on order (QTY+83, 12B 4xx, 8B not yet published / reprinting …);
 * - cancelled: will not supply (LIN 2, 12B 2xx, 8B out of print …);
 * - not-found: the supplier cannot trace the line (LIN 10, 12B 900);
 * - unknown: nothing coded that says (held, query, no code): staff should look.
 */
export type LineStatus = 'accepted' | 'changed' | 'back-ordered' | 'cancelled' | 'not-found' | 'unknown';

export interface OrderResponseLine {
  lineNumber: string;
  status: LineStatus;
  /** LIN action code as sent: 5 accepted, 24 accepted with change, 3 change, 2 cancelled, 10 not found, 4 no action. */
  action?: string;
  /** The coded FTX+LIN that said most about the status, when one did. */
  statusNote?: FreeText;
  isbn?: string;
  /** PIA+3 ("substituted by"): the item the supplier will send instead. */
  substitute?: ItemId;
  /** RFF+LI: the library's order line reference this answers. */
  orderLineReference?: string;
  /** RFF+SLI: the supplier's own line reference. */
  supplierLineReference?: string;
  /** QTY+21, QTY+83, QTY+12: decimal text. */
  ordered?: string;
  backOrdered?: string;
  dispatched?: string;
  /** PRI+AAE (the price the supplier will charge, for information), else the first price. */
  price?: Price;
  /** DTM+44: when the supplier expects to have the item. */
  availabilityDate?: DateValue;
  notes: FreeText[];
  references: Reference[];
  item: LineItem;
}

export interface OrderResponse {
  messageReference: string;
  messageIndex: number;
  /** BGM document number: the supplier's response number. */
  responseNumber: string;
  /** BGM document name: 231 order response (23C, 22V as some suppliers send). */
  documentName: string;
  /** BGM message function: 4 change, 27 not accepted, 29 accepted without amendment, 9 original … */
  function: string;
  /** BGM response type, when sent: AC, AP, CA, RE … */
  responseType?: string;
  documentDate?: DateValue;
  currency?: string;
  supplier?: Party;
  buyer?: Party;
  parties: Party[];
  references: Reference[];
  /** RFF+ON: the library's order number, when sent in the header. */
  orderNumber?: string;
  lines: OrderResponseLine[];
  at: SegmentAt;
}

/** EDItEUR list 8B (availability) codes that mean the supplier will not supply. */
const UNAVAILABLE = new Set(['AB', 'AD', 'AU', 'FQ', 'NK', 'NN', 'NQ', 'NS', 'OF', 'OP', 'PN', 'RR', 'SD', 'SN', 'SO', 'UB', 'HK', 'PK']);
/** 8B codes that mean later: the line stays on order. */
const LATER = new Set(['NP', 'OB', 'OR', 'RE', 'RP', 'ST', 'TO', 'TU', 'UC', 'MD', 'CS']);

function fromLineStatusCode(code: string): LineStatus | undefined {
  if (code === '110') return 'changed';
  if (code === '900') return 'not-found';
  if (code === '800') return 'accepted';
  switch (code[0]) {
    case '1':
      return code === '100' ? 'accepted' : 'unknown';
    case '2':
      return 'cancelled';
    case '3':
    case '4':
      return 'back-ordered';
    default:
      return 'unknown';
  }
}

function fromAvailabilityCode(code: string): LineStatus | undefined {
  if (UNAVAILABLE.has(code)) return 'cancelled';
  if (LATER.has(code)) return 'back-ordered';
  if (code === 'IB' || code === 'IP') return 'accepted';
  return undefined;
}

function fromAction(action: string | undefined): LineStatus | undefined {
  switch (action) {
    case '2':
      return 'cancelled';
    case '10':
      return 'not-found';
    case '3':
    case '24':
      return 'changed';
    case '5':
      return 'accepted';
    default:
      return undefined;
  }
}

/** The strongest word wins: a cancellation outranks a back-order, which outranks a change or an acceptance. */
const RANK: Record<LineStatus, number> = { cancelled: 5, 'not-found': 4, 'back-ordered': 3, changed: 2, accepted: 1, unknown: 0 };

function lineStatus(item: LineItem): { status: LineStatus; note?: FreeText } {
  let status: LineStatus = fromAction(item.action) ?? 'unknown';
  let note: FreeText | undefined;
  for (const text of item.notes) {
    if (text.subject !== 'LIN' || !text.code) continue;
    const said = text.list === '12B' ? fromLineStatusCode(text.code) : fromAvailabilityCode(text.code);
    if (said !== undefined && RANK[said] >= RANK[status]) {
      status = said;
      note = text;
    }
  }
  const backOrdered = byQualifier(item.quantities, '83');
  if (backOrdered && Number(backOrdered.value) > 0 && RANK['back-ordered'] > RANK[status]) status = 'back-ordered';
  return note ? { status, note } : { status };
}

function responseLine(item: LineItem): OrderResponseLine {
  const { status, note } = lineStatus(item);
  const line: OrderResponseLine = { lineNumber: item.lineNumber, status, notes: item.notes, references: item.references, item };
  const set = <K extends keyof OrderResponseLine>(key: K, value: OrderResponseLine[K] | undefined) => {
    if (value !== undefined) line[key] = value;
  };
  set('action', item.action);
  set('statusNote', note);
  set('isbn', isbnOf(item));
  set(
    'substitute',
    item.additionalIds.find((id) => id.function === '3'),
  );
  set('orderLineReference', byQualifier(item.references, 'LI')?.value);
  set('supplierLineReference', byQualifier(item.references, 'SLI')?.value);
  set('ordered', byQualifier(item.quantities, '21')?.value);
  set('backOrdered', byQualifier(item.quantities, '83')?.value);
  set('dispatched', byQualifier(item.quantities, '12')?.value);
  set('price', byQualifier(item.prices, 'AAE') ?? item.prices[0]);
  set('availabilityDate', byQualifier(item.dates, '44'));
  return line;
}

/** Reads one ORDRSP message; a message of another type, with no BGM, or with a number that is not a number is refused. */
export function readOrderResponse(message: Message): { response: OrderResponse } | { problems: EdifactProblem[] } {
  const wrong = wrongType(message, 'ORDRSP');
  if (wrong) return { problems: wrong };
  const { body, problems } = readBody(message);
  if (problems.length > 0) return { problems };
  const response: OrderResponse = {
    ...headerOf(message, body),
    responseNumber: body.document!.number,
    lines: body.lines.map(responseLine),
  };
  if (body.document!.responseType) response.responseType = body.document!.responseType;
  const orderNumber = byQualifier(body.references, 'ON')?.value;
  if (orderNumber !== undefined) response.orderNumber = orderNumber;
  return { response };
}
