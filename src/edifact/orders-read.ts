// ORDERS read back into the shape writeOrders takes: what a supplier's test echo, or Carrel's own
// file, says was ordered. Proves the writer's output reads as it was meant.
import { byQualifier, readBody, wrongType, type CopyData } from './body.ts';
import type { Message } from './interchange.ts';
import type { Order, OrderCopy, OrderLine, OrderPartyId } from './orders.ts';
import { describeAt, problemAt, type EdifactProblem } from './problems.ts';

const COPY_FIELDS: Record<string, keyof Omit<OrderCopy, 'other'>> = {
  LLO: 'branch',
  LFN: 'fund',
  LST: 'stockCategory',
  LSQ: 'sequence',
  LSM: 'shelfmark',
  LLN: 'loanCategory',
  LVT: 'servicing',
};

const DESCRIPTIONS: Record<string, 'author' | 'title' | 'edition' | 'publisher' | 'year'> = {
  '009': 'author',
  '050': 'title',
  '100': 'edition',
  '109': 'publisher',
  '170': 'year',
};

function copyOf(data: CopyData): OrderCopy {
  const copy: OrderCopy = {};
  for (const [qualifier, value] of Object.entries(data.fields)) {
    const name = COPY_FIELDS[qualifier];
    if (name) copy[name] = value;
    else copy.other = { ...copy.other, [qualifier]: value };
  }
  return copy;
}

/** NAD's agency back to the UNB qualifier the writer took. */
function partyOf(id: string, agency: string): OrderPartyId {
  const qualifier = agency === '9' ? '14' : agency;
  return { id, qualifier: qualifier as OrderPartyId['qualifier'] };
}

/** Reads one ORDERS message into an Order; refused when it is another type or does not read. */
export function readOrder(message: Message): { order: Order } | { problems: EdifactProblem[] } {
  const wrong = wrongType(message, 'ORDERS');
  if (wrong) return { problems: wrong };
  const { body, problems } = readBody(message);
  const buyer = byQualifier(body.parties, 'BY');
  const supplier = byQualifier(body.parties, 'SU');
  if (!buyer || !supplier) problems.push(problemAt('content', message.at, `${describeAt(message.at)}: an order needs NAD+BY and NAD+SU`));
  if (problems.length > 0 || !buyer || !supplier) return { problems };
  const lines = body.lines.map((item): OrderLine => {
    const line: OrderLine = {
      reference: byQualifier(item.references, 'LI')?.value ?? '',
      quantity: Number(byQualifier(item.quantities, '21')?.value ?? 0),
    };
    const isbn = [...(item.itemId ? [item.itemId] : []), ...item.additionalIds].find((id) => id.type === 'EN' || id.type === 'IB');
    if (isbn) line.isbn = isbn.id;
    for (const description of item.descriptions) {
      const name = DESCRIPTIONS[description.code];
      if (name) line[name] = (line[name] ?? '') + description.text;
    }
    if (item.copies.length > 0) line.copies = item.copies.map(copyOf);
    const price = byQualifier(item.prices, 'AAE');
    if (price) line.price = price.value;
    const notes = item.notes.filter((n) => n.subject === 'LIN').map((n) => n.parts.join(''));
    if (notes.length > 0) line.notes = notes;
    return line;
  });
  const order: Order = {
    messageReference: message.reference,
    orderNumber: body.document!.number,
    date: byQualifier(body.dates, '137')?.value ?? '',
    buyer: partyOf(buyer.id, buyer.agency),
    supplier: partyOf(supplier.id, supplier.agency),
    lines,
  };
  const account = byQualifier(buyer.references, 'API');
  if (account) order.account = account.value;
  if (body.currency) order.currency = body.currency.code;
  return { order };
}
