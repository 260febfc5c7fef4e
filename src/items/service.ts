// Rules for reading items: date windows are read behind the change clock's horizon, like bibs.
import { horizon } from '../db/change-clock.ts';
import type { Db } from '../db/types.ts';
import { fail } from '../shared/errors.ts';
import * as repo from './repository.ts';

export type { ItemExtras, ItemRow } from './repository.ts';

export class ItemService {
  constructor(private readonly db: Db) {}

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

  /** These items (those that exist), in no order. */
  many(ids: readonly string[], extras?: repo.ItemExtras): Promise<repo.ItemRow[]> {
    return repo.getItems(this.db, ids, extras);
  }

  /** The live items of these bibs (a bound-with item once, with all its bib ids). */
  ofBibs(bibIds: string[], extras?: repo.ItemExtras): Promise<repo.ItemRow[]> {
    return repo.itemsOfBibs(this.db, bibIds, extras);
  }

  async list(filter: Omit<repo.ItemListFilter, 'horizon'>): Promise<repo.ItemRow[]> {
    const byDate = filter.createdDate || filter.updatedDate || filter.deletedDate;
    return repo.listItems(this.db, { ...filter, horizon: byDate ? await horizon(this.db) : undefined });
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
