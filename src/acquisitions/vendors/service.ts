// Rules for vendors: a code (fixed once made) and a name, with optional contact details.
import { stamp } from '../../db/change-clock.ts';
import type { Db, Queryable } from '../../db/types.ts';
import { fail } from '../../shared/errors.ts';
import type { IdFilter } from '../../shared/filters.ts';
import { refuse } from '../refusals.ts';
import * as repo from './repository.ts';

export type { VendorRow } from './repository.ts';

const CODE = /^[a-z0-9]{1,15}$/;
const MAX_LENGTH: Record<repo.VendorTextField, number> = {
  address1: 500,
  address2: 500,
  contact: 200,
  email: 200,
  phone: 100,
  acctNum: 100,
};

/** A vendor code; refused as 108 in a path or query parameter, 126 in a request body. */
export function parseVendorCode(field: string, raw: string, from: 'parameter' | 'body' = 'parameter'): string {
  if (!CODE.test(raw)) {
    const why = `${field}: "${raw}" is not a vendor code (1 to 15 lower-case letters or digits)`;
    throw from === 'body' ? fail.invalidInput(why) : fail.invalidParameter(why);
  }
  return raw;
}

export type VendorDetails = Partial<Record<repo.VendorTextField, string | null>>;

/** The given text fields trimmed; empty or null clears one. */
function details(input: VendorDetails): VendorDetails {
  const out: VendorDetails = {};
  for (const field of Object.keys(MAX_LENGTH) as repo.VendorTextField[]) {
    const raw = input[field];
    if (raw === undefined) continue;
    const value = (raw ?? '').trim();
    if (value.length > MAX_LENGTH[field]) throw fail.invalidInput(`${field}: at most ${MAX_LENGTH[field]} characters`);
    out[field] = value || null;
  }
  return out;
}

function name(raw: string): string {
  const value = raw.trim();
  if (!value || value.length > 200) throw fail.invalidInput('vendorName must have 1 to 200 characters');
  return value;
}

function accountingUnit(raw: number | undefined): number | undefined {
  if (raw !== undefined && (!Number.isInteger(raw) || raw < 0 || raw > 999))
    throw fail.invalidInput('accountingUnit must be a whole number from 0 to 999');
  return raw;
}

export interface VendorInput extends VendorDetails {
  code: string;
  vendorName: string;
  accountingUnit?: number;
}

export interface VendorUpdate extends VendorDetails {
  vendorName?: string;
  accountingUnit?: number;
}

export class VendorService {
  constructor(private readonly db: Db) {}

  list(filter: { id?: IdFilter; limit: number; offset: number }): Promise<repo.VendorRow[]> {
    return repo.listVendors(this.db, filter);
  }

  async get(id: string): Promise<repo.VendorRow> {
    const row = await repo.getVendor(this.db, id);
    if (!row) throw fail.notFound(`no vendor ${id}`);
    return row;
  }

  async byCode(code: string): Promise<repo.VendorRow> {
    const row = await repo.vendorByCode(this.db, parseVendorCode('code', code));
    if (!row) throw fail.notFound(`no vendor ${code}`);
    return row;
  }

  /** Creates a vendor; answers its id. */
  async create(input: VendorInput): Promise<string> {
    const vendor: repo.NewVendor = {
      ...details(input),
      code: parseVendorCode('code', input.code, 'body'),
      vendorName: name(input.vendorName),
      accountingUnit: accountingUnit(input.accountingUnit) ?? 0,
    };
    const id = await this.db.transaction(async (tx) => repo.insertVendor(tx, vendor, await stamp(tx)));
    if (!id) throw refuse.codeTaken('vendor', vendor.code);
    return id;
  }

  async update(id: string, input: VendorUpdate): Promise<void> {
    const changes: repo.VendorChanges = {
      ...details(input),
      vendorName: input.vendorName === undefined ? undefined : name(input.vendorName),
      accountingUnit: accountingUnit(input.accountingUnit),
    };
    const found = await this.db.transaction(async (tx) => repo.updateVendor(tx, id, changes, await stamp(tx)));
    if (!found) throw fail.notFound(`no vendor ${id}`);
  }

  /** The vendor with this code, read in the caller's transaction. */
  findByCode(tx: Queryable, code: string): Promise<repo.VendorRow | undefined> {
    return repo.vendorByCode(tx, code);
  }
}
