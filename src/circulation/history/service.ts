// Reading history: kept only for a patron who turned it on, newest first; a row or all of it can
// be deleted; turning it off deletes it.
import type { Db, Queryable } from '../../db/types.ts';
import { fail } from '../../shared/errors.ts';
import * as repo from './repository.ts';

export type { HistoryRow } from './repository.ts';

export class ReadingHistoryService {
  constructor(private readonly db: Db) {}

  /** In a checkout's transaction: the checkout is kept when the patron keeps a history. */
  record(tx: Queryable, patronId: string, itemId: string, bibId: string | null): Promise<void> {
    return repo.recordCheckout(tx, patronId, itemId, bibId);
  }

  async active(patronId: string): Promise<boolean> {
    const on = await repo.historyActive(this.db, patronId);
    if (on === undefined) throw fail.notFound(`no patron ${patronId}`);
    return on;
  }

  async activate(patronId: string, on: boolean): Promise<void> {
    const found = await this.db.transaction((tx) => repo.setHistory(tx, patronId, on));
    if (!found) throw fail.notFound(`no patron ${patronId}`);
  }

  async list(patronId: string, newestFirst: boolean, limit: number, offset: number): Promise<repo.HistoryRow[]> {
    if (!(await this.active(patronId))) throw fail.historyOff(`patron ${patronId} keeps no reading history`);
    return repo.listHistory(this.db, patronId, newestFirst, limit, offset);
  }

  /** Deletes one row (404 when the patron has no such row) or all of the patron's history. */
  async delete(patronId: string, id?: string): Promise<void> {
    if (!(await this.active(patronId))) throw fail.historyOff(`patron ${patronId} keeps no reading history`);
    const deleted = await repo.deleteHistory(this.db, patronId, id);
    if (id !== undefined && deleted === 0) throw fail.notFound(`patron ${patronId} has no reading history entry ${id}`);
  }
}

export type { HistoryWithTitle } from './repository.ts';

/** A patron's reading history as an SQL fragment for another domain's statement (the catalogue's account page reads them with the patron's other lists in one round trip). */
export const historyRows = { ofPatronJson: repo.historyOfPatronJson };
