// Carrel's orders as one ORDERS interchange for a vendor. One message per order, as Koha writes
// one per basket: a Carrel order is one title with its own number, which the vendor's ORDRSP and
// INVOIC quote back (BGM, RFF+LI), so each stays answerable on its own.
import type { OrderBatch, OrderCopy, OrderLine, OrderPartyId } from '../../edifact/index.ts';
import type { OrderRow } from '../orders/index.ts';

const ISBN = /^(?:\d{13}|\d{9}[\dX])$/;

/** The first of a bib's ISBNs that EDIFACT can carry: hyphens dropped, qualifiers such as "(pbk.)" cut off. */
function isbnOf(isbns: string[]): string | undefined {
  for (const raw of isbns) {
    const candidate = (raw.trim().split(/\s/, 1)[0] ?? '').replaceAll('-', '').toUpperCase();
    if (ISBN.test(candidate)) return candidate;
  }
  return undefined;
}

function line(order: OrderRow): OrderLine {
  const copies: OrderCopy[] = order.locations.flatMap((l) =>
    Array.from({ length: l.copies }, () => ({ branch: l.location_code, fund: order.fund_code })),
  );
  const out: OrderLine = {
    reference: order.line_reference,
    quantity: order.copies,
    price: order.estimated_price,
    ...(copies.length === order.copies ? { copies } : {}),
  };
  const isbn = isbnOf(order.bib_isbns);
  if (isbn) out.isbn = isbn;
  if (order.bib_title) out.title = order.bib_title;
  if (order.bib_author) out.author = order.bib_author;
  return out;
}

const latin1 = (text: string | null) => !text || [...text].every((c) => c.codePointAt(0)! <= 0xff);

export function orderBatch(o: {
  controlReference: string;
  library: OrderPartyId;
  vendor: OrderPartyId;
  /** The library's account number with the vendor (RFF+API after NAD+BY), when it has one. */
  account?: string | null;
  orders: OrderRow[];
  prepared: Date;
}): OrderBatch {
  return {
    controlReference: o.controlReference,
    sender: o.library,
    recipient: o.vendor,
    prepared: o.prepared,
    // UNOC (Latin-1) is what suppliers read best; UTF-8 only when a title needs it.
    syntax: o.orders.every((r) => latin1(r.bib_title) && latin1(r.bib_author)) ? 'UNOC' : 'UNOY',
    orders: o.orders.map((order, i) => ({
      messageReference: String(i + 1),
      orderNumber: order.id,
      date: order.order_date.replaceAll('-', ''),
      buyer: o.library,
      supplier: o.vendor,
      ...(o.account ? { account: o.account } : {}),
      currency: order.currency,
      lines: [line(order)],
    })),
  };
}

/** The name suppliers' systems look for: ord, the control reference, .CEP (as Koha names them). */
export const fileName = (controlReference: string) => `ord${controlReference}.CEP`;
