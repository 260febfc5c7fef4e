// Rules for branches and their locations: what the API lists and what loaders create.
import type { Db } from '../db/types.ts';
import { fail } from '../shared/errors.ts';
import * as repo from './repository.ts';

export type { BranchRow, BranchWithLocations, LocationRow } from './repository.ts';

export class BranchService {
  constructor(private readonly db: Db) {}

  /** Branches with their locations. */
  list(limit: number, offset: number): Promise<repo.BranchWithLocations[]> {
    return repo.listBranches(this.db, limit, offset);
  }

  async get(id: string): Promise<repo.BranchWithLocations> {
    // Branch numbers are small; a longer one names no branch (and would not fit the column).
    const branch = id.length <= 9 ? await repo.getBranch(this.db, Number(id)) : undefined;
    if (!branch) throw fail.notFound(`no branch ${id}`);
    return branch;
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
