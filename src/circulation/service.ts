// Check-out, check-in and renewal. Each runs in one transaction that takes the change clock (beside
// other circulation: circulationStamp), then the locks of holds and circulation in their one order
// (HoldService.lockForCirculation), so two check-ins of the last copy fill two holds, never one twice.
import { checkStatGroup, type CircLogService } from '../circ-log/service.ts';
import { circulationStamp } from '../db/change-clock.ts';
import { together } from '../db/together.ts';
import { openDayAfter } from '../shared/calendar.ts';
import type { Db } from '../db/types.ts';
import { fail } from '../shared/errors.ts';
import type { ItemService } from '../items/service.ts';
import { ITEM_STATUS } from '../items/statuses.ts';
import { refuseLoan } from './refusals.ts';
import type { BranchService } from '../branches/service.ts';
import type { HoldService } from '../holds/service.ts';
import type { PatronService } from '../patrons/service.ts';
import type { LibraryService } from '../library/service.ts';
import type { FineService } from '../fines/service.ts';
import type { ReadingHistoryService } from './history/service.ts';
import * as repo from './repository.ts';

export interface CheckinResult {
  itemId: string;
  /** The item's status after (ITEM_STATUS): on the hold shelf, in transit, or available (back on the shelf). */
  status: string;
  holdId?: string;
  /** The patron whose loan the check-in ended; absent when the item was not on loan. */
  patronId?: string;
}

/** A new loan: its checkout id and due date (YYYY-MM-DD). */
export interface Loan {
  id: string;
  due: string;
}

export class CirculationService {
  constructor(
    private readonly db: Db,
    private readonly library: LibraryService,
    private readonly holds: HoldService,
    private readonly items: ItemService,
    private readonly patrons: PatronService,
    private readonly branches: BranchService,
    private readonly fines: FineService,
    private readonly history: ReadingHistoryService,
    private readonly circLog: CircLogService,
  ) {}

  /**
   * Checks an item out, due after the loan period its circulation rule gives (moved past the days
   * its location is closed). A checkout is the self-check's busiest call: its statements go in three
   * round trips (together.ts), the stamp and the first lock; the other locks and every read under
   * them; the writes. A refusal is the one the first failing step gives, in that order.
   * `statGroup` (the desk's statistics group) goes with the loan, and the hold it fills, into the
   * circulation log.
   */
  async checkout(patronId: string, item: { itemId?: string; itemBarcode?: string }, statGroup?: number): Promise<Loan> {
    checkStatGroup(statGroup);
    return this.db.transaction(async (tx) => {
      const itemId = item.itemId ?? (item.itemBarcode !== undefined ? await this.items.idOfBarcode(tx, item.itemBarcode) : undefined);
      if (!itemId) throw refuseLoan.itemNotFound(item.itemBarcode !== undefined ? `item with barcode ${item.itemBarcode}` : 'item');
      const [at, bibIds, now] = await together([circulationStamp(tx), this.holds.lockQueues(tx, itemId), this.library.now(tx)]);
      const [, , rule, closed, filled, checkoutId] = await together([
        this.holds.lockParties(tx, itemId, patronId, now).then(({ item: locked }) => {
          if (!locked) throw refuseLoan.itemNotFound(`item ${itemId}`);
        }),
        repo.activeCheckout(tx, itemId).then((open) => {
          if (open) throw refuseLoan.alreadyCheckedOut(itemId);
        }),
        this.library.ruleForLoan(tx, patronId, itemId),
        this.library.closedDaysOfItem(tx, itemId, now.today),
        this.holds.holdToFill(tx, patronId, itemId, bibIds),
        repo.newCheckoutId(tx),
      ]);
      // (Both are there: lockParties found them, under their locks.)
      if (!rule) throw refuseLoan.itemNotFound(`item ${itemId}`);
      const due = openDayAfter(now.today, rule.loanDays, closed);
      const bibId = bibIds[0] ?? null;
      await together([
        this.holds.lend(tx, patronId, itemId, filled, due, at, statGroup),
        this.history.record(tx, patronId, itemId, bibId),
        repo.insertCheckout(tx, checkoutId, patronId, itemId, due),
        this.circLog.record(tx, { op: 'o', at, patronId, itemId, bibId, due, checkoutId, statGroup }),
      ]);
      return { id: checkoutId, due };
    });
  }

  /** Checks an item in at `location` (default: the item's own location), logged with `statGroup`. */
  async checkin(itemId: string, location?: string, statGroup?: number): Promise<CheckinResult> {
    checkStatGroup(statGroup);
    if (location !== undefined && !(await this.branches.location(location))) throw fail.invalidInput(`location: no location ${location}`);
    return this.db.transaction(async (tx) => {
      const [at, { bibIds, item, today }] = await together([circulationStamp(tx), this.holds.lockForCirculation(tx, itemId)]);
      if (!item) throw fail.notFound(`no item ${itemId}`);
      const checkout = await repo.activeCheckout(tx, itemId);
      if (checkout) {
        await repo.returnCheckout(tx, checkout.id);
        if (checkout.due_date < today) {
          const loan = { checkoutId: checkout.id, patronId: checkout.patron_id, itemId, dueDate: checkout.due_date };
          await this.fines.assessOverdue(tx, { ...loan, itemType: item.item_type, location: item.location_code }, today, false, at);
        }
      }
      // Logged before the item moves on: with the location and type it came back with.
      await this.circLog.record(tx, {
        op: 'i',
        at,
        patronId: checkout?.patron_id ?? null,
        itemId,
        bibId: bibIds[0] ?? null,
        checkoutId: checkout?.id ?? null,
        statGroup,
      });
      const outcome = await this.holds.arrive(tx, itemId, bibIds, location ?? item.location_code, today, at);
      const status =
        outcome.kind === 'ready' ? ITEM_STATUS.onHoldShelf : outcome.kind === 'transit' ? ITEM_STATUS.inTransit : ITEM_STATUS.available;
      return {
        itemId,
        status,
        ...(outcome.kind === 'shelved' ? {} : { holdId: outcome.holdId }),
        ...(checkout ? { patronId: checkout.patron_id } : {}),
      };
    });
  }

  /**
   * Renews a loan: due again after its rule's loan period from today (never earlier than it was),
   * refused past the rule's renewals, when a hold of another patron wants the item, or when the
   * patron may not borrow (expired, blocked, the library's blocks). Logged with `statGroup`. With
   * `owner` (a patron acting for themselves), another patron's loan is answered as no loan at all,
   * before that patron's standing could be told by a refusal.
   */
  async renew(checkoutId: string, statGroup?: number, owner?: string): Promise<repo.CheckoutRow> {
    checkStatGroup(statGroup);
    return this.db.transaction(async (tx) => {
      const [at, parties] = await together([circulationStamp(tx), repo.checkoutParties(tx, checkoutId)]);
      if (!parties || (owner !== undefined && parties.patron_id !== owner)) throw fail.notFound(`no checkout ${checkoutId}`);
      const { bibIds, item, patron, today } = await this.holds.lockForCirculation(tx, parties.item_id, parties.patron_id);
      const loan = await repo.activeCheckout(tx, parties.item_id);
      // Returned (or returned and lent again) between the read and the locks.
      if (!item || !patron || loan?.id !== checkoutId) throw fail.notFound(`no checkout ${checkoutId}`);
      const rule = await this.library.ruleFor(tx, patron.patron_type, item.item_type, item.location_code);
      if (loan.renewals >= rule.renewals) throw refuseLoan.renewalLimit(rule.renewals);
      if (await this.holds.wantedByAnother(tx, item.id, bibIds, patron.id, today)) throw refuseLoan.wantedByHold(item.id);
      if (loan.due_date < today) {
        const ending = { checkoutId, patronId: patron.id, itemId: item.id, dueDate: loan.due_date };
        await this.fines.assessOverdue(tx, { ...ending, itemType: item.item_type, location: item.location_code }, today, true, at, rule);
      }
      const next = openDayAfter(today, rule.loanDays, await this.library.closedDaysOfItem(tx, item.id, today));
      const due = next > loan.due_date ? next : loan.due_date;
      await repo.renewCheckout(tx, checkoutId, due);
      await this.items.setStatus(tx, item.id, ITEM_STATUS.available, due, at);
      await this.circLog.record(tx, {
        op: 'r',
        at,
        patronId: patron.id,
        itemId: item.id,
        bibId: bibIds[0] ?? null,
        due,
        checkoutId,
        statGroup,
      });
      return (await repo.getCheckout(tx, checkoutId))!;
    });
  }

  /** An open checkout by id. */
  async loan(id: string): Promise<repo.CheckoutRow> {
    const row = await repo.getCheckout(this.db, id);
    if (!row) throw fail.notFound(`no checkout ${id}`);
    return row;
  }

  /** An item's open checkout, as a list of one or none. */
  async checkoutsOfItem(itemId: string): Promise<repo.CheckoutRow[]> {
    if (!(await this.items.exists(itemId))) throw fail.notFound(`no item ${itemId}`);
    return repo.checkoutsOfItem(this.db, itemId);
  }

  /**
   * Checks an item out by the patron's and the item's barcodes (a self-check or a resource-sharing
   * hub). With a PIN, the PIN is validated first, under the limits of PatronService.validate. With
   * an institution, only its patrons are found (PatronService.idOf).
   */
  async checkoutByBarcodes(
    patronBarcode: string,
    item: { itemId?: string; itemBarcode?: string },
    pin: string | undefined,
    keyId: string,
    institution?: string,
    statGroup?: number,
  ): Promise<Loan> {
    checkStatGroup(statGroup);
    const patronId =
      pin === undefined
        ? await this.patrons.idOf({ kind: 'barcode', value: patronBarcode }, institution)
        : await this.patrons.validate(patronBarcode, pin, keyId, true, institution);
    return this.checkout(patronId, item, statGroup);
  }

  /** Checks in the live item with this barcode. */
  async checkinByBarcode(barcode: string, statGroup?: number): Promise<CheckinResult> {
    checkStatGroup(statGroup);
    const itemId = await this.items.idOfBarcode(this.db, barcode);
    if (!itemId) throw fail.notFound(`no item with barcode ${barcode}`);
    return this.checkin(itemId, undefined, statGroup);
  }

  async checkouts(patronId: string, limit: number, offset: number): Promise<repo.CheckoutRow[]> {
    if (!(await this.patrons.exists(patronId))) throw fail.notFound(`no patron ${patronId}`);
    return repo.listCheckouts(this.db, patronId, limit, offset);
  }
}

export type { LoanWithTitle } from './repository.ts';

/** A patron's open loans as an SQL fragment for another domain's statement (the catalogue's account page reads them with the patron's other lists in one round trip). */
export const loanRows = { openOfPatronJson: repo.openLoansOfPatronJson };
