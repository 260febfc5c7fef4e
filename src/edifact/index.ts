// UN/EDIFACT for library book-trade EDI (D96A as EDItEUR's library subset uses it): Carrel writes
// ORDERS and reads ORDRSP and INVOIC. Pure functions over bytes and typed values: no database, no
// files, no network. docs/edifact.md lists the segments and qualifiers read and written.
//
//   const { interchange, envelopeOk, problems } = readInterchange(bytes);
//   if (interchange && envelopeOk) {
//     const { invoices, problems: refused } = readInvoices(interchange);
//     for (const invoice of invoices) balance(invoice); // { ok, problems, figures }
//   }
export type {
  AllowanceCharge,
  Amount,
  CopyData,
  DateValue,
  Description,
  FreeText,
  ItemId,
  LineItem,
  Party,
  Price,
  Quantity,
  Reference,
  Tax,
} from './body.ts';
export { balance, type Balance, type BalanceFigures } from './balance.ts';
export { detect, type Detection } from './detect.ts';
export {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_SEGMENTS,
  readInterchange,
  type Interchange,
  type InterchangeHeader,
  type InterchangeResult,
  type Message,
  type PartyId,
  type ReadLimits,
} from './interchange.ts';
export { readInvoice, type Invoice, type InvoiceLine, type InvoiceTotals } from './invoice.ts';
export { readOrderResponse, type LineStatus, type OrderResponse, type OrderResponseLine } from './order-response.ts';
export { readOrder } from './orders-read.ts';
export { readInvoices, readOrderResponses } from './read-all.ts';
export { escapeText, writeOrders, type Order, type OrderBatch, type OrderCopy, type OrderLine, type OrderPartyId } from './orders.ts';
export type { EdifactProblem, ProblemKind, SegmentAt } from './problems.ts';
export { DEFAULT_DELIMITERS, tokenize, type Delimiters, type Segment, type Tokens } from './syntax.ts';
