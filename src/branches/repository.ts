// SQL for branches and their locations.
import type { Queryable } from '../db/types.ts';

export interface LocationRow {
  code: string;
  name: string;
  branch_id: number;
  pickup: boolean;
  hold_shelf_days: number;
}

export interface BranchRow {
  id: number;
  name: string;
  address: string | null;
}

export type BranchWithLocations = BranchRow & { locations: LocationRow[] };

/** The channel every change to branches or locations is announced on (migration 0082). */
export const BRANCHES_CHANGED = 'carrel_branches_changed';

/** A branch's row with its locations in code order (as listLocations orders them): one round trip for a branch and what it holds. */
const WITH_LOCATIONS = `select b.id, b.name, b.address,
  (select coalesce(json_agg(json_build_object('code', l.code, 'name', l.name, 'branch_id', l.branch_id, 'pickup', l.pickup,
     'hold_shelf_days', l.hold_shelf_days) order by l.code), '[]')
   from locations l where l.branch_id = b.id) as locations
  from branches b`;

export async function listBranches(db: Queryable, limit: number, offset: number): Promise<BranchWithLocations[]> {
  return db.query<BranchWithLocations>(`${WITH_LOCATIONS} order by b.id limit $1 offset $2`, [limit, offset]);
}

export async function getBranch(db: Queryable, id: number): Promise<BranchWithLocations | undefined> {
  return (await db.query<BranchWithLocations>(`${WITH_LOCATIONS} where b.id = $1`, [id]))[0];
}

export async function listLocations(db: Queryable): Promise<LocationRow[]> {
  return db.query<LocationRow>('select code, name, branch_id, pickup, hold_shelf_days from locations order by code');
}

/**
 * Every location in code order, as one json array of { code, name, pickup } (listLocations'
 * order): for a statement that reads them beside other things in one round trip.
 */
export const LOCATIONS_JSON = `(select coalesce(json_agg(json_build_object('code', code, 'name', name, 'pickup', pickup) order by code), '[]')
  from locations)`;

export async function getLocation(db: Queryable, code: string): Promise<LocationRow | undefined> {
  return (await db.query<LocationRow>('select code, name, branch_id, pickup, hold_shelf_days from locations where code = $1', [code]))[0];
}

/** Each institution's home libraries: the locations of the branches that name it. */
export async function locationsOfInstitutions(db: Queryable): Promise<{ institution: string; code: string }[]> {
  return db.query<{ institution: string; code: string }>(
    `select b.institution, l.code from branches b join locations l on l.branch_id = b.id
     where b.institution is not null order by b.institution, l.code collate "C"`,
  );
}

export async function insertBranch(tx: Queryable, name: string, address: string | null): Promise<number> {
  return (await tx.query<{ id: number }>('insert into branches (name, address) values ($1, $2) returning id', [name, address]))[0]!.id;
}

export async function insertLocation(tx: Queryable, location: Omit<LocationRow, 'branch_id'>, branchId: number): Promise<void> {
  await tx.query('insert into locations (code, name, branch_id, pickup, hold_shelf_days) values ($1, $2, $3, $4, $5)', [
    location.code,
    location.name,
    branchId,
    location.pickup,
    location.hold_shelf_days,
  ]);
}
