// Loads the demo catalogue into a database that has no bibs yet (never over a library's data): the
// demo bibs, and one to three items for each, in the library's locations (the starter profile's in
// a new database). The generator's locations: ensureDemoLocations.
import { deriveBib } from '../bibs/derive.ts';
import { bibLoader } from '../bibs/service.ts';
import { branchLoader } from '../branches/service.ts';
import { stamp } from '../db/change-clock.ts';
import type { Db, Queryable } from '../db/types.ts';
import { itemLoader } from '../items/service.ts';
import { ITEM_STATUS } from '../items/statuses.ts';
import { marcInJsonText } from '../marc/marc-in-json.ts';
import { demoRecords } from './catalogue.ts';

const LOCATIONS = [
  { branch: 'Main Library', address: '1 Library Square', code: 'mn', name: 'Main Library', pickup: true, hold_shelf_days: 7 },
  { branch: 'Main Library', address: '1 Library Square', code: 'mnref', name: 'Main Library Reference', pickup: false, hold_shelf_days: 7 },
  { branch: 'East Branch', address: '40 Harbour Road', code: 'ea', name: 'East Branch', pickup: true, hold_shelf_days: 10 },
];

/** Creates those of the generator's locations (two branches) the library does not have yet: its items name them. */
export async function ensureDemoLocations(tx: Queryable): Promise<void> {
  const have = await branchLoader.locations(tx);
  const branches = new Map<string, number>(have.map((l) => [LOCATIONS.find((d) => d.code === l.code)?.branch ?? '', l.branch_id]));
  for (const l of LOCATIONS) {
    if (have.some((h) => h.code === l.code)) continue;
    if (!branches.has(l.branch)) branches.set(l.branch, await branchLoader.insertBranch(tx, l.branch, l.address));
    await branchLoader.insertLocation(tx, l, branches.get(l.branch)!);
  }
}

/** The number of demo bibs loaded: 0 when the database already has bibs. */
export async function loadDemoIfEmpty(db: Db): Promise<number> {
  // Every start asks; only a new database pays for a write (and a change-clock stamp).
  if ((await bibLoader.count(db)) > 0) return 0;
  return db.transaction(async (tx) => {
    const at = await stamp(tx); // serialises processes starting together: the one that waited sees the records
    if ((await bibLoader.count(tx)) > 0) return 0;
    let locations = (await branchLoader.locations(tx)).map((l) => l.code);
    if (locations.length === 0) {
      await ensureDemoLocations(tx);
      locations = LOCATIONS.map((l) => l.code);
    }
    const records = demoRecords();
    const derived = records.map(deriveBib);
    await bibLoader.insert(
      tx,
      records.map((marc, i) => ({ row: bibLoader.row(marcInJsonText(marc), derived[i]!), derived: derived[i]! })),
      at,
    );
    const ids = await bibLoader.ids(tx);
    let barcode = 31000000000001;
    for (const [i, id] of ids.entries()) {
      const author = derived[i]?.author?.split(',')[0]?.toUpperCase().slice(0, 3) ?? 'XXX';
      const copies = 1 + (i % 3);
      for (let copy = 0; copy < copies; copy++) {
        await itemLoader.insert(
          tx,
          {
            bibIds: [id],
            barcode: String(barcode++),
            callNumber: `${derived[i]?.materialType === 'a' ? 'FIC' : 'AV'} ${author}`,
            location: locations[(i + copy) % locations.length]!,
            status: copy === 2 ? ITEM_STATUS.libraryUseOnly : ITEM_STATUS.available,
            itemType: derived[i]?.materialType === 'a' ? 'book' : 'media',
          },
          at,
        );
      }
    }
    return records.length;
  });
}
