// `carrel import` and `carrel generate`: MARC records into bibs (and the items their item fields
// describe), in batches of one transaction each. A record that matches a live bib (the same 001
// with 003, or a shared 035) replaces it; the others are added. A record that cannot be read is
// reported with its position and the rest go on.
import { stamp } from '../db/change-clock.ts';
import type { Db, Queryable } from '../db/types.ts';
import { DEFAULT_ITEM_MAP, type ItemMap } from '../items/from-marc.ts';
import * as itemRepo from '../items/repository.ts';
import type { RawReadResult } from '../marc/read.ts';
import type { DerivedBib } from './derive.ts';
import { ImportThread } from './import-thread.ts';
import { prepareHere, type PreparedBatch, type PreparedBib } from './prepare.ts';
import * as repo from './repository.ts';

export interface ImportProblem {
  file: string;
  position: string;
  reason: string;
}

export interface ImportSummary {
  read: number;
  created: number;
  updated: number;
  items: { created: number; updated: number };
  failed: ImportProblem[];
  /** Records loaded with something left out (an item's unknown location, say); at most WARNINGS_KEPT listed. */
  warnings: ImportProblem[];
  warningCount: number;
}

export interface ImportProgress {
  records: number;
  failed: number;
  bytes: number;
}

export interface ImportOptions {
  /** Where items come from in each record; null: no items. */
  itemMap: ItemMap | null;
  onProgress?: (progress: ImportProgress) => void;
}

/** A source of records: a file's reader, or the generator. */
export interface RecordSource {
  name: string;
  records: AsyncIterable<RawReadResult> | Iterable<RawReadResult>;
}

/** Records read and prepared for writing, a batch at a time, with the bytes of the source read so far. */
interface BatchSource {
  name: string;
  batches: AsyncIterable<PreparedBatch>;
  bytes?: () => number;
}

const WARNINGS_KEPT = 1000;

interface Prepared extends PreparedBib {
  file: string;
}

/** Which prepared records match a live bib, by 001+003 or by 035: their ids, in batch order. */
async function matches(db: Queryable, batch: Prepared[]): Promise<(string | undefined)[]> {
  const found = await repo.findMatchingBibs(db, {
    controls: batch.filter((p) => p.derived.controlNumber).map((p) => [p.derived.controlNumber!, p.derived.controlSource ?? '']),
    systemNumbers: batch.flatMap((p) => p.derived.systemNumbers),
  });
  const byControl = new Map(found.map((f) => [`${f.control_number}\u0000${f.control_source ?? ''}`, f.id]));
  const bySystem = new Map(found.flatMap((f) => f.system_numbers.map((n) => [n, f.id] as const)));
  return batch.map((p) => {
    const control = p.derived.controlNumber ? byControl.get(`${p.derived.controlNumber}\u0000${p.derived.controlSource ?? ''}`) : undefined;
    return control ?? p.derived.systemNumbers.map((n) => bySystem.get(n)).find((id) => id !== undefined);
  });
}

function identityKeys(d: DerivedBib): string[] {
  const keys = d.systemNumbers.map((n) => `035:${n}`);
  if (d.controlNumber) keys.push(`001:${d.controlNumber}\u0000${d.controlSource ?? ''}`);
  return keys;
}

/** Codes the database knows, read once per run: an item's location and status are checked against them. */
interface Known {
  locations: Set<string>;
  statuses: Set<string>;
}

class Importer {
  readonly summary: ImportSummary = { read: 0, created: 0, updated: 0, items: { created: 0, updated: 0 }, failed: [], warnings: [], warningCount: 0 };

  constructor(
    private readonly db: Db,
    private readonly known: Known,
    private readonly options: ImportOptions,
  ) {}

  private warn(p: Prepared, reason: string): void {
    this.summary.warningCount++;
    if (this.summary.warnings.length < WARNINGS_KEPT) this.summary.warnings.push({ file: p.file, position: p.position, reason });
  }

  /** The record's items as rows for the database, with what cannot be kept reported. */
  private itemRows(p: Prepared, bibId: string, isNew: boolean): itemRepo.ImportedItem[] {
    const rows: itemRepo.ImportedItem[] = [];
    for (const item of p.items) {
      // Without a barcode an item cannot be recognised again: it is added with a new bib only.
      if (!item.barcode && !isNew) continue;
      let location = item.location ?? null;
      if (location !== null && !this.known.locations.has(location)) {
        this.warn(p, `item ${item.barcode ?? '(no barcode)'}: location "${location}" is not a location of this library; the item is loaded without one`);
        location = null;
      }
      let status = item.status ?? '-';
      if (!this.known.statuses.has(status)) {
        this.warn(p, `item ${item.barcode ?? '(no barcode)'}: status "${status}" is not an item status; loaded as "-" (available)`);
        status = '-';
      }
      rows.push({ bibId, barcode: item.barcode ?? null, callNumber: item.callNumber ?? null, location, status, itemType: item.itemType ?? null });
    }
    return rows;
  }

  async writeBatch(batch: Prepared[]): Promise<void> {
    const targets = await matches(this.db, batch);
    await this.db.transaction(async (tx) => {
      const at = await stamp(tx);
      const fresh: Prepared[] = [];
      // Two records of one batch for the same bib: the later one wins.
      const replacing = new Map<string, Prepared>();
      const freshByKey = new Map<string, number>();
      let updated = 0;
      for (const [i, p] of batch.entries()) {
        const id = targets[i];
        if (id !== undefined) {
          replacing.set(id, p);
          updated++;
          continue;
        }
        const keys = identityKeys(p.derived);
        const earlier = keys.map((k) => freshByKey.get(k)).find((n) => n !== undefined);
        if (earlier !== undefined) {
          fresh[earlier] = p;
          updated++;
        } else {
          fresh.push(p);
          keys.forEach((k) => freshByKey.set(k, fresh.length - 1));
        }
      }
      const freshIds = await repo.allocateBibIds(tx, fresh.length);
      if (replacing.size) await repo.updateBibs(tx, [...replacing].map(([id, p]) => ({ id, row: p.row, derived: p.derived })), at);
      if (fresh.length) await repo.insertBibs(tx, fresh.map((p, i) => ({ id: freshIds[i], row: p.row, derived: p.derived })), at);
      const items = [
        ...[...replacing].flatMap(([id, p]) => this.itemRows(p, id, false)),
        ...fresh.flatMap((p, i) => this.itemRows(p, freshIds[i]!, true)),
      ];
      const written = items.length ? await itemRepo.upsertImportedItems(tx, items, at) : { created: 0, updated: 0 };
      // Counted only once the transaction has its rows: a failed batch adds nothing to the summary.
      this.summary.updated += updated;
      this.summary.created += fresh.length;
      this.summary.items.created += written.created;
      this.summary.items.updated += written.updated;
    });
  }

  async run(sources: BatchSource[]): Promise<ImportSummary> {
    const { summary } = this;
    const progress = this.options.onProgress ?? (() => {});
    let bytesDone = 0;
    let writing: Promise<void> = Promise.resolve();
    for (const source of sources) {
      const bytes = () => bytesDone + (source.bytes?.() ?? 0);
      for await (const batch of source.batches) {
        summary.read += batch.read;
        for (const { position, reason } of batch.failed) summary.failed.push({ file: source.name, position, reason });
        if (batch.records.length) {
          // The next batch is read while the database writes this one: one batch in flight.
          await writing;
          writing = this.writeBatch(batch.records.map((p) => ({ ...p, file: source.name })));
          writing.catch(() => {}); // handled where it is awaited; this only stops an early "unhandled" crash
        }
        progress({ records: summary.read, failed: summary.failed.length, bytes: bytes() });
      }
      bytesDone = bytes();
    }
    await writing;
    progress({ records: summary.read, failed: summary.failed.length, bytes: bytesDone });
    if (summary.created + summary.updated >= 1000) await repo.analyzeCatalogue(this.db);
    return summary;
  }
}

async function knownCodes(db: Db): Promise<Known> {
  return {
    locations: new Set(await itemRepo.locationCodes(db)),
    statuses: new Set(await itemRepo.statusCodes(db)),
  };
}

/** Records already read (the generator, tests): prepared in this thread. */
export async function importRecords(db: Db, sources: RecordSource[], options: ImportOptions): Promise<ImportSummary> {
  const importer = new Importer(db, await knownCodes(db), options);
  return importer.run(sources.map((source) => ({ name: source.name, batches: prepareHere(source.records, options.itemMap) })));
}

/**
 * Files of MARC in any of the formats Carrel reads, each opened as a stream of bytes. They are
 * read and prepared in a worker thread while this one writes to the database.
 */
export async function importFiles(
  db: Db,
  files: { name: string; open: () => AsyncIterable<Uint8Array> }[],
  options: ImportOptions = { itemMap: DEFAULT_ITEM_MAP },
): Promise<ImportSummary> {
  const importer = new Importer(db, await knownCodes(db), options);
  const thread = new ImportThread(options.itemMap);
  try {
    return await importer.run(files.map((file) => {
      let bytes = 0;
      const counted = (async function* () {
        for await (const chunk of file.open()) {
          bytes += chunk.length;
          yield chunk;
        }
      })();
      return { name: file.name, batches: thread.batches(counted), bytes: () => bytes };
    }));
  } finally {
    await thread.close();
  }
}
