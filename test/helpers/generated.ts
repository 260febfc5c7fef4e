// A generated catalogue imported into a test database, as `carrel generate` would make it.
import { importRecords } from '../../src/bibs/import.ts';
import type { Db } from '../../src/db/types.ts';
import { generateRecord } from '../../src/generate/catalogue.ts';
import type { ItemMap } from '../../src/items/from-marc.ts';
import type { ReadResult } from '../../src/marc/read-result.ts';

/** Imports bibs 1…count of the seed's catalogue, with their items where itemMap is given. */
export async function importGenerated(db: Db, seed: number, count: number, itemMap: ItemMap | null = null): Promise<void> {
  const records = (function* (): Generator<ReadResult> {
    for (let n = 1; n <= count; n++) yield { position: `record ${n}`, record: generateRecord(seed, n) };
  })();
  await importRecords(db, [{ name: 'generated', records }], { itemMap });
}
