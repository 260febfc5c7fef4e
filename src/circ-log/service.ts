// The circulation transaction log: what circulation, holds and fines did, written in their own
// transactions (so an event is logged exactly when it happens: a rolled-back checkout logs
// nothing), read through sierra_view.circ_trans by the library's reports.
import type { Db, Queryable } from '../db/types.ts';
import { fail } from '../shared/errors.ts';
import * as repo from './repository.ts';

export type { CircEvent, CircOp } from './repository.ts';

/** Sierra's statistics groups are numbered 0 to 999. */
const STAT_GROUP_MAX = 999;

/**
 * A request's statistics group (Sierra's statgroup), refused unless a whole number from 0 to 999;
 * undefined when the request gave none. Each door checks its own form first; this holds for all.
 */
export function checkStatGroup(statGroup: number | undefined): number | undefined {
  if (statGroup === undefined) return undefined;
  if (!Number.isInteger(statGroup) || statGroup < 0 || statGroup > STAT_GROUP_MAX) {
    throw fail.invalidInput(`statgroup must be a whole number from 0 to ${STAT_GROUP_MAX}`);
  }
  return statGroup;
}

export class CircLogService {
  constructor(
    private readonly db: Db,
    private readonly keepDays: number,
  ) {}

  /** Logs one event in the caller's transaction. */
  record(tx: Queryable, event: repo.CircEvent): Promise<void> {
    return repo.insertEvent(tx, event);
  }

  /** Deletes events older than the kept period (CARREL_CIRC_TRANS_DAYS); answers how many. */
  forgetOld(now = new Date()): Promise<number> {
    return repo.deleteBefore(this.db, new Date(now.getTime() - this.keepDays * 86_400_000));
  }
}
