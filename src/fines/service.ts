// Rules for fines: an overdue loan's fine assessed by its circulation rule when the loan ends or is
// renewed late; manual charges; payments. Each moves the patron's money owed in the same
// transaction, the patron's row locked first, so a payment racing a new charge loses no money.
import type { CircLogService } from '../circ-log/service.ts';
import { stamp } from '../db/change-clock.ts';
import type { Db, Queryable } from '../db/types.ts';
import type { LibraryService } from '../library/service.ts';
import type { PatronService } from '../patrons/service.ts';
import { fail } from '../shared/errors.ts';
import { Decimal, formatMoney } from '../shared/money.ts';
import { overdueFine, type FineRule } from './overdue.ts';
import * as repo from './repository.ts';

export type { FineRow } from './repository.ts';

/** Sierra's charge types. */
export const CHARGE_TYPES: Record<string, string> = {
  '1': 'Manual Charge',
  '2': 'Overdue',
  '3': 'Replacement',
  '4': 'Overdue X',
  '5': 'Lost Book',
  '6': 'Overdue Renewal',
  '7': 'Rental',
  '8': 'Rental X',
  '9': 'Debit',
  a: 'Notice',
  b: 'Credit Card',
  p: 'Program',
};

/** Sierra's payment types. */
export const PAYMENT_TYPES: Record<number, string> = { 1: 'Cash', 2: 'Check', 3: 'Credit card' };

/** A loan that ends (or is renewed) today, as its fine is assessed. */
export interface EndingLoan {
  checkoutId: string;
  patronId: string;
  itemId: string;
  dueDate: string;
  itemType: string | null;
  location: string | null;
}

export interface Payment {
  /** In cents, as Sierra takes it. */
  amount: number;
  paymentType: number;
  /** The fine's invoice number (its id). */
  invoiceNumber: string;
}

const cents = (amount: number) => formatMoney(new Decimal(amount).dividedBy(100));

export class FineService {
  constructor(
    private readonly db: Db,
    private readonly library: Pick<LibraryService, 'ruleFor'>,
    private readonly patrons: Pick<PatronService, 'lockForMoney' | 'addOwed' | 'exists'>,
    private readonly circLog: CircLogService,
  ) {}

  /**
   * The fine of a loan that was overdue today, charged to its patron (type 2 when it comes back,
   * 6 when it is renewed late); none when its rule charges nothing. In the caller's transaction,
   * under the circulation locks (the patron's row among them).
   */
  async assessOverdue(
    tx: Queryable,
    loan: EndingLoan,
    today: string,
    renewed: boolean,
    at: Date,
    /** The loan's rule, when the caller has read it (a renewal has); else it is read here. */
    known?: FineRule,
  ): Promise<string | undefined> {
    const rule =
      known ?? (await this.library.ruleFor(tx, (await repo.patronTypeOf(tx, loan.patronId)) ?? null, loan.itemType, loan.location));
    const amount = overdueFine(loan.dueDate, today, rule);
    if (amount.isZero()) return undefined;
    // A deleted patron owes nothing more.
    if (!(await this.patrons.lockForMoney(tx, loan.patronId))) return undefined;
    const id = await repo.insertFine(
      tx,
      {
        patronId: loan.patronId,
        itemId: loan.itemId,
        checkoutId: loan.checkoutId,
        chargeType: renewed ? '6' : '2',
        itemCharge: formatMoney(amount),
        description: `Due ${loan.dueDate}, ${renewed ? 'renewed' : 'returned'} ${today}`,
        location: loan.location,
      },
      at,
    );
    await this.patrons.addOwed(tx, loan.patronId, formatMoney(amount));
    await this.circLog.record(tx, { op: '$', at, patronId: loan.patronId, itemId: loan.itemId, checkoutId: loan.checkoutId, fineId: id });
    return id;
  }

  async get(id: string): Promise<repo.FineRow> {
    const row = await repo.getFine(this.db, id);
    if (!row) throw fail.notFound(`no fine ${id}`);
    return row;
  }

  async owed(patronId: string, limit: number, offset: number): Promise<repo.FineRow[]> {
    if (!(await this.patrons.exists(patronId))) throw fail.notFound(`no patron ${patronId}`);
    return repo.owedFines(this.db, patronId, limit, offset);
  }

  /** A manual charge (type 1) of `amount` cents. */
  async charge(patronId: string, charge: { amount: number; reason: string | null; location: string | null }): Promise<string> {
    if (!Number.isInteger(charge.amount) || charge.amount <= 0 || charge.amount > 99_999_999)
      throw fail.invalidInput('amount: a charge is a whole number of cents, 1 to 99999999');
    return this.db.transaction(async (tx) => {
      const at = await stamp(tx);
      if (!(await this.patrons.lockForMoney(tx, patronId))) throw fail.notFound(`no patron ${patronId}`);
      const amount = cents(charge.amount);
      const id = await repo.insertFine(
        tx,
        {
          patronId,
          itemId: null,
          checkoutId: null,
          chargeType: '1',
          itemCharge: amount,
          description: charge.reason,
          location: charge.location,
        },
        at,
      );
      await this.patrons.addOwed(tx, patronId, amount);
      await this.circLog.record(tx, { op: '$', at, patronId, fineId: id });
      return id;
    });
  }

  /**
   * Payments on the patron's fines, all or none: each names a fine still owed (its invoice number)
   * and pays at most what is left of it. The patron's money owed goes down by what was paid.
   */
  async pay(patronId: string, payments: Payment[]): Promise<void> {
    if (payments.length === 0) throw fail.invalidInput('payments: give at least one');
    payments.forEach((p, i) => {
      if (!Number.isInteger(p.amount) || p.amount <= 0)
        throw fail.invalidInput(`payments[${i}].amount: a whole number of cents, more than 0`);
      if (!Object.hasOwn(PAYMENT_TYPES, p.paymentType))
        throw fail.invalidInput(
          `payments[${i}].paymentType: one of ${Object.entries(PAYMENT_TYPES)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')}`,
        );
      if (!/^\d{1,18}$/.test(p.invoiceNumber))
        throw fail.invalidInput(`payments[${i}].invoiceNumber: "${p.invoiceNumber}" is not an invoice number`);
    });
    await this.db.transaction(async (tx) => {
      const at = await stamp(tx);
      if (!(await this.patrons.lockForMoney(tx, patronId))) throw fail.notFound(`no patron ${patronId}`);
      const fines = new Map(
        (
          await repo.lockOwedFines(
            tx,
            patronId,
            payments.map((p) => p.invoiceNumber),
          )
        ).map((f) => [f.id, f]),
      );
      const left = new Map(
        [...fines].map(([id, f]) => [id, new Decimal(f.item_charge).plus(f.processing_fee).plus(f.billing_fee).minus(f.paid_amount)]),
      );
      let total = new Decimal(0);
      for (const [i, p] of payments.entries()) {
        const owed = left.get(p.invoiceNumber);
        if (owed === undefined) throw fail.invalidParameter(`payments[${i}].invoiceNumber: the patron owes no fine ${p.invoiceNumber}`);
        const amount = new Decimal(p.amount).dividedBy(100);
        if (amount.greaterThan(owed))
          throw fail.invalidParameter(
            `payments[${i}].amount: ${formatMoney(amount)} is more than the ${formatMoney(owed)} left of fine ${p.invoiceNumber}`,
          );
        left.set(p.invoiceNumber, owed.minus(amount));
        await repo.payFine(tx, p.invoiceNumber, patronId, formatMoney(amount), p.paymentType, at);
        total = total.plus(amount);
      }
      await this.patrons.addOwed(tx, patronId, formatMoney(total.negated()));
    });
  }
}

/** A patron's fines still owed as an SQL fragment for another domain's statement (the catalogue's account page reads them with the patron's other lists in one round trip). */
export const fineRows = { owedOfPatronJson: repo.owedFinesOfPatronJson };
