// Rules for bibliographic records: every write derives the fields kept beside the MARC, stamps the
// change clock and runs in one transaction, so nothing half-written is ever seen.
import { horizonForReads, stamp } from '../db/change-clock.ts';
import { bibHoldingWrites, holdingsLoader } from '../holdings/service.ts';
import type { ItemRow, ItemService } from '../items/service.ts';
import { countryName } from './countries.ts';
import type { Db } from '../db/types.ts';
import { fail } from '../shared/errors.ts';
import { fromMarcInJson, toMarcInJson } from '../marc/marc-in-json.ts';
import type { MarcRecord } from '../marc/record.ts';
import { deriveBib } from './derive.ts';
import { bibRefusal } from './refusal.ts';
import { BIB_LEVELS, languageName } from './codes.ts';
import * as repo from './repository.ts';

export const METADATA_FIELDS = ['materialType', 'bibLevel', 'language', 'country'] as const;
export type MetadataField = (typeof METADATA_FIELDS)[number];

export interface BibInput {
  marc: MarcRecord;
  suppressed?: boolean;
}

/** A record that cannot be kept as a bib is refused before any statement, in the import's words. */
function refuseUnlessBib(input: BibInput): void {
  const why = bibRefusal(input.marc);
  if (why !== undefined) throw fail.invalidInput(why);
}

export class BibService {
  /** @param reads for harvests' lists, which may come from a read replica (Deps.reads) */
  constructor(
    private readonly db: Db,
    private readonly items: ItemService,
    private readonly reads: Db = db,
  ) {}

  async create(input: BibInput): Promise<string> {
    refuseUnlessBib(input);
    return this.db.transaction(async (tx) => {
      const at = await stamp(tx);
      const id = await repo.insertBib(tx, toMarcInJson(input.marc), deriveBib(input.marc), input.suppressed ?? false, at);
      const holdings = bibHoldingWrites(input.marc);
      if (holdings.length) await holdingsLoader.replaceOfBibs(tx, [{ bibId: id, holdings }], at);
      return id;
    });
  }

  async replace(id: string, input: BibInput): Promise<void> {
    refuseUnlessBib(input);
    const found = await this.db.transaction(async (tx) => {
      const at = await stamp(tx);
      if (!(await repo.updateBib(tx, id, toMarcInJson(input.marc), deriveBib(input.marc), input.suppressed, at))) return false;
      await holdingsLoader.replaceOfBibs(tx, [{ bibId: id, holdings: bibHoldingWrites(input.marc) }], at);
      return true;
    });
    if (!found) throw fail.notFound(`no bib ${id}`);
  }

  async delete(id: string): Promise<void> {
    const found = await this.db.transaction(async (tx) => {
      const at = await stamp(tx);
      if (!(await repo.tombstoneBib(tx, id, at))) return false;
      await holdingsLoader.tombstoneOfBib(tx, id, at);
      return true;
    });
    if (!found) throw fail.notFound(`no bib ${id}`);
  }

  async get(id: string): Promise<repo.BibRow> {
    const row = await repo.getBib(this.db, id);
    if (!row) throw fail.notFound(`no bib ${id}`);
    return row;
  }

  /** These bibs by id (those that exist), for pages whose order is decided elsewhere (search). */
  async byIds(ids: string[], extras: repo.BibExtras): Promise<Map<string, repo.BibRow>> {
    return repo.bibsById(this.db, ids, extras);
  }

  /** The live items of these bibs, by bib id (a bound-with item under each of its bibs). */
  async itemsOf(bibIds: string[]): Promise<Map<string, ItemRow[]>> {
    const byBib = new Map<string, ItemRow[]>(bibIds.map((id) => [id, []]));
    if (bibIds.length === 0) return byBib;
    for (const item of await this.items.ofBibs(bibIds)) for (const bibId of item.bib_ids) byBib.get(bibId)?.push(item);
    return byBib;
  }

  async marc(id: string): Promise<MarcRecord> {
    const marc = await repo.getBibMarc(this.db, id);
    if (!marc) throw fail.notFound(`no bib ${id}`);
    return fromMarcInJson(marc);
  }

  /** GET /bibs/metadata: the codes a bib's coded fields take, with their descriptions. */
  async metadata(
    fields: readonly MetadataField[],
    locale: string,
  ): Promise<{ field: MetadataField; values: { code: string; desc: string }[] }[]> {
    const out = [];
    for (const field of fields) {
      let values: { code: string; desc: string }[];
      if (field === 'materialType') values = (await repo.listMaterialTypes(this.db)).map((m) => ({ code: m.code, desc: m.description }));
      else if (field === 'bibLevel') values = Object.entries(BIB_LEVELS).map(([code, desc]) => ({ code, desc }));
      else if (field === 'language')
        values = (await repo.codesInUse(this.db, 'lang')).map((code) => ({ code, desc: languageName(code, locale) }));
      else values = (await repo.codesInUse(this.db, 'country')).map((code) => ({ code, desc: countryName(code) }));
      out.push({ field, values });
    }
    return out;
  }

  /** Fresh planner statistics after a bulk load (carrel search reindex). */
  analyze(): Promise<void> {
    return repo.analyzeCatalogue(this.db);
  }

  async list(filter: Omit<repo.BibListFilter, 'horizon'>): Promise<repo.BibRow[]> {
    const byDate = filter.createdDate || filter.updatedDate || filter.deletedDate;
    // Date windows are read behind the change clock's horizon: see src/db/change-clock.ts.
    return repo.listBibs(this.reads, { ...filter, horizon: byDate ? await horizonForReads(this.db) : undefined });
  }
}

export type { BulkBib } from './repository.ts';

/** What bulk loaders (the demo catalogue) write and read in their own transactions. */
export const bibLoader = {
  row: repo.bibRow,
  insert: repo.insertBibs,
  count: repo.countBibs,
  ids: repo.listBibIds,
};

export type { BibExtras, BibRow } from './repository.ts';

/**
 * How a bib row is read, for a domain whose own statement answers bibs with its rows in one round
 * trip (search ranks a page and reads its bibs together): the row's tables and columns, and bibs by id.
 */
export const bibRows = { from: repo.BIB_FROM, columns: repo.bibRowColumns, byIds: repo.bibsById };
