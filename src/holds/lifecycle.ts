// How an item moves holds along: called inside a transaction that already holds the locks of the
// item's bibs and the item (src/holds/repository.ts, "locks"), so one item fills one hold and one
// queue changes at a time.
import { openDayAfter } from '../shared/calendar.ts';
import type { Queryable } from '../db/types.ts';
import type { ItemService } from '../items/service.ts';
import { ITEM_STATUS } from '../items/statuses.ts';
import type { LibraryService } from '../library/service.ts';
import * as repo from './repository.ts';
import { HOLD_STATE } from './states.ts';

/** What moving an item along asks of other domains: a location's closed days, the item's status. */
export interface LifecycleDeps {
  library: Pick<LibraryService, 'closedDaysFrom'>;
  items: Pick<ItemService, 'setStatus'>;
}

/** The last day to collect a hold that is ready today at `location`. */
export async function pickupByDate(deps: LifecycleDeps, tx: Queryable, location: string, today: string): Promise<string> {
  const loc = await repo.getLocation(tx, location);
  return openDayAfter(today, loc?.hold_shelf_days ?? 7, await deps.library.closedDaysFrom(tx, location, today));
}

export type Outcome = { kind: 'ready' | 'transit'; holdId: string } | { kind: 'shelved' };

/**
 * The item is here, at `location`, and free: it fills the first hold waiting for it (ready when
 * `location` is that hold's pickup location, else in transit there), or goes back on the shelf.
 */
export async function passItemOn(
  deps: LifecycleDeps,
  tx: Queryable,
  itemId: string,
  bibIds: string[],
  location: string | null,
  today: string,
  stamp: Date,
): Promise<Outcome> {
  const hold = await repo.nextHoldFor(tx, itemId, bibIds, today);
  if (!hold) {
    await deps.items.setStatus(tx, itemId, ITEM_STATUS.available, null, stamp);
    return { kind: 'shelved' };
  }
  if (location !== null && hold.pickup_location === location) {
    await repo.trapHold(tx, hold.id, itemId, await pickupByDate(deps, tx, location, today));
    await deps.items.setStatus(tx, itemId, ITEM_STATUS.onHoldShelf, null, stamp);
    return { kind: 'ready', holdId: hold.id };
  }
  await repo.trapHold(tx, hold.id, itemId, null);
  await deps.items.setStatus(tx, itemId, ITEM_STATUS.inTransit, null, stamp);
  return { kind: 'transit', holdId: hold.id };
}

/**
 * The item arrives at `location` (checked in there). Trapped for a hold in transit to here: the hold
 * is ready. Trapped for a hold elsewhere: it stays in transit. Otherwise it passes on.
 */
export async function arrive(
  deps: LifecycleDeps,
  tx: Queryable,
  itemId: string,
  bibIds: string[],
  location: string | null,
  today: string,
  stamp: Date,
): Promise<Outcome> {
  const trapped = await repo.holdTrapping(tx, itemId);
  if (trapped?.state === HOLD_STATE.ready) return { kind: 'ready', holdId: trapped.id };
  if (trapped?.state === HOLD_STATE.inTransit) {
    if (location !== trapped.pickup_location) return { kind: 'transit', holdId: trapped.id };
    await repo.trapHold(tx, trapped.id, itemId, await pickupByDate(deps, tx, location, today));
    await deps.items.setStatus(tx, itemId, ITEM_STATUS.onHoldShelf, null, stamp);
    return { kind: 'ready', holdId: trapped.id };
  }
  return passItemOn(deps, tx, itemId, bibIds, location, today, stamp);
}
