// The circulation transaction log: what circulation, holds and fines did, written in their own
// transactions (so an event is logged exactly when it happens: a rolled-back checkout logs
// nothing), read through sierra_view.circ_trans by the library's reports.
import type { Db, Queryable } from '../db/types.ts';
import * as repo from './repository.ts';

export type { CircEvent, CircOp } from './repository.ts';

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
