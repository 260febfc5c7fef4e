// Check-out and check-in. Each runs in one transaction that takes the change clock, then the
// item's bibs (the hold queues it can fill), the patron and the item, in that order (the same
// order as src/holds/service.ts), so two check-ins of the last copy fill two holds, never one twice.
import type { CirculationConfig } from '../config.ts';
import { stamp } from '../db/change-clock.ts';
import type { Db } from '../db/types.ts';
import { fail } from '../shared/errors.ts';
import { arrive } from '../holds/lifecycle.ts';
import { refuseHold } from '../holds/refusals.ts';
import * as holds from '../holds/repository.ts';
import { addDays, type Clock } from '../shared/calendar.ts';
import * as repo from './repository.ts';

export interface CheckinResult {
  itemId: string;
  /** The item's status after: '!' on the hold shelf, 't' in transit, '-' back on the shelf. */
  status: string;
  holdId?: string;
}

export class CirculationService {
  constructor(private readonly db: Db, private readonly clock: Clock, private readonly rules: CirculationConfig) {}

  async checkout(patronId: string, item: { itemId?: string; itemBarcode?: string }): Promise<string> {
    const today = this.clock.today();
    return this.db.transaction(async (tx) => {
      const at = await stamp(tx);
      const itemId = item.itemId ?? (item.itemBarcode !== undefined ? await holds.itemIdOfBarcode(tx, item.itemBarcode) : undefined);
      if (!itemId) throw refuseHold.recordNotFound(item.itemBarcode !== undefined ? `item with barcode ${item.itemBarcode}` : 'item');
      const bibIds = await holds.lockBibs(tx, await holds.bibsOfItem(tx, itemId));
      const patron = await holds.lockPatron(tx, patronId);
      if (!patron) throw fail.notFound(`no patron ${patronId}`);
      if (patron.expiration_date && patron.expiration_date < today) throw refuseHold.patronExpired(patronId, patron.expiration_date);
      if (patron.block_code !== '-') throw refuseHold.patronBlocked(patronId, patron.block_code);
      const locked = await holds.lockItem(tx, itemId);
      if (!locked) throw refuseHold.recordNotFound(`item ${itemId}`);
      if (await repo.activeCheckout(tx, itemId)) throw refuseHold.alreadyCheckedOut(itemId);
      const trapped = await holds.holdTrapping(tx, itemId);
      if (trapped && trapped.patron_id !== patronId) throw refuseHold.heldForAnother(itemId);
      const filled = trapped ?? (await holds.waitingHoldOfPatron(tx, patronId, itemId, bibIds));
      if (filled) await holds.finishHold(tx, filled.id, 'f', 'checked out');
      const due = addDays(today, this.rules.loanDays);
      const id = await repo.insertCheckout(tx, patronId, itemId, due);
      await holds.setItemStatus(tx, itemId, '-', due, at);
      return id;
    });
  }

  /** Checks an item in at `location` (default: the item's own location). */
  async checkin(itemId: string, location?: string): Promise<CheckinResult> {
    const today = this.clock.today();
    if (location !== undefined && !(await holds.getLocation(this.db, location))) throw fail.invalidInput(`location: no location ${location}`);
    return this.db.transaction(async (tx) => {
      const at = await stamp(tx);
      const bibIds = await holds.lockBibs(tx, await holds.bibsOfItem(tx, itemId));
      const item = await holds.lockItem(tx, itemId);
      if (!item) throw fail.notFound(`no item ${itemId}`);
      const checkout = await repo.activeCheckout(tx, itemId);
      if (checkout) await repo.returnCheckout(tx, checkout.id);
      const outcome = await arrive(tx, itemId, bibIds, location ?? item.location_code, today, at);
      const status = outcome.kind === 'ready' ? '!' : outcome.kind === 'transit' ? 't' : '-';
      return { itemId, status, ...(outcome.kind === 'shelved' ? {} : { holdId: outcome.holdId }) };
    });
  }

  async checkouts(patronId: string, limit: number, offset: number): Promise<repo.CheckoutRow[]> {
    if (!(await holds.patronExists(this.db, patronId))) throw fail.notFound(`no patron ${patronId}`);
    return repo.listCheckouts(this.db, patronId, limit, offset);
  }
}
