// Rules for holds. Every change runs in one transaction that first locks the bib rows of the
// queue it touches (ascending ids), so placements, check-ins, cancellations and expiry on one
// queue take turns: placement order is id order, and a queue never has a gap or a duplicate.
import { checkStatGroup, type CircLogService } from '../circ-log/service.ts';
import { addMonths } from '../shared/calendar.ts';
import { stamp } from '../db/change-clock.ts';
import { together } from '../db/together.ts';
import type { ItemService } from '../items/service.ts';
import { ITEM_STATUS } from '../items/statuses.ts';
import type { LibraryService, Settings } from '../library/service.ts';
import type { PatronService, PatronState } from '../patrons/service.ts';
import type { Db, Queryable } from '../db/types.ts';
import { standing } from '../library/standing.ts';
import { fail } from '../shared/errors.ts';
import { parseDay } from '../shared/calendar.ts';
import { arrive, passItemOn, type LifecycleDeps } from './lifecycle.ts';
import { refuseHold } from './refusals.ts';
import * as bulk from './bulk-repository.ts';
import * as repo from './repository.ts';
import { HOLD_STATE, isActive } from './states.ts';

export interface HoldRequest {
  recordType: string;
  recordNumber: string | number;
  pickupLocation: string;
  neededBy?: string;
  note?: string;
  /** The statistics group of the desk or terminal placing it (Sierra's statgroup). */
  statgroup?: number;
}

export interface ExpiryResult {
  /** Waiting holds past their not-needed-after date. */
  unfilled: number;
  /** Ready holds not collected by their pickup-by date (their items passed on). */
  uncollected: number;
}

export class HoldService {
  constructor(
    private readonly db: Db,
    private readonly library: LibraryService,
    private readonly circLog: CircLogService,
    private readonly items: ItemService,
    private readonly patrons: PatronService,
  ) {
    this.lifecycle = { library, items };
  }

  private readonly lifecycle: LifecycleDeps;

  /** Today where the library is. */
  today(q: Queryable = this.db): Promise<string> {
    return this.library.today(q);
  }

  /** Places a hold; answers its id. */
  async place(patronId: string, req: HoldRequest): Promise<string> {
    if (req.recordType !== 'b' && req.recordType !== 'i') throw fail.invalidInput('recordType must be b or i');
    const recordId = String(req.recordNumber).replace(/^[bi]/, '');
    if (!/^\d{1,18}$/.test(recordId)) throw fail.invalidInput(`recordNumber: "${req.recordNumber}" is not a record number`);
    const settings = await this.library.now();
    const { today } = settings;
    const neededBy = req.neededBy === undefined ? addMonths(today, settings.holdMonths) : parseDay('neededBy', req.neededBy);
    if (neededBy === null || neededBy < today) throw fail.invalidInput('neededBy must be a date from today on');
    const note = (req.note ?? '').trim();
    if (note.length > 500) throw fail.invalidInput('note must have at most 500 characters');
    const statGroup = checkStatGroup(req.statgroup);
    return this.db.transaction(async (tx) => {
      const what = req.recordType === 'b' ? `bib ${recordId}` : `item ${recordId}`;
      let bibIds: string[];
      let item: (repo.ItemState & { holdable: boolean }) | undefined;
      if (req.recordType === 'b') {
        bibIds = await repo.lockBibs(tx, [recordId]);
        if (bibIds.length === 0) throw refuseHold.recordNotFound(what);
      } else {
        bibIds = await repo.lockBibsOfItem(tx, recordId);
        item = bibIds.length ? await repo.lockItemForRead(tx, recordId) : undefined;
        if (!item) throw refuseHold.recordNotFound(what);
        if (item.suppressed || !item.holdable) throw refuseHold.notHoldable(what);
      }
      const patron = await this.lockPatronInGoodStanding(tx, patronId, today, settings);
      const location = await repo.getLocation(tx, req.pickupLocation);
      if (!location?.pickup) throw refuseHold.notPickupLocation(req.pickupLocation);
      if (await repo.hasActiveHold(tx, patronId, req.recordType as 'b' | 'i', recordId)) throw refuseHold.alreadyOnHold(what);
      // The circulation rules: the held copy's, or for a bib the most generous of its copies'.
      let limit: number;
      if (item) {
        const rule = await this.library.ruleFor(tx, patron.patron_type, item.item_type, item.location_code);
        if (!rule.holdable) throw refuseHold.notHoldable(what);
        limit = rule.holdLimit ?? settings.holdLimit;
      } else {
        const holdable = await repo.holdableItemsOfBib(tx, recordId, patron.patron_type, settings.holdLimit);
        if ((await repo.bibSuppressed(tx, recordId)) || holdable.n === 0) throw refuseHold.notHoldable(what);
        limit = holdable.hold_limit;
      }
      if ((await repo.countActiveHolds(tx, patronId)) >= limit) throw refuseHold.holdLimit(limit);
      const holdId = await repo.insertHold(tx, {
        patronId,
        recordType: req.recordType as 'b' | 'i',
        bibId: bibIds[0]!,
        itemId: item ? recordId : null,
        pickupLocation: req.pickupLocation,
        placed: today,
        notNeededAfter: neededBy,
        note,
      });
      const op = req.recordType === 'b' ? 'nb' : 'ni';
      await this.circLog.record(tx, { op, patronId, itemId: item ? recordId : null, bibId: bibIds[0]!, holdId, statGroup });
      return holdId;
    });
  }

  async get(id: string): Promise<repo.HoldRow> {
    const row = await repo.getHold(this.db, id);
    if (!row) throw fail.notFound(`no hold ${id}`);
    return row;
  }

  async list(filter: repo.HoldListFilter): Promise<repo.HoldRow[]> {
    return repo.listHolds(this.db, filter);
  }

  async listOfPatron(patronId: string, filter: repo.HoldListFilter): Promise<repo.HoldRow[]> {
    const rows = await repo.listPatronHolds(this.db, patronId, filter);
    if (!rows) throw fail.notFound(`no patron ${patronId}`);
    return rows;
  }

  /** Runs fn with the hold's queue locked and the hold row locked; 404 for no hold. */
  private async withHold<T>(id: string, fn: (tx: Queryable, hold: repo.LockedHold, bibIds: string[]) => Promise<T>): Promise<T> {
    const queue = await repo.queueBibOfHold(this.db, id);
    if (!queue) throw fail.notFound(`no hold ${id}`);
    return this.db.transaction(async (tx) => {
      await stamp(tx); // a cancellation may pass an item on (items carry updatedDate)
      const bibIds = await repo.lockBibs(
        tx,
        queue.item_id ? [queue.bib_id, ...(await repo.bibsOfItem(tx, queue.item_id))] : [queue.bib_id],
      );
      const hold = await repo.lockHold(tx, id);
      if (!hold) throw fail.notFound(`no hold ${id}`);
      return fn(tx, hold, bibIds);
    });
  }

  /**
   * Freezes, unfreezes or moves an active hold. With `owner` (a patron acting for themselves),
   * another patron's hold is answered as no hold at all, as cancel answers it.
   */
  async update(id: string, changes: { freeze?: boolean; pickupLocation?: string }, owner?: string): Promise<void> {
    await this.withHold(id, async (tx, hold) => {
      if (owner !== undefined && hold.patron_id !== owner) throw fail.notFound(`no hold ${id}`);
      if (!isActive(hold.state)) throw fail.notFound(`hold ${id} is no longer active`);
      if (changes.pickupLocation !== undefined) {
        const location = await repo.getLocation(tx, changes.pickupLocation);
        if (!location?.pickup) throw refuseHold.notPickupLocation(changes.pickupLocation);
      }
      const moving = changes.pickupLocation !== undefined && changes.pickupLocation !== hold.pickup_location;
      if (hold.state === HOLD_STATE.ready && (changes.freeze === true || moving)) throw refuseHold.holdReady(id);
      // A hold in transit has its item already: it is filled, not frozen.
      if (hold.state === HOLD_STATE.inTransit && changes.freeze === true) throw refuseHold.holdReady(id);
      await repo.updateHold(tx, id, { frozen: changes.freeze, pickupLocation: changes.pickupLocation });
    });
  }

  /**
   * Cancels an active hold; its trapped item, if any, passes to the next hold. With `owner` (a
   * patron acting for themselves), another patron's hold is answered as no hold at all, so the
   * answer does not tell which ids exist.
   */
  async cancel(id: string, owner?: string): Promise<void> {
    await this.withHold(id, async (tx, hold) => {
      if (owner !== undefined && hold.patron_id !== owner) throw fail.notFound(`no hold ${id}`);
      if (!isActive(hold.state)) throw fail.notFound(`hold ${id} is no longer active`);
      await this.finish(tx, hold, HOLD_STATE.cancelled, 'cancelled');
    });
  }

  async cancelAll(patronId: string): Promise<number> {
    if (!(await this.patrons.exists(patronId))) throw fail.notFound(`no patron ${patronId}`);
    return this.db.transaction(async (tx) => {
      await stamp(tx); // a cancellation may pass an item on (items carry updatedDate)
      await this.lockQueuesOf(tx, patronId);
      return this.cancelHoldsIn(tx, patronId);
    });
  }

  /** Locks the queues (bibs) of a patron's active holds, in id order, as every hold change does first. */
  async lockQueuesOf(tx: Queryable, patronId: string): Promise<void> {
    await repo.lockBibs(tx, await repo.queueBibsOfPatron(tx, patronId));
  }

  /**
   * Cancels every active hold of a patron, live or deleted (passing trapped items on), in the
   * caller's transaction (after stamp and lockQueuesOf).
   */
  async cancelHoldsIn(tx: Queryable, patronId: string): Promise<number> {
    let n = 0;
    for (const id of await repo.activeHoldIds(tx, patronId)) {
      const queue = await repo.queueBibOfHold(tx, id);
      if (!queue) continue;
      await repo.lockBibs(tx, queue.item_id ? [queue.bib_id, ...(await repo.bibsOfItem(tx, queue.item_id))] : [queue.bib_id]); // held already but for a hold placed meanwhile
      const hold = await repo.lockHold(tx, id);
      if (hold && isActive(hold.state)) {
        await this.finish(tx, hold, HOLD_STATE.cancelled, 'cancelled');
        n++;
      }
    }
    return n;
  }

  private async finish(
    tx: Queryable,
    hold: repo.LockedHold,
    state: typeof HOLD_STATE.expired | typeof HOLD_STATE.cancelled,
    reason: string,
  ): Promise<void> {
    await repo.finishHold(tx, hold.id, state, reason);
    const heldItem = hold.item_id ?? hold.trapped_item_id;
    await this.circLog.record(tx, { op: 'x', patronId: hold.patron_id, itemId: heldItem, bibId: hold.bib_id, holdId: hold.id });
    if (!hold.trapped_item_id) return;
    const itemId = hold.trapped_item_id;
    const bibIds = await repo.lockBibsOfItem(tx, itemId); // held already, but for a bound-with volume's other bibs
    const item = await repo.lockItem(tx, itemId);
    if (!item) return;
    // On the shelf, the item is at the pickup location; in transit, it is treated as back home.
    const at = hold.state === HOLD_STATE.ready ? hold.pickup_location : item.location_code;
    await passItemOn(this.lifecycle, tx, itemId, bibIds, at, await this.today(tx), await stamp(tx));
  }

  /**
   * Expires waiting holds past their not-needed-after date and ready holds past their pickup-by
   * date (their items pass to the next hold). Each hold in its own transaction, re-checked under
   * its locks, so several processes running this at once never expire a hold twice.
   */
  async expire(): Promise<ExpiryResult> {
    const today = await this.today();
    const result: ExpiryResult = { unfilled: 0, uncollected: 0 };
    for (;;) {
      const due = await repo.holdsToExpire(this.db, today, 500);
      const before = result.unfilled + result.uncollected;
      for (const { id } of due) {
        await this.withHold(id, async (tx, hold) => {
          if (hold.state === HOLD_STATE.waiting && (await repo.stillDue(tx, id, today))) {
            await this.finish(tx, hold, HOLD_STATE.expired, 'not needed after');
            result.unfilled++;
          } else if (hold.state === HOLD_STATE.ready && hold.pickup_by! < today) {
            await this.finish(tx, hold, HOLD_STATE.expired, 'not collected');
            result.uncollected++;
          }
        });
      }
      // Another process expiring the same holds meanwhile: stop when a pass changed nothing.
      if (due.length < 500 || result.unfilled + result.uncollected === before) return result;
    }
  }

  /**
   * Takes the locks of a change to an item's circulation: the item's bibs (their hold queues) first,
   * as every change to holds takes them, so checkouts, check-ins and hold changes of the same bibs
   * take turns; then the patron (refused unless in good standing), then the item. Call it first in
   * the transaction, after the change clock's stamp (it may be sent together with the stamp).
   */
  async lockForCirculation(
    tx: Queryable,
    itemId: string,
    patronId?: string,
  ): Promise<{ bibIds: string[]; item: repo.ItemState | undefined; patron: PatronState | undefined; today: string }> {
    const [bibIds, now] = await together([this.lockQueues(tx, itemId), this.library.now(tx)]);
    return { bibIds, ...(await this.lockParties(tx, itemId, patronId, now)), today: now.today };
  }

  /** The first of lockForCirculation's locks, for a caller that sends more beside it: the item's bibs. */
  lockQueues(tx: Queryable, itemId: string): Promise<string[]> {
    return repo.lockBibsOfItem(tx, itemId);
  }

  /** The rest of lockForCirculation's locks, sent together, after lockQueues: the patron (refused unless in good standing), then the item. */
  async lockParties(
    tx: Queryable,
    itemId: string,
    patronId: string | undefined,
    now: Settings & { today: string },
  ): Promise<{ item: repo.ItemState | undefined; patron: PatronState | undefined }> {
    const [patron, item] = await together([
      patronId === undefined ? undefined : this.lockPatronInGoodStanding(tx, patronId, now.today, now),
      repo.lockItem(tx, itemId),
    ]);
    return { item, patron };
  }

  /**
   * The hold a checkout fills: the patron's hold the item was trapped for, or a waiting one it can
   * fill (both read at once); refused when the item waits on the hold shelf for another patron.
   * Under lockForCirculation.
   */
  async holdToFill(tx: Queryable, patronId: string, itemId: string, bibIds: string[]): Promise<repo.LockedHold | undefined> {
    const [trapped, waiting] = await together([repo.holdTrapping(tx, itemId), repo.waitingHoldOfPatron(tx, patronId, itemId, bibIds)]);
    if (trapped && trapped.patron_id !== patronId) throw refuseHold.heldForAnother(itemId);
    return trapped ?? waiting;
  }

  /**
   * A checkout's writes to holds: the hold it fills (holdToFill) finished, logged with the
   * checkout's statistics group, and the item on loan until due. Under lockForCirculation.
   */
  async lend(
    tx: Queryable,
    patronId: string,
    itemId: string,
    filled: repo.LockedHold | undefined,
    due: string,
    at: Date,
    statGroup?: number,
  ): Promise<void> {
    await together([
      filled && repo.finishHold(tx, filled.id, HOLD_STATE.filled, 'checked out'),
      filled && this.circLog.record(tx, { op: 'f', at, patronId, itemId, holdId: filled.id, statGroup }),
      this.items.setStatus(tx, itemId, ITEM_STATUS.available, due, at),
    ]);
  }

  /** Whether a hold of another patron waits for this item (it could fill it today): a loan of it is not renewed. Under lockForCirculation. */
  async wantedByAnother(tx: Queryable, itemId: string, bibIds: string[], patronId: string, today: string): Promise<boolean> {
    const next = await repo.nextHoldFor(tx, itemId, bibIds, today);
    return next !== undefined && next.patron_id !== patronId;
  }

  /** A checked-in item goes to the next hold it can fill, in transit or on the hold shelf, or back on the shelf. Under lockForCirculation. */
  arrive(tx: Queryable, itemId: string, bibIds: string[], location: string | null, today: string, at: Date): ReturnType<typeof arrive> {
    return arrive(this.lifecycle, tx, itemId, bibIds, location, today, at);
  }

  /** Locks the patron, refusing one that does not exist, has expired, or is blocked (by hand, or by the library's blocks). */
  private async lockPatronInGoodStanding(tx: Queryable, patronId: string, today: string, settings: Settings): Promise<PatronState> {
    const patron = await this.patrons.lockForCirculation(tx, patronId, today);
    if (!patron) throw fail.notFound(`no patron ${patronId}`);
    const found = standing(patron, today, settings);
    if (found.ok) return patron;
    switch (found.reason) {
      case 'expired':
        throw refuseHold.patronExpired(patronId, found.expirationDate);
      case 'blocked':
        throw refuseHold.patronBlocked(patronId, found.blockCode);
      case 'owesTooMuch':
        throw refuseHold.owesTooMuch(patronId, found.owed, found.limit);
      case 'tooManyOverdue':
        throw refuseHold.tooManyOverdue(patronId, found.overdue, found.limit);
    }
  }
}

export type { BulkHold } from './bulk-repository.ts';
export type { HoldRow, HoldSummary } from './repository.ts';
export { HOLDABLE_STATUSES } from './repository.ts';

/** What the generated catalogue's loader writes in its own transactions, queues locked first. */
export const holdLoader = { lockQueues: bulk.lockQueuesOfBulkHolds, insert: bulk.insertBulkHolds };

/** A patron's active holds as an SQL fragment for another domain's statement (the catalogue's account page reads them with the patron's other lists in one round trip). */
export const holdRows = { activeOfPatronJson: repo.activeHoldsOfPatronJson };
