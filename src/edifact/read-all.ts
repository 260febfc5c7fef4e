// The messages of one kind in an interchange, read together: what a file route does with a
// vendor's INVOIC or ORDRSP file. Messages of another type are problems, not silently skipped,
// so a vendor sending the wrong file to the wrong place is noticed.
import type { Interchange } from './interchange.ts';
import { readInvoice, type Invoice } from './invoice.ts';
import { readOrderResponse, type OrderResponse } from './order-response.ts';
import type { EdifactProblem } from './problems.ts';

/** Every INVOIC of the interchange that reads; the problems of those that do not, and of other messages. */
export function readInvoices(interchange: Interchange): { invoices: Invoice[]; problems: EdifactProblem[] } {
  const invoices: Invoice[] = [];
  const problems: EdifactProblem[] = [];
  for (const message of interchange.messages) {
    const read = readInvoice(message);
    if ('invoice' in read) invoices.push(read.invoice);
    else problems.push(...read.problems);
  }
  return { invoices, problems };
}

/** Every ORDRSP of the interchange that reads; the problems of those that do not, and of other messages. */
export function readOrderResponses(interchange: Interchange): { responses: OrderResponse[]; problems: EdifactProblem[] } {
  const responses: OrderResponse[] = [];
  const problems: EdifactProblem[] = [];
  for (const message of interchange.messages) {
    const read = readOrderResponse(message);
    if ('response' in read) responses.push(read.response);
    else problems.push(...read.problems);
  }
  return { responses, problems };
}
