// Rules for invoices. Every write runs in one transaction that first stamps the change clock (so
// updatedDate and paidDate windows harvest every change once, src/db/change-clock.ts), checks every
// reference, prices the invoice (pricing.ts), writes header and lines, and moves the funds'
// balances: an unpaid invoice's lines encumber their funds; paying moves them to expenditure. A paid
// invoice never changes again.
import { horizon, stamp } from '../../db/change-clock.ts';
import type { Db, Queryable } from '../../db/types.ts';
import type { FundService } from '../funds/service.ts';
import { parseCurrency } from '../funds/service.ts';
import { fail } from '../../shared/errors.ts';
import type { OrderService } from '../orders/service.ts';
import type { UseTaxService } from '../use-tax/service.ts';
import type { VendorService } from '../vendors/service.ts';
import { Decimal, parseMoney, ZERO } from '../../shared/money.ts';
import { priceInvoice } from './pricing.ts';
import { refuse } from '../refusals.ts';
import * as repo from './repository.ts';

export type { InvoiceRow, LineRow, PaidLineRow } from './repository.ts';

export const MAX_LINE_ITEMS = 10_000;
export const MAX_QUANTITY = 100_000;

/** A line item as a client sends it. */
export interface LineInput {
  fund: string;
  amount: string;
  quantity?: number;
  useTax?: boolean;
  /** The vendor's tax on this line, when it states each line's; absent on every line: the invoice's tax is shared out. */
  tax?: string;
  note?: string;
  bibId?: string;
  order?: string;
}

/** An invoice as a client sends it: every field for POST; PUT changes the fields it gives. */
export interface InvoiceInput {
  invNum?: string;
  invDate?: string;
  status?: string;
  vendorCode?: string;
  accountingUnit?: number;
  currency?: string;
  /** Empty or null: no use tax. */
  useTaxCode?: string | null;
  shipping?: string;
  /** The tax the vendor charges (VAT, GST, sales tax); absent on POST: 0, or the sum of the lines' tax. */
  tax?: string;
  discount?: string;
  note?: string | null;
  /** Given: replaces every line item. Absent on PUT: the line items stay (and are priced again). */
  lineItems?: LineInput[];
}

interface ParsedLine {
  id?: string;
  fund: string;
  amount: Decimal;
  quantity: number;
  useTax: boolean | undefined;
  tax: Decimal | undefined;
  note: string | null;
  bibId: string | null;
  order: string | null;
  orderId?: string | null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function calendarDate(field: string, raw: string): string {
  const date = DATE.test(raw) ? new Date(`${raw}T00:00:00Z`) : undefined;
  // Year 0000 exists for JavaScript but not for PostgreSQL: years run 0001 to 9999.
  if (!date || raw.startsWith('0000') || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== raw) {
    throw fail.invalidInput(`${field}: "${raw}" is not a calendar date such as 2026-11-02 (years 0001 to 9999)`);
  }
  return raw;
}

function optionalText(field: string, raw: string | null | undefined, max: number): string | null {
  const value = (raw ?? '').trim();
  if (value.length > max) throw fail.invalidInput(`${field}: at most ${max} characters`);
  return value || null;
}

function parseLine(raw: LineInput, i: number): ParsedLine {
  const at = `lineItems.${i}`;
  const quantity = raw.quantity ?? 1;
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY) {
    throw fail.invalidInput(`${at}.quantity: ${quantity} is not a whole number from 1 to ${MAX_QUANTITY}`);
  }
  if (typeof raw.fund !== 'string' || !raw.fund.trim()) throw fail.invalidInput(`${at}.fund is required`);
  const bibId = raw.bibId === undefined || raw.bibId === '' ? null : raw.bibId.trim();
  if (bibId !== null && !/^\d{1,18}$/.test(bibId)) throw fail.invalidInput(`${at}.bibId: "${raw.bibId}" is not a bib id (digits only)`);
  return {
    fund: raw.fund.trim(),
    amount: parseMoney(`${at}.amount`, String(raw.amount)),
    quantity,
    useTax: raw.useTax,
    tax: raw.tax === undefined ? undefined : parseMoney(`${at}.tax`, String(raw.tax)),
    note: optionalText(`${at}.note`, raw.note, 500),
    bibId: bibId?.replace(/^0+(?=\d)/, '') ?? null,
    order: optionalText(`${at}.order`, raw.order, 40),
  };
}

/** The header a write leaves: the fields given, checked, over the invoice's current ones. */
function mergeHeader(existing: repo.LockedInvoice | undefined, input: InvoiceInput) {
  const invNum = input.invNum === undefined ? existing!.inv_num : input.invNum.trim();
  if (invNum.length < 1 || invNum.length > 40) throw fail.invalidInput('invNum must have 1 to 40 characters');
  const given: string = input.status ?? existing?.status ?? 'o';
  if (given !== 'o' && given !== 's') {
    throw fail.invalidInput(
      given === 'p'
        ? 'status p (paid) is set by paying the invoice: POST /invoices/{id}/pay'
        : `status: "${given}" is not o (open) or s (suspended)`,
    );
  }
  const status: 'o' | 's' = given === 's' ? 's' : 'o';
  const accountingUnit = input.accountingUnit ?? existing?.accounting_unit ?? 0;
  if (!Number.isInteger(accountingUnit) || accountingUnit < 0 || accountingUnit > 999)
    throw fail.invalidInput('accountingUnit must be a whole number from 0 to 999');
  return {
    invNum,
    invDate: input.invDate === undefined ? existing!.inv_date : calendarDate('invDate', input.invDate),
    status,
    accountingUnit,
    shipping: input.shipping === undefined ? new Decimal(existing?.shipping ?? 0) : parseMoney('shipping', String(input.shipping)),
    discount: input.discount === undefined ? new Decimal(existing?.discount ?? 0) : parseMoney('discount', String(input.discount)),
    tax: input.tax === undefined ? undefined : parseMoney('tax', String(input.tax)),
    note: input.note === undefined ? (existing?.note ?? null) : optionalText('note', input.note, 1000),
  };
}

const unique = <T>(values: readonly T[]) => [...new Set(values)];

/** Adds each line total to its fund's entry in `into`, with sign. */
function addTotals(into: Map<number, Decimal>, lines: readonly { fundId: number; total: Decimal }[], sign: 1 | -1): void {
  for (const line of lines) into.set(line.fundId, (into.get(line.fundId) ?? ZERO).plus(sign === 1 ? line.total : line.total.negated()));
}

const lineTotals = (rows: readonly repo.LineRow[]) => rows.map((l) => ({ fundId: l.fund_id, total: new Decimal(l.total) }));
// A line that pays an order encumbers nothing itself: the order holds the encumbrance until paid.
const encumbering = (rows: readonly repo.LineRow[]) => lineTotals(rows.filter((l) => l.order_id === null));

export class InvoiceService {
  constructor(
    private readonly db: Db,
    private readonly funds: FundService,
    private readonly vendors: VendorService,
    private readonly useTax: UseTaxService,
    private readonly orders: OrderService,
  ) {}

  /** Creates an invoice with its line items; answers its id. */
  async create(input: InvoiceInput): Promise<string> {
    for (const field of ['invNum', 'invDate', 'vendorCode'] as const) {
      if (input[field] === undefined) throw fail.invalidInput(`${field} is required`);
    }
    return this.db.transaction(async (tx) => this.write(tx, undefined, input, await stamp(tx)));
  }

  /** Changes the fields given (all line items, when lineItems is given) of an unpaid invoice. */
  async update(id: string, input: InvoiceInput): Promise<void> {
    await this.db.transaction(async (tx) => {
      const at = await stamp(tx);
      const existing = await this.lockUnpaid(tx, id);
      await this.write(tx, existing, input, at);
    });
  }

  /** Deletes an unpaid invoice, leaving a tombstone, and releases what its lines encumbered. */
  async delete(id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const at = await stamp(tx);
      await this.lockUnpaid(tx, id);
      const deltas = new Map<number, Decimal>();
      addTotals(deltas, encumbering(await repo.invoiceLines(tx, id)), -1);
      await this.funds.changeBalances(
        tx,
        [...deltas].map(([fundId, d]) => ({ fundId, encumbrance: d.toFixed(2), expenditure: '0' })),
        at,
      );
      await repo.tombstoneInvoice(tx, id, at);
    });
  }

  /**
   * Pays an open invoice: status p, paidDate the commit-ordered stamp, each line's total moved from
   * its fund's encumbrance to its expenditure, all in one transaction. The invoice row is locked
   * first, so a second payment (even a concurrent one) finds it paid and is refused.
   */
  async pay(id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const at = await stamp(tx);
      const invoice = await repo.lockInvoice(tx, id);
      if (!invoice || invoice.deleted) throw fail.notFound(`no invoice ${id}`);
      if (invoice.status === 'p') throw refuse.alreadyPaid(id);
      if (invoice.status === 's') throw refuse.suspended(id);
      const lines = await repo.invoiceLines(tx, id);
      if (lines.length === 0) throw refuse.noLineItems(id);
      const byFund = new Map<number, { encumbrance: Decimal; expenditure: Decimal }>();
      const move = (fundId: number, encumbrance: Decimal, expenditure: Decimal) => {
        const was = byFund.get(fundId) ?? { encumbrance: ZERO, expenditure: ZERO };
        byFund.set(fundId, { encumbrance: was.encumbrance.plus(encumbrance), expenditure: was.expenditure.plus(expenditure) });
      };
      for (const { fundId, total } of encumbering(lines)) move(fundId, total.negated(), total);
      // Lines paying an order: the order releases its encumbrance for the copies paid.
      const orderLines = lines.flatMap((l) =>
        l.order_id === null ? [] : [{ orderId: l.order_id, fundId: l.fund_id, quantity: l.quantity, total: l.total }],
      );
      for (const c of await this.orders.payLines(tx, orderLines, at)) move(c.fundId, c.encumbrance, c.expenditure);
      const changes = [...byFund].map(([fundId, d]) => ({
        fundId,
        encumbrance: d.encumbrance.toFixed(2),
        expenditure: d.expenditure.toFixed(2),
      }));
      await this.funds.changeBalances(tx, changes, at);
      await repo.markPaid(tx, id, at);
    });
  }

  async get(id: string): Promise<repo.InvoiceRow> {
    const row = await repo.getInvoice(this.db, id);
    if (!row) throw fail.notFound(`no invoice ${id}`);
    return row;
  }

  async list(filter: Omit<repo.InvoiceListFilter, 'horizon'>): Promise<repo.InvoiceRow[]> {
    const byStamp = filter.createdDate || filter.updatedDate || filter.deletedDate || filter.paidDate;
    // Stamped date windows are read behind the change clock's horizon, as for bibs.
    return repo.listInvoices(this.db, { ...filter, horizon: byStamp ? await horizon(this.db) : undefined });
  }

  /** The line items of a live invoice, in line order. */
  async lines(invoiceId: string, page?: { limit: number; offset: number }): Promise<repo.LineRow[]> {
    const invoice = await repo.getInvoice(this.db, invoiceId);
    if (!invoice || invoice.deleted_date) throw fail.notFound(`no invoice ${invoiceId}`);
    return repo.invoiceLines(this.db, invoiceId, page);
  }

  linesOf(invoiceIds: readonly string[]): Promise<repo.LineRow[]> {
    return repo.linesOfInvoices(this.db, invoiceIds);
  }

  async line(id: string): Promise<repo.LineRow> {
    const row = await repo.getLine(this.db, id);
    if (!row) throw fail.notFound(`no invoice line item ${id}`);
    return row;
  }

  /**
   * The line items of invoices paid from `since` up to `before` (exclusive), in payment order.
   * The window ends no later than the last whole second that is over, behind the change clock's
   * horizon, so consecutive exports (each `since` the previous `before`) see each payment once.
   */
  async paidLines(since: Date, before?: Date): Promise<{ rows: repo.PaidLineRow[]; since: Date; before: Date }> {
    const now = await horizon(this.db);
    const settled = new Date(Math.floor(now.getTime() / 1000) * 1000);
    const start = new Date(Math.floor(since.getTime() / 1000) * 1000);
    const end = before && before < settled ? new Date(Math.floor(before.getTime() / 1000) * 1000) : settled;
    const rows = end > start ? await repo.paidLines(this.db, start, end) : [];
    return { rows, since: start, before: end };
  }

  private async lockUnpaid(tx: Queryable, id: string): Promise<repo.LockedInvoice> {
    const invoice = await repo.lockInvoice(tx, id);
    if (!invoice || invoice.deleted) throw fail.notFound(`no invoice ${id}`);
    if (invoice.status === 'p') throw refuse.invoicePaid(id);
    return invoice;
  }

  /** The shared body of create and update, inside their transaction; answers the invoice id. */
  private async write(tx: Queryable, existing: repo.LockedInvoice | undefined, input: InvoiceInput, at: Date): Promise<string> {
    const { invNum, invDate, status, accountingUnit, shipping, discount, tax: givenTax, note } = mergeHeader(existing, input);
    let currency = input.currency === undefined ? existing?.currency : parseCurrency('currency', input.currency);

    if (input.lineItems && input.lineItems.length > MAX_LINE_ITEMS)
      throw fail.invalidInput(`an invoice has at most ${MAX_LINE_ITEMS} line items`);
    const oldLines = existing ? await repo.invoiceLines(tx, existing.id) : [];
    const lines: ParsedLine[] = input.lineItems
      ? input.lineItems.map(parseLine)
      : oldLines.map((l) => ({
          id: l.id,
          fund: l.fund_code,
          amount: new Decimal(l.amount),
          quantity: l.quantity,
          useTax: l.use_tax,
          // Lines kept as they are keep their tax, unless a new invoice tax is to be shared out.
          tax: givenTax === undefined ? new Decimal(l.tax) : undefined,
          note: l.note,
          bibId: l.bib_id,
          order: l.order_ref,
        }));

    // References: vendor, use tax code (locked against change until commit), funds, bibs.
    let vendorId = existing?.vendor_id;
    let vendorCode = existing?.vendor_code;
    if (input.vendorCode !== undefined) {
      const vendor = await this.vendors.findByCode(tx, input.vendorCode.trim());
      if (!vendor) throw refuse.unknownVendor(input.vendorCode);
      vendorId = vendor.id;
      vendorCode = vendor.code;
    }
    const useTaxCode = input.useTaxCode === undefined ? (existing?.use_tax_code ?? null) : input.useTaxCode?.trim() || null;
    let rate: string | null = null;
    if (useTaxCode !== null) {
      const code = await this.useTax.lockForInvoice(tx, useTaxCode);
      if (!code) throw refuse.unknownUseTaxCode(useTaxCode);
      rate = code.rate;
    } else if (!input.lineItems && lines.some((l) => l.useTax)) {
      throw fail.invalidInput(
        'useTaxCode: the line items are flagged for use tax; send lineItems with useTax false too, or keep a use tax code',
      );
    }
    const fundRows = await this.funds.byCodes(tx, unique(lines.map((l) => l.fund)));
    const fundByCode = new Map(fundRows.map((f) => [f.code, f]));
    const unknownFunds = unique(lines.map((l) => l.fund)).filter((code) => !fundByCode.has(code));
    // The refusal names the first line with an unknown fund, and every unknown code.
    const firstUnknownFund = lines.findIndex((l) => !fundByCode.has(l.fund));
    if (unknownFunds.length) throw refuse.unknownFunds(unknownFunds, `lineItems.${firstUnknownFund}.fund`);
    // An order reference naming one of the vendor's orders links the line to it (on the order's fund).
    for (const [i, line] of lines.entries()) {
      const order = line.order === null ? undefined : await this.orders.resolveReference(tx, line.order, vendorId!);
      if (order && order.status === 'z') throw refuse.orderCancelled(order.id, `lineItems.${i}.order`);
      if (order && order.fund_code !== line.fund)
        throw fail.invalidInput(`lineItems.${i}.fund: order ${order.id} is on fund ${order.fund_code}, not ${line.fund}`);
      line.orderId = order?.id ?? null;
    }
    const bibIds = unique(lines.flatMap((l) => (l.bibId ? [l.bibId] : [])));
    const liveBibs = new Set(await repo.liveBibIds(tx, bibIds));
    const unknownBibs = bibIds.filter((id) => !liveBibs.has(id));
    const firstUnknownBib = lines.findIndex((l) => l.bibId !== null && !liveBibs.has(l.bibId));
    if (unknownBibs.length) throw refuse.unknownBibs(unknownBibs, `lineItems.${firstUnknownBib}.bibId`);

    // Currency: the invoice's, or else the one its funds are kept in; every fund must be kept in it.
    const currencies = unique(fundRows.map((f) => f.currency));
    if (currency === undefined) {
      if (currencies.length === 0) throw fail.invalidInput('currency is required for an invoice without line items');
      if (currencies.length > 1)
        throw refuse.currencyMismatch(`the line items' funds are kept in ${currencies.join(' and ')}; an invoice is in one currency`);
      currency = currencies[0]!;
    }
    const foreign = fundRows.filter((f) => f.currency !== currency);
    if (foreign.length) {
      throw refuse.currencyMismatch(
        `the invoice is in ${currency} but ${foreign.map((f) => `fund ${f.code} is kept in ${f.currency}`).join(', ')}`,
      );
    }

    const duplicate = await repo.findInvoiceNumber(tx, vendorId!, invNum, existing?.id);
    if (duplicate) throw refuse.duplicateInvoiceNumber(invNum, vendorCode!, duplicate);

    // The vendor's tax: as given; else the lines' own; else, for new lines, the invoice's tax as it was.
    const tax = givenTax ?? (lines.some((l) => l.tax !== undefined) ? undefined : new Decimal(existing?.tax ?? 0));
    const figures = priceInvoice(
      lines.map((l) => ({
        amount: l.amount,
        quantity: l.quantity,
        useTax: l.useTax ?? useTaxCode !== null,
        ...(l.tax === undefined ? {} : { tax: l.tax }),
      })),
      rate,
      shipping,
      discount,
      tax,
    );
    const header: repo.InvoiceHeader = {
      invNum,
      invDate,
      status,
      vendorId: vendorId!,
      accountingUnit,
      currency,
      useTaxCode,
      useTaxRate: rate,
      shipping: shipping.toFixed(2),
      tax: figures.tax.toFixed(2),
      discount: discount.toFixed(2),
      note,
    };
    const id = existing ? existing.id : await repo.insertInvoice(tx, header, at);
    if (existing) await repo.updateInvoice(tx, id, header, at);
    const records = lines.map((line, i): repo.LineRecord => {
      const priced = figures.lines[i]!;
      return {
        id: line.id,
        lineNumber: i + 1,
        fundId: fundByCode.get(line.fund)!.id,
        amount: line.amount.toFixed(2),
        quantity: line.quantity,
        subtotal: priced.subtotal.toFixed(2),
        useTax: priced.useTaxRate !== null,
        useTaxRate: priced.useTaxRate,
        useTaxAmount: priced.useTaxAmount.toFixed(2),
        shipping: priced.shipping.toFixed(2),
        tax: priced.tax.toFixed(2),
        discount: priced.discount.toFixed(2),
        total: priced.total.toFixed(2),
        note: line.note,
        bibId: line.bibId,
        order: line.order,
        orderId: line.orderId ?? null,
      };
    });
    await repo.replaceLines(tx, id, records);

    // Encumbrance follows the unpaid lines: release the old totals, encumber the new ones.
    const deltas = new Map<number, Decimal>();
    addTotals(deltas, encumbering(oldLines), -1);
    addTotals(
      deltas,
      records.filter((r) => r.orderId === null).map((r) => ({ fundId: r.fundId, total: new Decimal(r.total) })),
      1,
    );
    const changes = [...deltas]
      .filter(([, d]) => !d.isZero())
      .map(([fundId, d]) => ({ fundId, encumbrance: d.toFixed(2), expenditure: '0' }));
    await this.funds.changeBalances(tx, changes, at);
    return id;
  }
}
