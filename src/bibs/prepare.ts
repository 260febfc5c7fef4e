// The reading half of an import: records read, checked and derived, each written as its bib's row
// of COPY text, in batches ready for the database. It runs in a worker thread for files
// (import-worker.ts), so that the main thread only talks to the database, or in the importing
// thread for records made in memory (`carrel generate`).
import { CopyWriter } from '../db/copy-text.ts';
import { HOLDINGS_DATA_TAGS, isHoldingsRecord } from '../holdings/from-marc.ts';
import { bibHoldingWrites, prepareHoldingsRecord, type HoldingWrite, type PreparedHoldingsRecord } from '../holdings/service.ts';
import { itemsFromRecord, type ItemFromMarc, type ItemMap } from '../items/from-marc.ts';
import { readIso2709Json, tagKey } from '../marc/iso2709-json.ts';
import { marcInJsonText } from '../marc/marc-in-json.ts';
import { readBinaryRecord, type RawReadResult } from '../marc/read.ts';
import { DERIVED_FROM_TAGS, deriveBib, type DerivedBib } from './derive.ts';
import { bibRefusal, notBibliographic } from './refusal.ts';
import { writeDerivedCells } from './repository.ts';

/** What an import matches a record by (001+003, 035): all it reads of the derived columns where the row is written by COPY. */
export type BibIdentity = Pick<DerivedBib, 'controlNumber' | 'controlSource' | 'systemNumbers'>;

export interface PreparedBib {
  /** The bib's row for COPY (see repository.ts BulkBib): its MARC-in-JSON and derived cells. */
  row: Uint8Array;
  identity: BibIdentity;
  /** The derived columns as values: for an engine that takes the rows as JSON instead of COPY (see repository.ts BulkBib). */
  derived?: DerivedBib;
  items: ItemFromMarc[];
  /** The holdings the bib states itself (852 with 853-868), as holdings records. */
  holdings: HoldingWrite[];
  position: string;
}

export interface PreparedBatch {
  records: PreparedBib[];
  /** Records that cannot be loaded, with why. */
  failed: { position: string; reason: string }[];
  /** MARC holdings records, written once every bib of the import is (their 004 names a bib by its 001). */
  holdings: PreparedHoldingsRecord[];
  /** Records read for this batch, failed ones included. */
  read: number;
}

/** Records a batch holds (a transaction of the import each). */
export const BATCH = 500;
/** A batch's rows are written into one buffer of about this size (it grows for large records). */
const BATCH_BYTES = 4 << 20;

export class RecordPreparer {
  /** The fields read of a record (its derived columns, whether it is a bib, its items); the rest stay bytes. */
  private readonly keep: ReadonlySet<number>;
  private out = new CopyWriter(BATCH_BYTES);
  private batch: PreparedBatch = { records: [], failed: [], holdings: [], read: 0 };

  constructor(private readonly itemMap: ItemMap | null) {
    const tags = [...DERIVED_FROM_TAGS, '200', '852', ...HOLDINGS_DATA_TAGS, ...(itemMap?.fields.map((f) => f.tag) ?? [])];
    this.keep = new Set(tags.map(tagKey));
  }

  /** Adds one record to the batch; true when the batch is full (take it). */
  add(result: RawReadResult): boolean {
    this.batch.read++;
    const prepared = this.prepare(result);
    if (typeof prepared === 'string') this.batch.failed.push({ position: result.position, reason: prepared });
    else if ('row' in prepared) this.batch.records.push(prepared);
    else this.batch.holdings.push(prepared);
    return this.batch.records.length >= BATCH;
  }

  /** The batch so far, with the buffer its rows are in; the next batch starts empty. */
  take(): { batch: PreparedBatch; buffer: Buffer } {
    const taken = { batch: this.batch, buffer: this.out.buf };
    this.batch = { records: [], failed: [], holdings: [], read: 0 };
    this.out = new CopyWriter(BATCH_BYTES);
    return taken;
  }

  /**
   * Reads and derives one record, writing its row into the batch's buffer; a string says why it
   * cannot be loaded. ISO 2709 records take the fast path where they can (readIso2709Json).
   */
  private prepare(result: RawReadResult): PreparedBib | PreparedHoldingsRecord | string {
    if (result.error !== undefined) return result.error;
    const out = this.out;
    const start = out.pos;
    // The fast path takes only records the validator would not refuse (see iso2709-json.ts); every
    // other record is checked whole, as POST and PUT /bibs check theirs (refusal.ts).
    let record = result.bytes ? readIso2709Json(result.bytes, this.keep, out) : undefined;
    let why: string | undefined;
    if (record && isHoldingsRecord(record)) {
      // A holdings record is read whole (the fast path kept only some of its fields).
      out.pos = start;
      try {
        return prepareHoldingsRecord(result.record ?? readBinaryRecord(result.bytes), result.position);
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    }
    if (record) why = notBibliographic(record);
    else {
      try {
        record = result.record ?? readBinaryRecord(result.bytes);
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
      if (isHoldingsRecord(record)) return prepareHoldingsRecord(record, result.position);
      why = bibRefusal(record);
      if (why === undefined) out.cell(marcInJsonText(record));
    }
    if (why !== undefined) {
      out.pos = start;
      return why;
    }
    const derived = deriveBib(record);
    writeDerivedCells(out, derived);
    const items = this.itemMap ? itemsFromRecord(record, this.itemMap) : [];
    // A view of the buffer as it is now; if it grows later the view keeps the old one's bytes,
    // which are the same.
    const { controlNumber, controlSource, systemNumbers } = derived;
    return {
      row: out.buf.subarray(start, out.pos),
      identity: { controlNumber, controlSource, systemNumbers },
      derived,
      items,
      holdings: bibHoldingWrites(record),
      position: result.position,
    };
  }
}

/** Batches of records read in this thread, with a pause every few records for the database's replies. */
export async function* prepareHere(
  records: AsyncIterable<RawReadResult> | Iterable<RawReadResult>,
  itemMap: ItemMap | null,
): AsyncGenerator<PreparedBatch> {
  const preparer = new RecordPreparer(itemMap);
  let n = 0;
  for await (const result of records) {
    if (preparer.add(result)) yield preparer.take().batch;
    // Let the database replies of the batch being written through: records already in memory
    // would otherwise be read to the end of the batch first, and the database would wait for
    // each of the batch's statements in turn.
    if (++n % 25 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const last = preparer.take().batch;
  if (last.read) yield last;
}
