// Holdings records: read by bib or as a list, and written with the bibs they belong to (a bib's own
// holdings fields with every write of the bib, holdings records by the import).
import { horizonForReads } from '../db/change-clock.ts';
import type { Db, Queryable } from '../db/types.ts';
import { marcInJsonText } from '../marc/marc-in-json.ts';
import type { MarcRecord } from '../marc/record.ts';
import { fail } from '../shared/errors.ts';
import { holdingsLocation, holdingsOfBib, holdingsRecordKeys } from './from-marc.ts';
import * as repo from './repository.ts';

export type { HoldingRow, HoldingWrite } from './repository.ts';

export class HoldingsService {
  /** @param reads for harvests' lists, which may come from a read replica (Deps.reads) */
  constructor(
    private readonly db: Db,
    private readonly reads: Db = db,
  ) {}

  async list(filter: Omit<repo.HoldingListFilter, 'horizon'>): Promise<repo.HoldingRow[]> {
    const byDate = filter.createdDate || filter.updatedDate || filter.deletedDate;
    return repo.listHoldings(this.reads, { ...filter, horizon: byDate ? await horizonForReads(this.db) : undefined });
  }

  async get(id: string): Promise<repo.HoldingRow> {
    const row = await repo.getHolding(this.db, id);
    if (!row) throw fail.notFound(`no holdings record ${id}`);
    return row;
  }
}

/** A bib's own holdings fields as the holdings records written for it. */
export function bibHoldingWrites(bib: MarcRecord): repo.HoldingWrite[] {
  return holdingsOfBib(bib).map((record) => ({ marc: marcInJsonText(record), location: holdingsLocation(record) ?? null }));
}

/** A holdings record read from a file, ready to be linked to its bib and written. */
export interface PreparedHoldingsRecord {
  marc: string;
  controlNumber?: string;
  bibControlNumber?: string;
  location?: string;
  position: string;
}

export function prepareHoldingsRecord(record: MarcRecord, position: string): PreparedHoldingsRecord {
  return { marc: marcInJsonText(record), ...holdingsRecordKeys(record), position };
}

/** Why a prepared holdings record cannot be written, or its bib: the live bib whose 001 its 004 names. */
function bibOf(record: PreparedHoldingsRecord, bibs: Map<string, string[]>): { bibId: string } | { why: string } {
  if (!record.controlNumber) return { why: 'a holdings record without a 001: it could not be recognised when loaded again' };
  if (!record.bibControlNumber) return { why: `holdings record ${record.controlNumber} has no 004 naming its bib` };
  const ids = bibs.get(record.bibControlNumber) ?? [];
  if (ids.length === 0) return { why: `holdings record ${record.controlNumber}: no bib has 001 ${record.bibControlNumber} (its 004)` };
  if (ids.length > 1)
    return { why: `holdings record ${record.controlNumber}: bibs ${ids.join(', ')} all have 001 ${record.bibControlNumber} (its 004)` };
  return { bibId: ids[0]! };
}

/** What the import writes in its own transactions. */
export const holdingsLoader = {
  /** Makes each bib's own holdings those its MARC states (none: its old ones are deleted). */
  replaceOfBibs: (tx: Queryable, bibs: { bibId: string; holdings: repo.HoldingWrite[] }[], stamp: Date) =>
    repo.replaceBibHoldings(tx, bibs, stamp),
  tombstoneOfBib: repo.tombstoneBibHoldings,
  /**
   * Writes holdings records (their bibs loaded already), adding or replacing each by its 001; a
   * later record with the same 001 wins. Answers the counts and the records refused, with why.
   */
  async writeRecords(
    tx: Queryable,
    records: PreparedHoldingsRecord[],
    stamp: Date,
  ): Promise<{ created: number; updated: number; refused: { record: PreparedHoldingsRecord; why: string }[] }> {
    const found = await repo.bibsByControlNumber(tx, [
      ...new Set(records.flatMap((r) => (r.bibControlNumber ? [r.bibControlNumber] : []))),
    ]);
    const bibs = new Map<string, string[]>();
    for (const b of found) bibs.set(b.control_number, [...(bibs.get(b.control_number) ?? []), b.id]);
    const refused: { record: PreparedHoldingsRecord; why: string }[] = [];
    const byControl = new Map<string, repo.HoldingsRecordWrite>();
    for (const record of records) {
      const bib = bibOf(record, bibs);
      if ('why' in bib) refused.push({ record, why: bib.why });
      else
        byControl.set(record.controlNumber!, {
          bibId: bib.bibId,
          controlNumber: record.controlNumber!,
          marc: record.marc,
          location: record.location ?? null,
        });
    }
    const written = await repo.upsertHoldingsRecords(tx, [...byControl.values()], stamp);
    return { ...written, refused };
  },
};
