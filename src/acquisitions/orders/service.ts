// Rules for purchase orders, the one place they are kept. Every write runs in one transaction that
// stamps the change clock, locks what it changes and moves the fund's balances with it:
//   placing an order encumbers its fund with copies × estimated price (exact decimals, the fund's
//   currency); cancelling releases what the order still encumbers; receiving adds the copies as
//   items of the bib at the order's locations and keeps the encumbrance; paying an invoice line
//   that names the order (payLines, called inside the invoice's payment) releases the estimated
//   price of the copies paid and spends the line's total.
import { horizon, stamp } from '../../db/change-clock.ts';
import type { Db, Queryable } from '../../db/types.ts';
import { itemLoader } from '../../items/service.ts';
import { ITEM_STATUS } from '../../items/statuses.ts';
import { fail } from '../../shared/errors.ts';
import { Decimal, parseMoney, ZERO } from '../../shared/money.ts';
import type { FundService } from '../funds/service.ts';
import { parseCurrency } from '../funds/service.ts';
import type { VendorService } from '../vendors/service.ts';
import { refuse } from '../refusals.ts';
import * as repo from './repository.ts';

export type { OrderRow, OrderStatus } from './repository.ts';

export const MAX_COPIES = 100_000;
export const MAX_LOCATIONS = 100;

export const ORDER_STATUSES: Record<repo.OrderStatus, string> = {
  o: 'on order',
  '1': 'selection list',
  q: 'partly paid',
  a: 'fully paid',
  z: 'cancelled',
};

/** An order as a client places it. */
export interface OrderInput {
  bibId: string;
  vendor: string;
  fund: string;
  copies: number;
  location: { locationCode: string; copies: number }[];
  estimatedPrice: string | number;
  /** Given: must be the fund's. */
  currency?: string;
  lineReference?: string;
  orderDate?: string;
  /** o on order (default) or 1 selection list. */
  status?: string;
  note?: string | null;
}

/** A change to an order: the members given. */
export interface OrderChangeInput {
  note?: string | null;
  lineReference?: string;
  /** Only z (cancel) is set this way; paid statuses follow invoices. */
  status?: string;
  /** Receive copies: a count, or 'all' for every copy not yet received. */
  receive?: number | 'all';
}

/** One paid invoice line that names an order (the invoice's payment passes these). */
export interface PaidOrderLine {
  orderId: string;
  fundId: number;
  quantity: number;
  total: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const BIB_ID = /^\.?b?(\d{1,18})[\dx]?$/;

function lineReference(raw: string | undefined, member = 'lineReference'): string | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw fail.invalidInput(`${member} must be text`);
  const value = raw.trim();
  if (value.length < 1 || value.length > 40) throw fail.invalidInput(`${member}: must have 1 to 40 characters`);
  return value;
}

function note(raw: string | null | undefined): string | null | undefined {
  if (raw === undefined) return undefined;
  const value = (raw ?? '').trim();
  if (value.length > 1000) throw fail.invalidInput('note: at most 1000 characters');
  return value || null;
}

function wholeCount(member: string, raw: unknown, min: number): number {
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < min || raw > MAX_COPIES)
    throw fail.invalidInput(`${member}: ${String(raw)} is not a whole number from ${min} to ${MAX_COPIES}`);
  return raw;
}

interface ParsedOrder {
  bibId: string;
  vendor: string;
  fund: string;
  copies: number;
  locations: { code: string; copies: number }[];
  price: Decimal;
  currency: string | undefined;
  lineReference: string | undefined;
  orderDate: string | undefined;
  status: repo.OrderStatus;
  note: string | null;
}

function parseOrder(input: OrderInput): ParsedOrder {
  const text = (member: string, raw: unknown) => {
    if (typeof raw !== 'string' || !raw.trim()) throw fail.invalidInput(`${member} is required`);
    return raw.trim();
  };
  const bib = BIB_ID.exec(text('bibId', String(input.bibId ?? '')));
  if (!bib) throw fail.invalidInput(`bibId: "${input.bibId}" is not a bib id`);
  const copies = wholeCount('copies', input.copies, 1);
  if (!Array.isArray(input.location) || input.location.length === 0)
    throw fail.invalidInput('location: at least one location with its copies is required');
  if (input.location.length > MAX_LOCATIONS) throw fail.invalidInput(`location: at most ${MAX_LOCATIONS} locations`);
  const locations = input.location.map((l, i) => ({
    code: text(`location[${i}].locationCode`, l?.locationCode),
    copies: wholeCount(`location[${i}].copies`, l?.copies, 1),
  }));
  const seen = new Set<string>();
  locations.forEach((l, i) => {
    if (seen.has(l.code)) throw fail.invalidInput(`location[${i}].locationCode: ${l.code} is given twice`);
    seen.add(l.code);
  });
  const shared = locations.reduce((n, l) => n + l.copies, 0);
  if (shared !== copies) throw fail.invalidInput(`location: the locations' copies add up to ${shared}, not copies ${copies}`);
  if (input.estimatedPrice === undefined || input.estimatedPrice === null) throw fail.invalidInput('estimatedPrice is required');
  const price = parseMoney('estimatedPrice', String(input.estimatedPrice));
  if (price.isZero()) throw fail.invalidInput('estimatedPrice: must be more than 0');
  if (input.orderDate !== undefined && (!DATE.test(input.orderDate) || Number.isNaN(Date.parse(`${input.orderDate}T00:00:00Z`))))
    throw fail.invalidInput(`orderDate: "${input.orderDate}" is not a calendar date such as 2026-11-02`);
  const status = input.status ?? 'o';
  if (status !== 'o' && status !== '1') throw fail.invalidInput(`status: "${status}" is not o (on order) or 1 (selection list)`);
  return {
    bibId: bib[1]!.replace(/^0+(?=\d)/, ''),
    vendor: text('vendor', input.vendor),
    fund: text('fund', input.fund),
    copies,
    locations,
    price,
    currency: input.currency === undefined ? undefined : parseCurrency('currency', input.currency),
    lineReference: lineReference(input.lineReference),
    orderDate: input.orderDate,
    status,
    note: note(input.note) ?? null,
  };
}

/** Hands out `count` received copies over the locations, in their order, after the `already` received. */
export function receivingLocations(locations: readonly { code: string; copies: number }[], already: number, count: number): string[] {
  const slots = locations.flatMap((l) => Array.from({ length: l.copies }, () => l.code));
  return slots.slice(already, already + count);
}

export class OrderService {
  constructor(
    private readonly db: Db,
    private readonly funds: FundService,
    private readonly vendors: VendorService,
  ) {}

  /** Places an order and encumbers its fund; answers its id. */
  async create(input: OrderInput): Promise<string> {
    const order = parseOrder(input);
    return this.db.transaction(async (tx) => {
      const at = await stamp(tx);
      const vendor = await this.vendors.findByCode(tx, order.vendor);
      if (!vendor) throw refuse.unknownVendor(order.vendor, 'vendor');
      const [fund] = await this.funds.byCodes(tx, [order.fund]);
      if (!fund) throw refuse.unknownFunds([order.fund], 'fund');
      if (order.currency !== undefined && order.currency !== fund.currency)
        throw refuse.currencyMismatch(`currency: fund ${fund.code} is kept in ${fund.currency}, not ${order.currency}`);
      if (!(await repo.liveBib(tx, order.bibId))) throw refuse.unknownBibs([order.bibId], 'bibId');
      const unknown = await repo.unknownLocations(
        tx,
        order.locations.map((l) => l.code),
      );
      if (unknown.length) {
        const i = order.locations.findIndex((l) => l.code === unknown[0]);
        throw refuse.unknownLocations(unknown, `location[${i}].locationCode`);
      }
      if (order.lineReference !== undefined) await this.lineReferenceFree(tx, order.lineReference);
      const encumbrance = order.price.times(order.copies);
      const id = await repo.insertOrder(
        tx,
        {
          bibId: order.bibId,
          vendorId: vendor.id,
          fundId: fund.id,
          copies: order.copies,
          estimatedPrice: order.price.toFixed(2),
          encumbrance: encumbrance.toFixed(2),
          lineReference: order.lineReference ?? null,
          status: order.status,
          orderDate: order.orderDate ?? at.toISOString().slice(0, 10),
          note: order.note,
          locations: order.locations,
        },
        at,
      );
      await this.funds.changeBalances(tx, [{ fundId: fund.id, encumbrance: encumbrance.toFixed(2), expenditure: '0' }], at);
      return id;
    });
  }

  /** PUT: note, line reference, cancel (status z), receive copies; the members given, in one transaction. */
  async update(id: string, input: OrderChangeInput): Promise<void> {
    const ref = lineReference(input.lineReference);
    const newNote = note(input.note);
    if (input.status !== undefined && input.status !== 'z')
      throw fail.invalidInput(`status: only z (cancelled) is set here; "${input.status}" follows receiving and invoices`);
    if (input.receive !== undefined && input.receive !== 'all') wholeCount('receive', input.receive, 1);
    if (input.status === 'z' && input.receive !== undefined)
      throw fail.invalidInput('receive: an order is not received and cancelled at once');
    await this.db.transaction(async (tx) => {
      const at = await stamp(tx);
      const order = await this.lockLive(tx, id);
      if (ref !== undefined && ref !== order.line_reference) {
        if (order.status === 'z') throw refuse.orderCancelled(id, 'lineReference');
        await this.lineReferenceFree(tx, ref, id);
      }
      if (newNote !== undefined || ref !== undefined) await repo.updateOrder(tx, id, { note: newNote, lineReference: ref }, at);
      if (input.status === 'z') await this.cancelLocked(tx, order, at);
      if (input.receive !== undefined) await this.receiveLocked(tx, order, input.receive, at);
    });
  }

  /** Cancels an order no copy of which has been received or paid, releasing what it encumbers. */
  async cancel(id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const at = await stamp(tx);
      await this.cancelLocked(tx, await this.lockLive(tx, id), at);
    });
  }

  /** Receives `count` copies (or every copy not yet received): items at the order's locations. Answers the new item ids. */
  async receive(id: string, count: number | 'all' = 'all'): Promise<string[]> {
    if (count !== 'all') wholeCount('receive', count, 1);
    return this.db.transaction(async (tx) => {
      const at = await stamp(tx);
      return this.receiveLocked(tx, await this.lockLive(tx, id), count, at);
    });
  }

  /** Records the vendor's answer about an order line (an EDIFACT order response status, say). */
  async recordVendorStatus(id: string, status: string): Promise<void> {
    const value = lineReference(status, 'vendorStatus')!;
    await this.db.transaction(async (tx) => {
      const at = await stamp(tx);
      await this.lockLive(tx, id);
      await repo.updateOrder(tx, id, { vendorStatus: value }, at);
    });
  }

  /**
   * A vendor's answer about several order lines, in one transaction: each status recorded, and the
   * orders it asks to cancel cancelled when nothing of them was received or paid (those stay, and
   * the answer says why). Answers, for each entry, whether it was cancelled or why not.
   */
  async recordVendorResponse(
    entries: readonly { id: string; status: string; cancel: boolean }[],
  ): Promise<{ id: string; cancelled: boolean; kept?: string }[]> {
    const parsed = entries.map((e) => ({ ...e, status: lineReference(e.status, 'vendorStatus')! }));
    return this.db.transaction(async (tx) => {
      const at = await stamp(tx);
      const outcomes: { id: string; cancelled: boolean; kept?: string }[] = [];
      for (const entry of parsed) {
        const order = await this.lockLive(tx, entry.id);
        await repo.updateOrder(tx, entry.id, { vendorStatus: entry.status }, at);
        if (!entry.cancel) outcomes.push({ id: entry.id, cancelled: false });
        else if (order.status === 'z' || order.paid_copies > 0 || order.received_copies > 0)
          outcomes.push({
            id: entry.id,
            cancelled: false,
            kept: order.status === 'z' ? 'already cancelled' : order.paid_copies > 0 ? 'paid (in part)' : 'has received copies',
          });
        else {
          await this.cancelLocked(tx, order, at);
          outcomes.push({ id: entry.id, cancelled: true });
        }
      }
      return outcomes;
    });
  }

  /** The open order (not fully paid, not cancelled) of this vendor with this line reference. */
  async findOpenByLineReference(vendorCode: string, ref: string): Promise<repo.OrderRow | undefined> {
    const vendor = await this.vendors.findByCode(this.db, vendorCode);
    if (!vendor) return undefined;
    const id = await repo.openOrderByLineReference(this.db, ref, vendor.id);
    return id === undefined ? undefined : repo.getOrder(this.db, id);
  }

  /**
   * The order an invoice line's reference names, for the invoice's vendor: an order id or record
   * key (1000001, o1000001, .o10000013), else the line reference of an open order. A reference
   * naming no order answers undefined: it stays the line's own text.
   */
  async resolveReference(
    tx: Queryable,
    ref: string,
    vendorId: string,
  ): Promise<{ id: string; fund_id: number; fund_code: string; status: repo.OrderStatus } | undefined> {
    // A record key with its dot carries a check digit (.o10000013); without the dot it has none.
    const key = /^o?(\d{1,18})$/.exec(ref) ?? /^\.o(\d{1,18})[\dax]$/.exec(ref);
    const byKey = key ? await repo.liveOrderId(tx, key[1]!, vendorId) : undefined;
    const id = byKey ?? (await repo.openOrderByLineReference(tx, ref, vendorId));
    return id === undefined ? undefined : repo.orderLink(tx, id);
  }

  /**
   * Inside an invoice's payment: for each paid line naming an order, releases the estimated price
   * of the copies paid (at most what the order still encumbers) and spends the line's total, on
   * the order's fund; marks the order partly or fully paid. Answers the funds' changes for the
   * caller to apply with its own.
   */
  async payLines(
    tx: Queryable,
    lines: readonly PaidOrderLine[],
    at: Date,
  ): Promise<{ fundId: number; encumbrance: Decimal; expenditure: Decimal }[]> {
    if (lines.length === 0) return [];
    const orders = new Map((await repo.lockOrders(tx, [...new Set(lines.map((l) => l.orderId))])).map((o) => [o.id, o]));
    const changes: { fundId: number; encumbrance: Decimal; expenditure: Decimal }[] = [];
    const left = new Map([...orders].map(([id, o]) => [id, new Decimal(o.encumbrance)]));
    const paid = new Map([...orders].map(([id, o]) => [id, o.paid_copies]));
    for (const line of lines) {
      const order = orders.get(line.orderId)!;
      const remaining = left.get(order.id)!;
      const release = Decimal.min(remaining, new Decimal(order.estimated_price).times(line.quantity));
      left.set(order.id, remaining.minus(release));
      paid.set(order.id, paid.get(order.id)! + line.quantity);
      changes.push({ fundId: order.fund_id, encumbrance: release.negated(), expenditure: new Decimal(line.total) });
    }
    for (const [id, order] of orders) {
      const paidCopies = paid.get(id)!;
      const status = order.status === 'z' ? 'z' : paidCopies >= order.copies ? 'a' : 'q';
      await repo.updateOrder(tx, id, { encumbrance: left.get(id)!.toFixed(2), paidCopies, status }, at);
    }
    return changes;
  }

  async get(id: string): Promise<repo.OrderRow> {
    const row = await repo.getOrder(this.db, id);
    if (!row) throw fail.notFound(`no order ${id}`);
    return row;
  }

  async list(filter: Omit<repo.OrderListFilter, 'horizon'>): Promise<repo.OrderRow[]> {
    const byStamp = filter.createdDate || filter.updatedDate || filter.deletedDate;
    return repo.listOrders(this.db, { ...filter, horizon: byStamp ? await horizon(this.db) : undefined });
  }

  private async lockLive(tx: Queryable, id: string): Promise<repo.LockedOrder> {
    const order = await repo.lockOrder(tx, id);
    if (!order || order.deleted) throw fail.notFound(`no order ${id}`);
    return order;
  }

  // Writes take turns on the change clock (stamp), so what this finds holds until the write commits;
  // the unique index orders_open_line_reference is the database's own guard besides.
  private async lineReferenceFree(tx: Queryable, ref: string, except?: string): Promise<void> {
    const holder = await repo.lineReferenceHolder(tx, ref, except);
    if (holder) throw refuse.lineReferenceTaken(ref, holder);
  }

  private async cancelLocked(tx: Queryable, order: repo.LockedOrder, at: Date): Promise<void> {
    if (order.status === 'z') throw refuse.orderCancelled(order.id, 'status');
    if (order.paid_copies > 0) throw refuse.orderNotOpen(order.id, 'is paid (in part): it cannot be cancelled');
    if (order.received_copies > 0) throw refuse.orderNotOpen(order.id, 'has received copies: it cannot be cancelled');
    const release = new Decimal(order.encumbrance);
    await repo.updateOrder(tx, order.id, { status: 'z', cancelled: true, encumbrance: '0' }, at);
    if (!release.equals(ZERO))
      await this.funds.changeBalances(tx, [{ fundId: order.fund_id, encumbrance: release.negated().toFixed(2), expenditure: '0' }], at);
  }

  private async receiveLocked(tx: Queryable, order: repo.LockedOrder, count: number | 'all', at: Date): Promise<string[]> {
    if (order.status === 'z') throw refuse.orderCancelled(order.id, 'receive');
    const open = order.copies - order.received_copies;
    if (open === 0) throw refuse.orderReceived(order.id, 'has every copy received');
    const n = count === 'all' ? open : count;
    if (n > open) throw refuse.orderReceived(order.id, `has ${open} copies not yet received, not ${n}`);
    const locations = receivingLocations(await repo.orderLocations(tx, order.id), order.received_copies, n);
    const ids: string[] = [];
    // Received copies are new items of the bib, in processing until the library shelves them.
    for (const location of locations)
      ids.push(await itemLoader.insert(tx, { bibIds: [order.bib_id], location, status: ITEM_STATUS.inProcessing }, at));
    await repo.updateOrder(tx, order.id, { receivedCopies: order.received_copies + n }, at);
    return ids;
  }
}
