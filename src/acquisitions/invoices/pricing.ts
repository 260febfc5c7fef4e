// The arithmetic of an invoice, in one place (README, "Acquisitions and use tax"):
//   line subtotal  = amount × quantity
//   line use tax   = round(subtotal × rate / 100, 2), halves away from zero, on flagged lines
//   shipping and discount are shared out to the lines in proportion to their subtotals, to the cent
//   line total     = subtotal + use tax + shipping share − discount share
//   every invoice figure is the sum of its lines' figures.
import { fail } from '../../shared/errors.ts';
import { allocate, Decimal, sum, useTaxOn, ZERO } from '../../shared/money.ts';

export interface LineFigures {
  amount: Decimal;
  quantity: number;
  useTax: boolean;
}

export interface PricedLine {
  subtotal: Decimal;
  /** The rate applied (the invoice's), or null on a line without use tax. */
  useTaxRate: string | null;
  useTaxAmount: Decimal;
  shipping: Decimal;
  discount: Decimal;
  total: Decimal;
}

export interface InvoiceFigures {
  lines: PricedLine[];
  subtotal: Decimal;
  useTaxAmount: Decimal;
  shipping: Decimal;
  discount: Decimal;
  total: Decimal;
}

/**
 * Prices the lines of an invoice. `rate` is the invoice's use tax rate in percent (text, as
 * stored), or null when it has no use tax code. Refuses (126) shipping or a discount with no line
 * to carry it, and a discount larger than the subtotal (no line may come to less than zero).
 */
export function priceInvoice(lines: readonly LineFigures[], rate: string | null, shipping: Decimal, discount: Decimal): InvoiceFigures {
  if (lines.length === 0 && (!shipping.isZero() || !discount.isZero())) {
    throw fail.invalidInput('shipping and discount are shared out to the line items: an invoice with either needs at least one line item');
  }
  const rateValue = rate === null ? null : new Decimal(rate);
  const subtotals = lines.map((line) => line.amount.times(line.quantity));
  const subtotal = sum(subtotals);
  if (discount.greaterThan(subtotal))
    throw fail.invalidInput(`discount ${discount.toFixed(2)} is more than the line items' subtotal ${subtotal.toFixed(2)}`);
  const shippingShares = allocate(shipping, subtotals);
  const discountShares = allocate(discount, subtotals);
  const priced = lines.map((line, i): PricedLine => {
    if (line.useTax && rateValue === null) throw fail.invalidInput(`lineItems.${i}.useTax: the invoice has no useTaxCode`);
    const lineSubtotal = subtotals[i]!;
    const useTaxAmount = line.useTax ? useTaxOn(lineSubtotal, rateValue!) : ZERO;
    const lineShipping = shippingShares[i]!;
    const lineDiscount = discountShares[i]!;
    return {
      subtotal: lineSubtotal,
      useTaxRate: line.useTax ? rate : null,
      useTaxAmount,
      shipping: lineShipping,
      discount: lineDiscount,
      total: lineSubtotal.plus(useTaxAmount).plus(lineShipping).minus(lineDiscount),
    };
  });
  return {
    lines: priced,
    subtotal,
    useTaxAmount: sum(priced.map((l) => l.useTaxAmount)),
    shipping: sum(priced.map((l) => l.shipping)),
    discount: sum(priced.map((l) => l.discount)),
    total: sum(priced.map((l) => l.total)),
  };
}
