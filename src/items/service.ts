// Rules for reading items: date windows are read behind the change clock's horizon, like bibs.
import { horizonForReads, stamp } from '../db/change-clock.ts';
import type { Queryable } from '../db/types.ts';
import { parseItemInput, type ItemChanges, type ItemInput } from './input.ts';
import type { Db } from '../db/types.ts';
import { fail } from '../shared/errors.ts';
import * as repo from './repository.ts';
import { ITEM_STATUS } from './statuses.ts';

export type { ItemExtras, ItemRow } from './repository.ts';

export class ItemService {
  /** @param reads for harvests' lists, which may come from a read replica (Deps.reads) */
  constructor(
    private readonly db: Db,
    private readonly reads: Db = db,
  ) {}

  /** GET /items/metadata: the codes of an item's coded fields (the library's item types and locations, the statuses), with descriptions. */
  async metadata<F extends 'itemType' | 'location' | 'status'>(
    fields: readonly F[],
  ): Promise<{ field: F; values: { code: string; desc: string }[] }[]> {
    const out = [];
    for (const field of fields) out.push({ field, values: await repo.codedValues(this.db, field) });
    return out;
  }

  async get(id: string, extras?: repo.ItemExtras): Promise<repo.ItemRow> {
    const row = await repo.getItem(this.db, id, extras);
    if (!row) throw fail.notFound(`no item ${id}`);
    return row;
  }

  /** The live item with this barcode, if any. */
  async byBarcode(barcode: string, extras?: repo.ItemExtras): Promise<repo.ItemRow | undefined> {
    const id = barcode ? await repo.itemIdByBarcode(this.db, barcode) : undefined;
    return id === undefined ? undefined : repo.getItem(this.db, id, extras);
  }

  /** Whether a live item has this id. */
  exists(id: string): Promise<boolean> {
    return repo.itemExists(this.db, id);
  }

  /** The id of the live item with this barcode (of several, the first made), read on q (a caller's transaction). */
  idOfBarcode(q: Queryable, barcode: string): Promise<string | undefined> {
    return repo.itemIdByBarcode(q, barcode);
  }

  /**
   * An item's circulation status (ITEM_STATUS: available on the shelf or on loan, in transit, on
   * the hold shelf) and due date (null: not on loan), in the caller's transaction, under the item's
   * circulation locks (HoldService.lockForCirculation).
   */
  setStatus(tx: Queryable, itemId: string, status: string, dueDate: string | null, stamp: Date): Promise<void> {
    return repo.setItemStatus(tx, itemId, status, dueDate, stamp);
  }

  /** These items (those that exist), in no order. */
  many(ids: readonly string[], extras?: repo.ItemExtras): Promise<repo.ItemRow[]> {
    return repo.getItems(this.db, ids, extras);
  }

  /** The live items of these bibs (a bound-with item once, with all its bib ids). */
  ofBibs(bibIds: string[], extras?: repo.ItemExtras): Promise<repo.ItemRow[]> {
    return repo.itemsOfBibs(this.db, bibIds, extras);
  }

  /** POST /items: a new item on its bibs, in one transaction; nothing is written when any part is refused. */
  async create(input: ItemInput): Promise<string> {
    const changes = parseItemInput(input, true);
    return barcodeRace(changes, () =>
      this.db.transaction(async (tx) => {
        // The change clock first: a bib deleted meanwhile has committed, or waits for this write.
        const at = await stamp(tx);
        await this.check(tx, changes);
        return repo.insertItem(tx, { ...changes, bibIds: changes.bibIds!, status: changes.status ?? ITEM_STATUS.available }, at);
      }),
    );
  }

  /** PUT /items/{id}: the members given. */
  async update(id: string, input: ItemInput): Promise<void> {
    const changes = parseItemInput(input, false);
    const found = await barcodeRace(changes, () =>
      this.db.transaction(async (tx) => {
        const at = await stamp(tx);
        await this.check(tx, changes, id);
        return repo.updateItem(tx, id, changes, at);
      }),
    );
    if (!found) throw fail.notFound(`no item ${id}`);
  }

  /** DELETE /items/{id}: a tombstone; refused while the item is on loan or held. */
  async delete(id: string): Promise<void> {
    const found = await this.db.transaction(async (tx) => {
      const at = await stamp(tx);
      if (!(await repo.lockItemRow(tx, id))) return false;
      const use = await repo.itemInUse(tx, id);
      if (use.on_loan) throw fail.conflict(0, `item ${id} is checked out: check it in first`);
      if (use.holds) throw fail.conflict(0, `item ${id} has ${use.holds} active hold(s) on it: cancel them first`);
      return repo.tombstoneItem(tx, id, at);
    });
    if (!found) throw fail.notFound(`no item ${id}`);
  }

  /** The bibs and codes a write names exist; its barcode is no other live item's. */
  private async check(tx: Queryable, changes: ItemChanges, id?: string): Promise<void> {
    const missing = await repo.missingReferences(tx, {
      ...changes,
      location: changes.location ?? null,
      itemType: changes.itemType ?? null,
    });
    if (missing.bibs.length) throw fail.refused(0, `bibIds: no bib ${missing.bibs.join(', ')}`);
    if (missing.location) throw fail.refused(0, `location: no location ${changes.location}`);
    if (missing.status) throw fail.refused(0, `status: no item status ${changes.status}`);
    if (missing.itemType) throw fail.refused(0, `itemType: no item type ${changes.itemType}`);
    const holder = changes.barcode ? await repo.barcodeHolder(tx, changes.barcode, id) : undefined;
    if (holder) throw fail.conflict(0, `barcode ${changes.barcode} belongs to item ${holder}`);
  }

  async list(filter: Omit<repo.ItemListFilter, 'horizon'>): Promise<repo.ItemRow[]> {
    const byDate = filter.createdDate || filter.updatedDate || filter.deletedDate;
    return repo.listItems(this.reads, { ...filter, horizon: byDate ? await horizonForReads(this.db) : undefined });
  }
}

/** A write whose barcode another writer took after it was checked: the same refusal as the check's. */
async function barcodeRace<T>(changes: ItemChanges, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if ((error as { code?: unknown }).code === '23505') throw fail.conflict(0, `barcode ${changes.barcode} belongs to another item`);
    throw error;
  }
}

export type { ImportedItem, ItemPlan, NewItem } from './repository.ts';

/**
 * What bulk loaders (carrel import, the demo catalogue) write in their own transactions, with the
 * codes an item's location and status are checked against.
 */
export const itemLoader = {
  insert: repo.insertItem,
  plan: repo.planImportedItems,
  write: repo.writeImportedItems,
  locationCodes: repo.locationCodes,
  statusCodes: repo.statusCodes,
};
