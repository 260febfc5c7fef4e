// Rules for branches and their locations: what the API lists and what loaders create.
import type { Db, Queryable } from '../db/types.ts';
import * as repo from './repository.ts';

export type { BranchRow, LocationRow } from './repository.ts';

export class BranchService {
  constructor(private readonly db: Db) {}

  list(limit: number, offset: number): Promise<repo.BranchRow[]> {
    return repo.listBranches(this.db, limit, offset);
  }

  /** Every location, or those of these branches. */
  locations(branchIds?: number[]): Promise<repo.LocationRow[]> {
    return repo.listLocations(this.db, branchIds);
  }

  /** A branch with its locations, in the caller's transaction (the demo catalogue). */
  async create(tx: Queryable, branch: { name: string; address: string | null }, locations: Omit<repo.LocationRow, 'branch_id'>[]): Promise<number> {
    const id = await repo.insertBranch(tx, branch.name, branch.address);
    for (const location of locations) await repo.insertLocation(tx, location, id);
    return id;
  }
}
