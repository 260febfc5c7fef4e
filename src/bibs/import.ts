// `carrel import` and `carrel generate`: MARC records into bibs (and the items their item fields
// describe), in batches of one transaction each. A record that matches a live bib (the same 001
// with 003, or a shared 035) replaces it; the others are added. A record that cannot be read is
// reported with its position and the rest go on.
import { batchStamp } from '../db/change-clock.ts';
import { LOCK_KEYS } from '../db/lock-keys.ts';
import type { Db, Queryable } from '../db/types.ts';
import { holdingsLoader, type PreparedHoldingsRecord } from '../holdings/service.ts';
import { DEFAULT_ITEM_MAP, type ItemMap } from '../items/from-marc.ts';
import { itemLoader, type ImportedItem, type ItemPlan } from '../items/service.ts';
import { ITEM_STATUS } from '../items/statuses.ts';
import { CODE_PATTERN } from '../library/profile.ts';
import { codeLoader } from '../library/service.ts';
import { ImportSignal } from '../operations/import-signal.ts';
import type { RawReadResult } from '../marc/read.ts';
import { ImportThread } from './import-thread.ts';
import { BATCH, prepareHere, type BibIdentity, type PreparedBatch, type PreparedBib } from './prepare.ts';
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
  /** Holdings records: MARC holdings records, and those bibs state in their own 852/853-868 fields. */
  holdings: { created: number; updated: number };
  failed: ImportProblem[];
  /** Records loaded with something left out (an item's unknown status, say); at most WARNINGS_KEPT listed. */
  warnings: ImportProblem[];
  warningCount: number;
  /**
   * Location and item type codes items named that the library did not have, once each with the
   * number of items naming it: added (createMissing) or left off those items.
   */
  unknownCodes: UnknownCode[];
}

export interface UnknownCode {
  kind: 'location' | 'itemType';
  code: string;
  items: number;
  /** Added to the library (createMissing); otherwise the items were loaded without it. */
  created: boolean;
}

export interface ImportProgress {
  records: number;
  failed: number;
  bytes: number;
}

export interface ImportOptions {
  /** Where items come from in each record; null: no items. */
  itemMap: ItemMap | null;
  /** Add the locations (under the first branch, not for pickup) and item types items name that the library lacks. */
  createMissing?: boolean;
  onProgress?: (progress: ImportProgress) => void;
  /** Told once when another import of the database is running and this one waits for it to end. */
  onWaiting?: () => void;
  /**
   * Aborted: the import stops at the next batch not yet begun and throws the signal's reason.
   * Each batch is one transaction, so what is written is whole batches; those already writing
   * finish first.
   */
  signal?: AbortSignal;
  /** Awaited before each batch is read into the writing: it throws to stop the import there (a file's lost claim). */
  checkpoint?: () => Promise<void>;
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
/**
 * Batches written side by side: two keep PostgreSQL busy on both cores of a small machine while
 * one batch waits for its round trips (the change clock lets writes overlap: change-clock.ts).
 */
const WRITERS = 2;

interface Prepared extends PreparedBib {
  file: string;
}

/** Which prepared records match a live bib, by 001+003 or by 035: their ids, in batch order. */
async function matches(db: Queryable, batch: Prepared[]): Promise<(string | undefined)[]> {
  const controlKey = (number: string, source: string | null) => `${number}\u0000${source ?? ''}`;
  const byControl = new Map(
    (
      await repo.findBibsByControl(
        db,
        batch.filter((p) => p.identity.controlNumber).map((p) => [p.identity.controlNumber!, p.identity.controlSource ?? '']),
      )
    ).map((f) => [controlKey(f.control_number!, f.control_source), f.id]),
  );
  const targets = batch.map((p) =>
    p.identity.controlNumber ? byControl.get(controlKey(p.identity.controlNumber, p.identity.controlSource)) : undefined,
  );
  // The 001 decides where it matches; the 035s are looked up only for the records it did not place
  // (none, when a file is loaded again).
  const unplaced = batch.filter((_, i) => targets[i] === undefined);
  const found = await repo.findBibsBySystemNumber(
    db,
    unplaced.flatMap((p) => p.identity.systemNumbers),
  );
  const bySystem = new Map(found.flatMap((f) => f.system_numbers.map((n) => [n, f.id] as const)));
  return batch.map((p, i) => targets[i] ?? p.identity.systemNumbers.map((n) => bySystem.get(n)).find((id) => id !== undefined));
}

function identityKeys(d: BibIdentity): string[] {
  const keys = d.systemNumbers.map((n) => `035:${n}`);
  if (d.controlNumber) keys.push(`001:${d.controlNumber}\u0000${d.controlSource ?? ''}`);
  return keys;
}

/** What a written batch may have changed for the next one's plan. */
interface Footprint {
  /** The identity keys (001+003, 035) of its records. */
  keys: Set<string>;
  /** The bibs it replaced. */
  replaced: Set<string>;
  /** Its items' barcodes. */
  barcodes: Set<string>;
}

/** A batch being written: its footprint once its plan is final, and its commit. */
interface Writing {
  footprint: Promise<Footprint>;
  done: Promise<void>;
  committed: boolean;
}

/** A record loaded with something left out, and why (worded only if it is kept). */
type Warning = [Prepared, () => string];

interface Plan {
  batch: Prepared[];
  fresh: Prepared[];
  freshIds: string[];
  /** The bibs replaced, by id, with the record replacing each. */
  replacing: Map<string, Prepared>;
  /** Records that replace a bib (one already in the database, or one earlier in the batch). */
  updated: number;
  items: ItemPlan;
  warnings: Warning[];
  /** Codes the library lacks, by kind and code, with how many of the batch's items name each. */
  unknown: Map<string, { kind: UnknownCode['kind']; code: string; items: number }>;
  footprint: Footprint;
}

/** Codes the database knows, read once per run: an item's location, type and status are checked against them. */
interface Known {
  locations: Set<string>;
  itemTypes: Set<string>;
  statuses: Set<string>;
}

const CODE = new RegExp(CODE_PATTERN);

class Importer {
  /** The first batch that failed: once set, no batch starts its transaction. */
  private failure: { error: unknown } | undefined;
  /** Settles when the latest plan has taken its ids (see plan). */
  private idsTaken: Promise<void> = Promise.resolve();
  /** MARC holdings records read, written once every bib is (a record's bib may come after it). */
  private holdingsRecords: (PreparedHoldingsRecord & { file: string })[] = [];
  readonly summary: ImportSummary = {
    read: 0,
    created: 0,
    updated: 0,
    items: { created: 0, updated: 0 },
    holdings: { created: 0, updated: 0 },
    failed: [],
    warnings: [],
    warningCount: 0,
    unknownCodes: [],
  };

  constructor(
    private readonly db: Db,
    private readonly known: Known,
    private readonly options: ImportOptions,
  ) {}

  private warn(p: Prepared, reason: () => string): void {
    this.summary.warningCount++;
    if (this.summary.warnings.length < WARNINGS_KEPT) this.summary.warnings.push({ file: p.file, position: p.position, reason: reason() });
  }

  /**
   * A code an item names, as it will be written: kept when the library has it (or will add it,
   * createMissing), else left off; either way an unknown one is counted.
   */
  private code(kind: UnknownCode['kind'], code: string | undefined, unknown: Plan['unknown']): string | null {
    if (code === undefined) return null;
    if ((kind === 'location' ? this.known.locations : this.known.itemTypes).has(code)) return code;
    const key = `${kind}\t${code}`;
    const counted = unknown.get(key) ?? { kind, code, items: 0 };
    counted.items++;
    unknown.set(key, counted);
    return this.options.createMissing && CODE.test(code) ? code : null;
  }

  /** The record's items as rows for the database, with what cannot be kept said in warnings or counted in unknown. */
  private itemRows(p: Prepared, bibId: string, isNew: boolean, warnings: Warning[], unknown: Plan['unknown']): ImportedItem[] {
    const rows: ImportedItem[] = [];
    for (const item of p.items) {
      // Without a barcode an item cannot be recognised again: it is added with a new bib only.
      if (!item.barcode && !isNew) continue;
      const location = this.code('location', item.location, unknown);
      let status: string = item.status ?? ITEM_STATUS.available;
      if (!this.known.statuses.has(status)) {
        const unknown = status;
        warnings.push([
          p,
          () =>
            `item ${item.barcode ?? '(no barcode)'}: status "${unknown}" is not an item status; loaded as "${ITEM_STATUS.available}" (available)`,
        ]);
        status = ITEM_STATUS.available;
      }
      rows.push({
        bibId,
        barcode: item.barcode ?? null,
        callNumber: item.callNumber ?? null,
        location,
        status,
        itemType: this.code('itemType', item.itemType, unknown),
      });
    }
    return rows;
  }

  /**
   * Everything a batch needs from the database before its transaction: which bibs its records
   * replace, ids for its new bibs and items, which item barcodes are taken. This runs on the pool's
   * other connection while the previous batch is being written.
   */
  private async plan(batch: Prepared[]): Promise<Plan> {
    // Plans overlap (the next batch's starts as soon as it is read), but take their ids in turn,
    // so that bibs and items are numbered in the order of the file.
    const turn = this.idsTaken;
    let taken!: () => void;
    this.idsTaken = new Promise<void>((resolve) => (taken = resolve));
    try {
      return await this.planInTurn(batch, turn);
    } finally {
      taken();
    }
  }

  /** plan(), taking its ids once `turn` settles. */
  private async planInTurn(batch: Prepared[], turn: Promise<void>): Promise<Plan> {
    const targets = await matches(this.db, batch);
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
      const keys = identityKeys(p.identity);
      const earlier = keys.map((k) => freshByKey.get(k)).find((n) => n !== undefined);
      if (earlier !== undefined) {
        fresh[earlier] = p;
        updated++;
      } else {
        fresh.push(p);
        keys.forEach((k) => freshByKey.set(k, fresh.length - 1));
      }
    }
    await turn;
    const freshIds = await repo.allocateBibIds(this.db, fresh.length);
    const warnings: Warning[] = [];
    const unknown: Plan['unknown'] = new Map();
    const items = [
      ...[...replacing].flatMap(([id, p]) => this.itemRows(p, id, false, warnings, unknown)),
      ...fresh.flatMap((p, i) => this.itemRows(p, freshIds[i]!, true, warnings, unknown)),
    ];
    const footprint: Footprint = {
      keys: new Set(batch.flatMap((p) => identityKeys(p.identity))),
      replaced: new Set(replacing.keys()),
      barcodes: new Set(items.flatMap((item) => (item.barcode === null ? [] : [item.barcode]))),
    };
    return { batch, fresh, freshIds, replacing, updated, items: await itemLoader.plan(this.db, items), warnings, unknown, footprint };
  }

  /**
   * A batch's plan as it will be written. It was planned while earlier batches were still being
   * written; if one of those writes any of the same keys or barcodes, or replaces a bib it found,
   * it waits for all of them to commit and is planned again. Otherwise they change nothing its plan
   * depends on, and touch none of its rows, so it is written beside them. (Another import waits
   * for this one to end: see importTurn.)
   */
  private async finalPlan(planned: Promise<Plan>, unsettled: Writing[]): Promise<Plan> {
    const plan = await planned;
    const shares = (mine: Set<string>, theirs: Set<string>) => [...mine].some((x) => theirs.has(x));
    const { keys, replaced, barcodes } = plan.footprint;
    let clash = false;
    for (const earlier of unsettled) {
      const f = await earlier.footprint;
      clash ||= shares(keys, f.keys) || shares(replaced, f.replaced) || shares(barcodes, f.barcodes);
    }
    if (!clash) return plan;
    // Planned again once every batch before it has committed, so the new plan, whatever bibs it
    // now finds, can clash with none of them.
    await Promise.allSettled(unsettled.map((w) => w.done));
    this.throwIfFailed();
    return this.plan(plan.batch);
  }

  /** Writes a batch's final plan in one transaction, unless a batch has failed meanwhile. */
  private async write(plan: Plan): Promise<void> {
    this.throwIfFailed();
    this.options.signal?.throwIfAborted();
    const { fresh, freshIds, replacing } = plan;
    await this.db.transaction(async (tx) => {
      const at = await batchStamp(tx);
      if (replacing.size)
        await repo.updateBibs(
          tx,
          [...replacing].map(([id, p]) => ({ id, row: p.row, derived: p.derived })),
          at,
        );
      if (fresh.length)
        await repo.insertBibs(
          tx,
          fresh.map((p, i) => ({ id: freshIds[i], row: p.row, derived: p.derived })),
          at,
        );
      if (this.options.createMissing) await createCodes(tx, [...plan.unknown.values()]);
      const written = plan.items.rows.length ? await itemLoader.write(tx, plan.items, at) : { created: 0, updated: 0 };
      // A replaced bib's own holdings are replaced with it (those it no longer states deleted).
      const ownHoldings = [
        ...[...replacing].map(([bibId, p]) => ({ bibId, holdings: p.holdings })),
        ...fresh.flatMap((p, i) => (p.holdings.length ? [{ bibId: freshIds[i]!, holdings: p.holdings }] : [])),
      ];
      const holdings = ownHoldings.length ? await holdingsLoader.replaceOfBibs(tx, ownHoldings, at) : { created: 0, updated: 0 };
      // Counted only once the transaction has its rows: a failed batch adds nothing to the summary.
      this.summary.updated += plan.updated;
      this.summary.created += fresh.length;
      this.summary.items.created += written.created;
      this.summary.items.updated += written.updated;
      this.summary.holdings.created += holdings.created;
      this.summary.holdings.updated += holdings.updated;
    });
    for (const [p, reason] of plan.warnings) this.warn(p, reason);
    for (const u of plan.unknown.values()) {
      const seen = this.summary.unknownCodes.find((s) => s.kind === u.kind && s.code === u.code);
      if (seen) seen.items += u.items;
      else this.summary.unknownCodes.push({ ...u, created: !!this.options.createMissing && CODE.test(u.code) });
    }
  }

  /** The holdings records read, once their bibs are written: a transaction a batch. */
  private async writeHoldingsRecords(): Promise<void> {
    const records = this.holdingsRecords;
    for (let i = 0; i < records.length; i += BATCH) {
      const chunk = records.slice(i, i + BATCH);
      const written = await this.db.transaction(async (tx) => holdingsLoader.writeRecords(tx, chunk, await batchStamp(tx)));
      this.summary.holdings.created += written.created;
      this.summary.holdings.updated += written.updated;
      for (const { record, why } of written.refused) {
        const { file, position } = record as PreparedHoldingsRecord & { file: string };
        this.summary.failed.push({ file, position, reason: why });
      }
    }
    this.holdingsRecords = [];
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }

  private start(planned: Promise<Plan>, unsettled: Writing[]): Writing {
    const final = this.finalPlan(planned, unsettled);
    const writing: Writing = {
      footprint: final.then((plan) => plan.footprint),
      done: final.then((plan) => this.write(plan)),
      committed: false,
    };
    // No batch starts writing after one has failed (a failed plan fails the batches comparing with it too).
    writing.done.then(
      () => (writing.committed = true),
      (error: unknown) => (this.failure ??= { error }),
    );
    writing.footprint.catch(() => {}); // awaited by later batches; this only stops an early "unhandled" crash
    return writing;
  }

  async run(sources: BatchSource[]): Promise<ImportSummary> {
    const release = await importTurn(this.db, this.options.onWaiting);
    const signal = new ImportSignal(this.db);
    try {
      return await this.runInTurn(sources, signal);
    } finally {
      await signal.end().catch(() => {}); // a server notices a silent import within a minute anyway
      await release();
    }
  }

  private async runInTurn(sources: BatchSource[], signal: ImportSignal): Promise<ImportSummary> {
    const { summary } = this;
    const progress = this.options.onProgress ?? (() => {});
    let bytesDone = 0;
    // Batches being written, WRITERS at most side by side, while the next is read and planned. A
    // write's failure is thrown when the next batch waits for room, or at the end.
    let writing: Writing[] = [];
    try {
      for (const source of sources) {
        const bytes = () => bytesDone + (source.bytes?.() ?? 0);
        for await (const batch of source.batches) {
          await this.options.checkpoint?.();
          this.options.signal?.throwIfAborted();
          await signal.beat();
          summary.read += batch.read;
          for (const { position, reason } of batch.failed) summary.failed.push({ file: source.name, position, reason });
          for (const h of batch.holdings) this.holdingsRecords.push({ ...h, file: source.name });
          if (batch.records.length) {
            // The batches not yet committed when this one's plan starts are those it may clash with.
            writing = writing.filter((w) => !w.committed);
            const unsettled = [...writing];
            const planned = this.plan(batch.records.map((p) => ({ ...p, file: source.name })));
            planned.catch(() => {}); // handled where it is awaited, as below
            if (writing.length >= WRITERS) await Promise.race(writing.map((w) => w.done));
            this.throwIfFailed();
            writing.push(this.start(planned, unsettled));
          }
          progress({ records: summary.read, failed: summary.failed.length, bytes: bytes() });
        }
        bytesDone = bytes();
      }
      await Promise.all(writing.map((w) => w.done));
      await this.options.checkpoint?.();
      this.options.signal?.throwIfAborted();
      await this.writeHoldingsRecords();
    } catch (error) {
      // Nothing is written once the import has failed: the batches in flight finish (or fail) first.
      await Promise.allSettled(writing.map((w) => w.done));
      throw error;
    }
    progress({ records: summary.read, failed: summary.failed.length, bytes: bytesDone });
    summary.unknownCodes.sort((a, b) =>
      a.kind === b.kind ? b.items - a.items || (a.code < b.code ? -1 : 1) : a.kind === 'location' ? -1 : 1,
    );
    if (summary.created + summary.updated >= 1000) await repo.analyzeCatalogue(this.db);
    return summary;
  }
}

/**
 * One import at a time in a database (an advisory lock held by the run): an import's batches are
 * written side by side (change-clock.ts, batchStamp), and only its own plans keep them apart. A
 * second import waits for the first to end, where before their batches took turns.
 */
async function importTurn(db: Db, onWaiting: () => void = () => {}): Promise<() => Promise<void>> {
  for (let waited = false; ; waited = true) {
    const release = await db.tryLock(LOCK_KEYS.import);
    if (release) return release;
    if (!waited) onWaiting();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Adds the codes a batch's items name that the library lacks (those that are codes at all), in the batch's transaction. */
async function createCodes(tx: Queryable, unknown: { kind: UnknownCode['kind']; code: string }[]): Promise<void> {
  const codes = (kind: UnknownCode['kind']) =>
    unknown
      .filter((u) => u.kind === kind && CODE.test(u.code))
      .map((u) => u.code)
      .sort();
  if (codes('location').length + codes('itemType').length === 0) return;
  await codeLoader.lockCodes(tx);
  if (codes('location').length) await codeLoader.createLocations(tx, codes('location'));
  if (codes('itemType').length) await codeLoader.createItemTypes(tx, codes('itemType'));
}

async function knownCodes(db: Db): Promise<Known> {
  return {
    locations: new Set(await itemLoader.locationCodes(db)),
    itemTypes: new Set(await codeLoader.itemTypeCodes(db)),
    statuses: new Set(await itemLoader.statusCodes(db)),
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
  // The derived columns as values only for an engine that is sent the rows as JSON (no COPY): copying
  // them between threads cost about a twentieth of an import's CPU.
  const thread = new ImportThread(options.itemMap, { derivedValues: db.copyFrom === undefined });
  try {
    return await importer.run(
      files.map((file) => {
        let bytes = 0;
        const counted = (async function* () {
          for await (const chunk of file.open()) {
            bytes += chunk.length;
            yield chunk;
          }
        })();
        return { name: file.name, batches: thread.batches(counted), bytes: () => bytes };
      }),
    );
  } finally {
    await thread.close();
  }
}
