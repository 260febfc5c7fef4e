// `carrel generate` into the database: the seed's bibs with their items (through the importer, so
// a second run updates them), then its patrons and their holds, each skipping what is there already.
import { importRecords, type ImportSummary } from '../bibs/import.ts';
import { branchLoader } from '../branches/service.ts';
import { stamp } from '../db/change-clock.ts';
import type { Db } from '../db/types.ts';
import { ensureDemoLocations } from '../demo/load.ts';
import { holdLoader, type BulkHold } from '../holds/service.ts';
import { DEFAULT_ITEM_MAP } from '../items/from-marc.ts';
import type { ReadResult } from '../marc/read-result.ts';
import { hashPin } from '../patrons/pin.ts';
import { patronLoader } from '../patrons/service.ts';
import { controlNumber, GENERATED_SOURCE, generateRecord, itemBarcode } from './catalogue.ts';
import { generateHolds } from './holds.ts';
import { generatePatron, GENERATED_PIN, patronBarcode } from './patrons.ts';

export interface GenerateLoad {
  seed: number;
  bibs: number;
  patrons: number;
  holds: number;
  /** The day the holds are placed up to (YYYY-MM-DD). */
  today: string;
  /** The hold limit and hold period placement applies. */
  /** The library's hold rules (library_settings). */
  rules: { holdLimit: number; holdMonths: number };
}

export interface GenerateSummary extends ImportSummary {
  patrons: { created: number };
  holds: { created: number };
}

const BATCH = 5000;

export async function loadGenerated(db: Db, load: GenerateLoad, onRecords?: (records: number) => void): Promise<GenerateSummary> {
  await db.transaction((tx) => ensureDemoLocations(tx));
  const records = (function* (): Generator<ReadResult> {
    for (let n = 1; n <= load.bibs; n++) yield { position: `record ${n}`, record: generateRecord(load.seed, n) };
  })();
  const bibs = await importRecords(db, [{ name: `generated (seed ${load.seed})`, records }], {
    itemMap: DEFAULT_ITEM_MAP,
    onProgress: (p) => onRecords?.(p.records),
  });
  const patrons = { created: await loadPatrons(db, load.seed, load.patrons) };
  return { ...bibs, patrons, holds: { created: await loadHolds(db, load) } };
}

/** Generated patrons 1..count of a seed, a thousand to a transaction; answers how many were new. */
async function loadPatrons(db: Db, seed: number, count: number): Promise<number> {
  if (count === 0) return 0;
  const pinHash = await hashPin(GENERATED_PIN);
  let created = 0;
  for (let from = 1; from <= count; from += 1000) {
    const batch = Array.from({ length: Math.min(1000, count - from + 1) }, (_, i) => generatePatron(seed, from + i));
    created += await db.transaction(async (tx) => patronLoader.insert(tx, batch, pinHash, await stamp(tx)));
  }
  return created;
}

/**
 * Generated holds (holds.ts) in placement order, a batch to a transaction that first locks the
 * batch's queues as placement does, so ids keep placement order even beside live placements;
 * answers how many were new (a hold on a record the patron has or had is not placed again).
 */
async function loadHolds(db: Db, load: GenerateLoad): Promise<number> {
  if (load.holds === 0) return 0;
  const pickupLocations = (await branchLoader.locations(db)).filter((l) => l.pickup).map((l) => l.code);
  const holds = generateHolds({ ...load, ...load.rules, pickupLocations });
  let created = 0;
  const place = async (batch: BulkHold[]) => {
    created += await db.transaction(async (tx) => {
      await holdLoader.lockQueues(tx, batch);
      return holdLoader.insert(tx, batch, load.rules.holdLimit);
    });
  };
  let batch: BulkHold[] = [];
  for (const h of holds) {
    batch.push({
      k: h.k,
      patronBarcode: patronBarcode(load.seed, h.patron),
      controlNumber: controlNumber(load.seed, h.bib),
      controlSource: GENERATED_SOURCE,
      itemBarcode: h.copy === null ? null : itemBarcode(load.seed, h.bib, h.copy),
      pickupLocation: h.pickupLocation,
      placed: h.placed,
      notNeededAfter: h.notNeededAfter,
      frozen: h.frozen,
    });
    if (batch.length === BATCH) {
      await place(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await place(batch);
  return created;
}
