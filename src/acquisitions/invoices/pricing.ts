// The arithmetic of an invoice, in one place (README, "Acquisitions and use tax"):
//   line subtotal  = amount × quantity
//   line use tax   = round(subtotal × rate / 100, 2), halves away from zero, on flagged lines
//   shipping, discount and the vendor's tax are shared out to the lines in proportion to their
//   subtotals, to the cent (tax may instead be given per line, when the vendor states each line's)
//   line total     = subtotal + use tax + shipping share + tax share − discount share
//   every invoice figure is the sum of its lines' figures.
import { fail } from '../../shared/errors.ts';
import { allocate, Decimal, sum, useTaxOn, ZERO } from '../../shared/money.ts';

export interface LineFigures {
  amount: Decimal;
  quantity: number;
  useTax: boolean;
  /** The vendor's tax on this line, when given per line. */
  tax?: Decimal;
}

export interface PricedLine {
  subtotal: Decimal;
  /** The rate applied (the invoice's), or null on a line without use tax. */
  useTaxRate: string | null;
  useTaxAmount: Decimal;
  shipping: Decimal;
  /** The vendor's tax on the line. */
  tax: Decimal;
  discount: Decimal;
  total: Decimal;
}

export interface InvoiceFigures {
  lines: PricedLine[];
  subtotal: Decimal;
  useTaxAmount: Decimal;
  shipping: Decimal;
  tax: Decimal;
  discount: Decimal;
  total: Decimal;
}

/** Each line's share of the vendor's tax: as given per line (then `tax`, when given, must be their sum), else `tax` shared out. */
function taxShares(lines: readonly LineFigures[], subtotals: Decimal[], tax: Decimal | undefined): Decimal[] {
  if (!lines.some((l) => l.tax !== undefined)) return allocate(tax ?? ZERO, subtotals);
  const given = lines.map((l) => l.tax ?? ZERO);
  if (tax !== undefined && !tax.equals(sum(given)))
    throw fail.invalidInput(`tax: ${tax.toFixed(2)} is not the sum of the line items' tax ${sum(given).toFixed(2)}`);
  return given;
}

/**
 * Prices the lines of an invoice. `rate` is the invoice's use tax rate in percent (text, as
 * stored), or null when it has no use tax code; `tax` the vendor's tax, to share out unless the
 * lines give theirs. Refuses (126) shipping, tax or a discount with no line to carry it, and a
 * discount larger than the subtotal (no line may come to less than zero).
 */
export function priceInvoice(
  lines: readonly LineFigures[],
  rate: string | null,
  shipping: Decimal,
  discount: Decimal,
  tax?: Decimal,
): InvoiceFigures {
  if (lines.length === 0 && (!shipping.isZero() || !discount.isZero() || (tax && !tax.isZero()))) {
    throw fail.invalidInput(
      'shipping, tax and discount are shared out to the line items: an invoice with any of them needs at least one line item',
    );
  }
  const rateValue = rate === null ? null : new Decimal(rate);
  const subtotals = lines.map((line) => line.amount.times(line.quantity));
  const subtotal = sum(subtotals);
  if (discount.greaterThan(subtotal))
    throw fail.invalidInput(`discount ${discount.toFixed(2)} is more than the line items' subtotal ${subtotal.toFixed(2)}`);
  const shippingShares = allocate(shipping, subtotals);
  const discountShares = allocate(discount, subtotals);
  const taxes = taxShares(lines, subtotals, tax);
  const priced = lines.map((line, i): PricedLine => {
    if (line.useTax && rateValue === null) throw fail.invalidInput(`lineItems.${i}.useTax: the invoice has no useTaxCode`);
    const lineSubtotal = subtotals[i]!;
    const useTaxAmount = line.useTax ? useTaxOn(lineSubtotal, rateValue!) : ZERO;
    const lineShipping = shippingShares[i]!;
    const lineDiscount = discountShares[i]!;
    const lineTax = taxes[i]!;
    return {
      subtotal: lineSubtotal,
      useTaxRate: line.useTax ? rate : null,
      useTaxAmount,
      shipping: lineShipping,
      tax: lineTax,
      discount: lineDiscount,
      total: lineSubtotal.plus(useTaxAmount).plus(lineShipping).plus(lineTax).minus(lineDiscount),
    };
  });
  return {
    lines: priced,
    subtotal,
    useTaxAmount: sum(priced.map((l) => l.useTaxAmount)),
    shipping: sum(priced.map((l) => l.shipping)),
    tax: sum(priced.map((l) => l.tax)),
    discount: sum(priced.map((l) => l.discount)),
    total: sum(priced.map((l) => l.total)),
  };
}
