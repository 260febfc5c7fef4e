// Rules for branches and their locations: what the API lists and what loaders create.
import { ChangeNotices } from '../db/change-notices.ts';
import type { Db } from '../db/types.ts';
import { fail } from '../shared/errors.ts';
import * as repo from './repository.ts';

export type { BranchRow, BranchWithLocations, LocationRow } from './repository.ts';

/** Branches kept in memory at most: a library system with more is read from the database each time. */
const KEPT_BRANCHES = 1000;

export class BranchService {
  /**
   * Every branch with its locations, by id, while this process hears of changes to them (on an
   * engine that delivers notifications: PostgreSQL). Every authenticated client reads them, and
   * reading them on each request cost more than the rest of such a request.
   */
  private kept: Promise<repo.BranchWithLocations[] | undefined> | undefined;
  private readonly changes: ChangeNotices;

  constructor(private readonly db: Db) {
    this.changes = new ChangeNotices(db, repo.BRANCHES_CHANGED, () => (this.kept = undefined));
  }

  /** Branches with their locations. */
  async list(limit: number, offset: number): Promise<repo.BranchWithLocations[]> {
    const all = await this.all();
    return all ? all.slice(offset, offset + limit) : repo.listBranches(this.db, limit, offset);
  }

  async get(id: string): Promise<repo.BranchWithLocations> {
    // Branch numbers are small; a longer one names no branch (and would not fit the column).
    if (id.length > 9) throw fail.notFound(`no branch ${id}`);
    const number = Number(id);
    const all = await this.all();
    const branch = all ? all.find((b) => b.id === number) : await repo.getBranch(this.db, number);
    if (!branch) throw fail.notFound(`no branch ${id}`);
    return branch;
  }

  /** Every branch, from memory while this process hears of changes; undefined while it does not, or when there are too many to keep. */
  private all(): Promise<repo.BranchWithLocations[] | undefined> | undefined {
    if (!this.changes.listening()) return undefined;
    if (!this.kept) {
      const mark = this.changes.mark();
      const reading = repo.listBranches(this.db, KEPT_BRANCHES + 1, 0).then((rows) => (rows.length > KEPT_BRANCHES ? undefined : rows));
      this.kept = reading;
      // A failed read is not kept; nor one a change overtook (it may not hold the change).
      const drop = () => {
        if (this.kept === reading) this.kept = undefined;
      };
      reading.then(() => {
        if (!this.changes.fresh(mark)) drop();
      }, drop);
    }
    return this.kept;
  }

  /** Every location. */
  locations(): Promise<repo.LocationRow[]> {
    return repo.listLocations(this.db);
  }

  location(code: string): Promise<repo.LocationRow | undefined> {
    return repo.getLocation(this.db, code);
  }

  /**
   * Each institution's home libraries: the codes of the locations of the branches the profile gives
   * that institution (README, "SIP2"). A patron whose home library is one of them is the institution's.
   */
  async homeLibrariesByInstitution(): Promise<Map<string, string[]>> {
    const byInstitution = new Map<string, string[]>();
    for (const { institution, code } of await repo.locationsOfInstitutions(this.db))
      byInstitution.set(institution, [...(byInstitution.get(institution) ?? []), code]);
    return byInstitution;
  }
}

/** What the demo catalogue's loader reads and writes in its own transaction. */
export const branchLoader = { locations: repo.listLocations, insertBranch: repo.insertBranch, insertLocation: repo.insertLocation };

/** Every location as an SQL fragment for another domain's statement (the catalogue's account page reads them with the patron's other lists in one round trip). */
export const locationRows = { allJson: repo.LOCATIONS_JSON };
