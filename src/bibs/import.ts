// `carrel import` and `carrel generate`: MARC records into bibs (and the items their item fields
// describe), in batches of one transaction each. A record that matches a live bib (the same 001
// with 003, or a shared 035) replaces it; the others are added. A record that cannot be read is
// reported with its position and the rest go on.
import { stamp } from '../db/change-clock.ts';
import { CopyWriter } from '../db/copy-text.ts';
import type { Db, Queryable } from '../db/types.ts';
import { DEFAULT_ITEM_MAP, itemsFromRecord, type ItemFromMarc, type ItemMap } from '../items/from-marc.ts';
import * as itemRepo from '../items/repository.ts';
import { readIso2709Json, tagKey } from '../marc/iso2709-json.ts';
import { marcInJsonText } from '../marc/marc-in-json.ts';
import { readBinaryRecord, readMarcRaw, type RawReadResult } from '../marc/read.ts';
import type { MarcRecord } from '../marc/record.ts';
import { DERIVED_FROM_TAGS, deriveBib, type DerivedBib } from './derive.ts';
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
  /** Bytes read so far, for progress. */
  bytes?: () => number;
}

const BATCH = 500;
const WARNINGS_KEPT = 1000;
/** A batch's rows are written into one buffer of about this size (it grows for large records). */
const BATCH_BYTES = 2 << 20;

interface Prepared {
  /** The bib's row for COPY (see bibRepo.BulkBib): its MARC-in-JSON and derived cells. */
  row: Uint8Array;
  derived: DerivedBib;
  items: ItemFromMarc[];
  file: string;
  position: string;
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

const OTHER_KINDS: Record<string, string> = {
  u: 'holdings', v: 'holdings', x: 'holdings', y: 'holdings', z: 'authority', q: 'community information',
};

/** Why a record cannot be a bib, or undefined when it can. */
function notBibliographic(record: MarcRecord): string | undefined {
  const kind = OTHER_KINDS[record.leader[6] ?? ''];
  if (kind) return `a ${kind} record (leader/06 "${record.leader[6]}"), not a bibliographic record; ${kind} records are not imported yet`;
  if (record.fields.some((f) => f.tag === '245')) return undefined;
  if (record.fields.some((f) => f.tag === '200')) return 'no title (245); the title is in 200, as in UNIMARC: Carrel takes MARC 21';
  return 'no title (245)';
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

  /** The fields the import reads of a record (for its derived columns, whether it is a bib, its items); the rest stay bytes. */
  private readonly keep: ReadonlySet<number>;

  constructor(
    private readonly db: Db,
    private readonly known: Known,
    private readonly options: ImportOptions,
  ) {
    const tags = [...DERIVED_FROM_TAGS, '200', ...(options.itemMap?.fields.map((f) => f.tag) ?? [])];
    this.keep = new Set(tags.map(tagKey));
  }

  /**
   * Reads and derives one record, writing its row into the batch's buffer; a string says why it
   * cannot be loaded. ISO 2709 records take the fast path where they can (readIso2709Json).
   */
  private prepare(result: RawReadResult, out: CopyWriter, file: string): Prepared | string {
    if (result.error !== undefined) return result.error;
    const start = out.pos;
    let record: MarcRecord | undefined = result.record;
    if (result.bytes) {
      record = readIso2709Json(result.bytes, this.keep, out);
      if (!record) {
        try {
          record = readBinaryRecord(result.bytes);
        } catch (error) {
          return error instanceof Error ? error.message : String(error);
        }
        out.cell(marcInJsonText(record));
      }
    } else out.cell(marcInJsonText(record!));
    const why = notBibliographic(record!);
    if (why !== undefined) {
      out.pos = start;
      return why;
    }
    const derived = deriveBib(record!);
    repo.writeDerivedCells(out, derived);
    const items = this.options.itemMap ? itemsFromRecord(record!, this.options.itemMap) : [];
    return { row: out.buf.subarray(start, out.pos), derived, items, file, position: result.position };
  }

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

  async run(sources: RecordSource[]): Promise<ImportSummary> {
    const { summary } = this;
    const progress = this.options.onProgress ?? (() => {});
    let bytesDone = 0;
    let writing: Promise<void> = Promise.resolve();
    for (const source of sources) {
      let batch: Prepared[] = [];
      let out = new CopyWriter(BATCH_BYTES);
      const bytes = () => bytesDone + (source.bytes?.() ?? 0);
      for await (const result of source.records) {
        summary.read++;
        const prepared = this.prepare(result, out, source.name);
        if (typeof prepared === 'string') summary.failed.push({ file: source.name, position: result.position, reason: prepared });
        else batch.push(prepared);
        if (batch.length >= BATCH) {
          // Read and derive the next batch while the database writes this one: one batch in flight.
          await writing;
          writing = this.writeBatch(batch);
          writing.catch(() => {}); // handled where it is awaited; this only stops an early "unhandled" crash
          batch = [];
          out = new CopyWriter(BATCH_BYTES);
        }
        if (summary.read % 100 === 0) progress({ records: summary.read, failed: summary.failed.length, bytes: bytes() });
        // Let the in-flight batch's database replies through: records already in memory (a file
        // chunk, the generator) would otherwise be read to the end of the batch first, and the
        // database would wait for each of the batch's statements in turn.
        if (summary.read % 25 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      }
      await writing;
      if (batch.length) await this.writeBatch(batch);
      bytesDone = bytes();
    }
    progress({ records: summary.read, failed: summary.failed.length, bytes: bytesDone });
    if (summary.created + summary.updated >= 1000) await repo.analyzeCatalogue(this.db);
    return summary;
  }
}

export async function importRecords(db: Db, sources: RecordSource[], options: ImportOptions): Promise<ImportSummary> {
  const known: Known = {
    locations: new Set((await itemRepo.locationCodes(db))),
    statuses: new Set((await itemRepo.statusCodes(db))),
  };
  return new Importer(db, known, options).run(sources);
}

/** Files of MARC in any of the formats Carrel reads, each opened as a stream of bytes. */
export async function importFiles(
  db: Db,
  files: { name: string; open: () => AsyncIterable<Uint8Array> }[],
  options: ImportOptions = { itemMap: DEFAULT_ITEM_MAP },
): Promise<ImportSummary> {
  return importRecords(db, files.map((file) => {
    let bytes = 0;
    const counted = (async function* () {
      for await (const chunk of file.open()) {
        bytes += chunk.length;
        yield chunk;
      }
    })();
    return { name: file.name, records: readMarcRaw(counted), bytes: () => bytes };
  }), options);
}
