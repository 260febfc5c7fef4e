// An INVOIC message as a Carrel invoice (README, "EDIFACT from vendors"; docs/edifact.md). Carrel's
// invoice total is the lines' amount × quantity, plus shipping, plus the vendor's tax, less
// discount, plus use tax (invoices/pricing.ts); the message's is the lines' MOA+203, plus charges,
// less allowances, plus tax. So a line's MOA+203 becomes quantity × amount per copy, message-level
// charges become shipping, allowances the discount, the message's tax the invoice's tax (each
// line's own MOA+124 when every line states one and they add up to it, as rates may differ by
// line; else shared out, as Sierra does), and the stored total equals MOA+86 (else MOA+9) exactly.
// What that model cannot hold is refused rather than stored wrong: a line amount that does not
// share out to whole cents per copy, amounts below a cent, and documents other than invoices
// (credit and debit notes).
import { balance, type Amount, type Invoice } from '../../edifact/index.ts';
import { Decimal, sum } from '../../shared/money.ts';
import type { InvoiceInput, LineInput } from '../invoices/service.ts';
import type { OrderRow } from '../orders/service.ts';
import { MessageRefusal } from './report.ts';

const WHOLE = /^[1-9]\d{0,5}$/;
const CENTS = (d: Decimal) => d.decimalPlaces() <= 2;

/** DTM+137 in format 102 (CCYYMMDD), or 203/204 (with the time after): the calendar date. */
function invoiceDate(invoice: Invoice): string {
  const date = invoice.documentDate;
  if (!date) throw new MessageRefusal(invoice.at, `invoice ${invoice.invoiceNumber} has no DTM+137 invoice date`);
  const digits = /^(\d{4})(\d{2})(\d{2})(?:\d{4,6})?$/.exec(date.value);
  if (!digits || !['102', '203', '204'].includes(date.format))
    throw new MessageRefusal(date.at, `DTM+137 "${date.value}" (format ${date.format}) is not a date in format 102 (CCYYMMDD)`);
  return `${digits[1]}-${digits[2]}-${digits[3]}`;
}

function cents(amount: { value: string; at: Invoice['at'] }, what: string): Decimal {
  const value = new Decimal(amount.value);
  if (value.isNegative()) throw new MessageRefusal(amount.at, `${what} ${amount.value} is negative: Carrel takes invoices, not credits`);
  if (!CENTS(value)) throw new MessageRefusal(amount.at, `${what} ${amount.value} is finer than a cent: Carrel keeps whole cents`);
  return value;
}

/** The message total: MOA+86, else MOA+9. */
export function messageTotal(invoice: Invoice): Amount | undefined {
  return invoice.totals.messageTotal ?? invoice.totals.amountDue;
}

/**
 * The invoice to create for a message of vendor `vendorCode`, each line on the open order its RFF+LI
 * names (`orderOf`). Refuses the whole message (MessageRefusal) on the first thing that does not hold.
 */
export async function invoiceInput(
  invoice: Invoice,
  vendorCode: string,
  orderOf: (ref: string) => Promise<OrderRow | undefined>,
  note: string,
): Promise<InvoiceInput> {
  if (invoice.documentName !== '380')
    throw new MessageRefusal(
      invoice.at,
      `BGM document ${invoice.documentName || '(none)'} is not 380 (invoice): credit and debit notes are entered by hand`,
    );
  const head = invoice.at;
  if (invoice.invoiceNumber.length < 1 || invoice.invoiceNumber.length > 40)
    throw new MessageRefusal(head, `BGM invoice number "${invoice.invoiceNumber}" must have 1 to 40 characters`);
  const invDate = invoiceDate(invoice);
  if (!invoice.currency) throw new MessageRefusal(head, `invoice ${invoice.invoiceNumber} has no CUX currency`);
  const checked = balance(invoice);
  if (!checked.ok) {
    const first = checked.problems[0]!;
    throw new MessageRefusal(first, `does not balance: ${checked.problems.map((p) => p.text).join('; ')}`);
  }
  const tax = cents({ value: checked.figures.tax, at: invoice.totals.tax?.at ?? invoice.summary.at ?? head }, 'the tax (MOA+124/176)');
  const lineTaxes = invoice.lines.map((line) => line.taxes.flatMap((t) => t.amounts.filter((a) => a.qualifier === '124')));
  const byLine =
    lineTaxes.every((amounts) => amounts.length > 0) &&
    sum(lineTaxes.flat().map((a) => new Decimal(a.value))).equals(tax) &&
    lineTaxes.flat().every((a) => !new Decimal(a.value).isNegative() && CENTS(new Decimal(a.value)));
  if (invoice.lines.length === 0) throw new MessageRefusal(head, `invoice ${invoice.invoiceNumber} has no lines`);
  const lineItems: LineInput[] = [];
  for (const [i, line] of invoice.lines.entries()) {
    const ref = line.item.references.find((r) => r.qualifier === 'LI');
    if (!ref) throw new MessageRefusal(line.item.at, `line ${line.lineNumber} has no RFF+LI naming the order it bills`);
    const order = await orderOf(ref.value);
    if (!order)
      throw new MessageRefusal(
        ref.at,
        `line ${line.lineNumber}: no open order of vendor ${vendorCode} has line reference ${ref.value}`,
        ref.value,
      );
    const quantityText = line.invoicedQuantity ?? '1';
    if (!WHOLE.test(quantityText))
      throw new MessageRefusal(line.item.at, `line ${line.lineNumber}: QTY+47 ${quantityText} is not a whole number of copies`);
    const quantity = Number(quantityText);
    const amount = cents(line.lineAmount!, `line ${line.lineNumber} MOA+203`);
    const perCopy = amount.dividedBy(quantity);
    if (!CENTS(perCopy))
      throw new MessageRefusal(
        line.lineAmount!.at,
        `line ${line.lineNumber}: MOA+203 ${line.lineAmount!.value} for ${quantity} copies is not a whole number of cents a copy`,
      );
    lineItems.push({
      fund: order.fund_code,
      amount: perCopy.toFixed(2),
      quantity,
      ...(byLine ? { tax: sum(lineTaxes[i]!.map((a) => new Decimal(a.value))).toFixed(2) } : {}),
      order: order.id,
      note: `RFF+LI ${ref.value}, LIN ${line.lineNumber}`,
    });
  }
  const at = invoice.summary.at ?? head;
  const shipping = cents({ value: checked.figures.charges, at }, 'the charges (ALC+C)');
  const discount = cents({ value: checked.figures.allowances, at }, 'the allowances (ALC+A)');
  return {
    invNum: invoice.invoiceNumber,
    invDate,
    vendorCode,
    currency: invoice.currency,
    shipping: shipping.toFixed(2),
    ...(byLine ? {} : { tax: tax.toFixed(2) }),
    discount: discount.toFixed(2),
    note,
    lineItems,
  };
}
