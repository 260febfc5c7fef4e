// INVOIC as library suppliers send it (EDItEUR library subset of D96A INVOIC): the document, its
// parties and references, each line with the order line it bills (RFF+LI), and the summary totals.
import {
  byQualifier,
  readBody,
  type AllowanceCharge,
  type Amount,
  type Body,
  type DateValue,
  type LineItem,
  type Party,
  type Price,
  type Quantity,
  type Reference,
  type Tax,
  wrongType,
} from './body.ts';
import type { Message } from './interchange.ts';
import type { EdifactProblem, SegmentAt } from './problems.ts';

export interface InvoiceLine {
  lineNumber: string;
  /** The item's EAN-13/ISBN-13 (EN) or ISBN-10 (IB): the LIN's, else the first PIA's. */
  isbn?: string;
  /** QTY+47, decimal text. */
  invoicedQuantity?: string;
  /** MOA+203: the line amount after line allowances, before tax. */
  lineAmount?: Amount;
  /** MOA+52: the discount given on the line. */
  discount?: Amount;
  /** PRI+AAA net unit price. */
  netPrice?: Price;
  /** PRI+AAB gross unit price. */
  grossPrice?: Price;
  /** RFF+LI: the library's order line reference this line bills. */
  orderLineReference?: string;
  /** RFF+ON: the order number. */
  orderNumber?: string;
  /** RFF+QLI: the supplier's quote line reference. */
  quoteLineReference?: string;
  taxes: Tax[];
  allowances: AllowanceCharge[];
  /** Everything read from the line, for what the fields above do not name. */
  item: LineItem;
}

export interface Invoice {
  /** The UNH message reference and the message's place in the interchange. */
  messageReference: string;
  messageIndex: number;
  /** BGM document number: the invoice number. */
  invoiceNumber: string;
  /** BGM document name code: 380 invoice, 381 credit note, 383 debit note. */
  documentName: string;
  /** BGM message function: 9 original, 7 duplicate, 31 copy, 43 additional transmission. */
  function: string;
  /** DTM+137, as sent (format 102: CCYYMMDD). */
  documentDate?: DateValue;
  /** CUX currency (ISO 4217). */
  currency?: string;
  supplier?: Party;
  buyer?: Party;
  parties: Party[];
  references: Reference[];
  /** Message-level allowances and charges (before the first line). */
  allowances: AllowanceCharge[];
  lines: InvoiceLine[];
  /** The summary's totals by name (also in `summary`). */
  totals: InvoiceTotals;
  summary: {
    amounts: Amount[];
    taxes: Tax[];
    allowances: AllowanceCharge[];
    counts: Quantity[];
    at?: SegmentAt;
  };
  at: SegmentAt;
}

/** The summary MOA by what they mean; taxable and tax may come inside the summary's TAX groups. */
export interface InvoiceTotals {
  /** MOA+79: total of the line items. */
  lineItems?: Amount;
  /** MOA+129: amount subject to payment discount. */
  subjectToDiscount?: Amount;
  /** MOA+125: taxable amount. */
  taxable?: Amount;
  /** MOA+176 total tax, else MOA+124 tax. */
  tax?: Amount;
  /** MOA+86: message total. */
  messageTotal?: Amount;
  /** MOA+9: amount due. */
  amountDue?: Amount;
}

function totalsOf(summary: Body['summary']): InvoiceTotals {
  const all = [...summary.amounts, ...summary.taxes.flatMap((t) => t.amounts)];
  const found: [keyof InvoiceTotals, Amount | undefined][] = [
    ['lineItems', byQualifier(all, '79')],
    ['subjectToDiscount', byQualifier(all, '129')],
    ['taxable', byQualifier(all, '125')],
    ['tax', byQualifier(all, '176') ?? byQualifier(all, '124')],
    ['messageTotal', byQualifier(all, '86')],
    ['amountDue', byQualifier(all, '9')],
  ];
  return Object.fromEntries(found.filter(([, amount]) => amount !== undefined));
}

/** The identifier to match a catalogue on: EN (EAN-13, ISBN-13) or IB (ISBN-10); never a PIA+3 substitute's. */
export function isbnOf(item: LineItem): string | undefined {
  const ids = [...(item.itemId ? [item.itemId] : []), ...item.additionalIds.filter((id) => id.function !== '3')];
  return ids.find((id) => id.type === 'EN' || id.type === 'IB')?.id;
}

/** The header parts every book-trade message shares. */
export function headerOf(message: Message, body: Body) {
  return {
    messageReference: message.reference,
    messageIndex: message.index,
    documentName: body.document?.name ?? '',
    function: body.document?.function ?? '',
    ...(byQualifier(body.dates, '137') ? { documentDate: byQualifier(body.dates, '137') } : {}),
    ...(body.currency ? { currency: body.currency.code } : {}),
    ...(byQualifier(body.parties, 'SU') ? { supplier: byQualifier(body.parties, 'SU') } : {}),
    ...(byQualifier(body.parties, 'BY') ? { buyer: byQualifier(body.parties, 'BY') } : {}),
    parties: body.parties,
    references: body.references,
    at: message.at,
  };
}

function invoiceLine(item: LineItem): InvoiceLine {
  const line: InvoiceLine = { lineNumber: item.lineNumber, taxes: item.taxes, allowances: item.allowances, item };
  const set = <K extends keyof InvoiceLine>(key: K, value: InvoiceLine[K] | undefined) => {
    if (value !== undefined) line[key] = value;
  };
  set('isbn', isbnOf(item));
  set('invoicedQuantity', byQualifier(item.quantities, '47')?.value);
  set('lineAmount', byQualifier(item.amounts, '203'));
  set('discount', byQualifier(item.amounts, '52'));
  set('netPrice', byQualifier(item.prices, 'AAA'));
  set('grossPrice', byQualifier(item.prices, 'AAB'));
  set('orderLineReference', byQualifier(item.references, 'LI')?.value);
  set('orderNumber', byQualifier(item.references, 'ON')?.value);
  set('quoteLineReference', byQualifier(item.references, 'QLI')?.value);
  return line;
}

/** Reads one INVOIC message; a message of another type, with no BGM, or with an amount that is not a number is refused. */
export function readInvoice(message: Message): { invoice: Invoice } | { problems: EdifactProblem[] } {
  const wrong = wrongType(message, 'INVOIC');
  if (wrong) return { problems: wrong };
  const { body, problems } = readBody(message);
  if (problems.length > 0) return { problems };
  const invoice: Invoice = {
    ...headerOf(message, body),
    invoiceNumber: body.document!.number,
    allowances: body.allowances,
    lines: body.lines.map(invoiceLine),
    totals: totalsOf(body.summary),
    summary: body.summary,
  };
  return { invoice };
}
