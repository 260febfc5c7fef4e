// Rules for patrons: writes in one transaction each, stamped by the change clock; PINs hashed
// before anything is written; PIN validation limited per patron and per API key in the database
// (src/auth/attempts.ts), so every server process shares the counts.
import { counted, type Counted, type FailedAttempts } from '../auth/attempts.ts';
import { horizonForReads, stamp } from '../db/change-clock.ts';
import type { Db, Queryable } from '../db/types.ts';
import type { PinLimits } from '../config.ts';
import { fail } from '../shared/errors.ts';
import { refuseIfScryptFull, ScryptBusy } from '../shared/scrypt.ts';
import type { LibraryService } from '../library/service.ts';
import type { Settings } from '../library/service.ts';
import { BLOCK_CODES, checkPin, parsePatronInput, type PatronInput } from './input.ts';
import { hashPin, verifyPin } from './pin.ts';
import { invalidBarcodeOrPin, refusePatron, tooManyAttempts } from './refusals.ts';
import * as repo from './repository.ts';

export const METADATA_FIELDS = ['patronType', 'homeLibraryCode', 'blockInfo'] as const;
export type MetadataField = (typeof METADATA_FIELDS)[number];

/** varFieldTag values GET /patrons/find understands, and what each matches. */
export const FIND_TAGS: Record<string, repo.FindKey['kind']> = { b: 'barcode', n: 'name', z: 'email', t: 'phone', u: 'uniqueId' };

/**
 * What else a patron's deletion does, in its transaction: the holds service cancels the patron's
 * holds, and the patron's catalogue sessions end (the row is a tombstone, so no cascade deletes them).
 */
export interface PatronDeletion {
  /** Before the tombstone is written: lock what `finish` will change, in its own lock order. */
  prepare(tx: Queryable, patronId: string): Promise<void>;
  /** After the tombstone is written (so no new hold can be placed). */
  finish(tx: Queryable, patronId: string): Promise<unknown>;
}

/**
 * What else a new PIN does, in the transaction that writes it: the patron's sessions elsewhere
 * (the public catalogue's) end, so whoever knew the old PIN is signed out, whichever door changed
 * it (PUT /patrons/{id}, the catalogue's own form). A hook rather than the sessions' SQL here: the
 * sessions service signs in through this service, so it sits above it, and their table stays its own.
 */
export type PinChanged = (tx: Queryable, patronId: string) => Promise<unknown>;

export class PatronService {
  constructor(
    private readonly db: Db,
    private readonly limits: PinLimits,
    private readonly attempts: FailedAttempts,
    private readonly deletion: PatronDeletion,
    private readonly library: Pick<LibraryService, 'now' | 'checkPatronFixedValues'>,
    private readonly pinChanged: PinChanged,
    /** For harvests' lists, which may come from a read replica (Deps.reads). */
    private readonly reads: Db = db,
  ) {}

  /**
   * What a read of the patron's loans and blocks needs, from one read of the library's settings:
   * today (for overdue loans), the library's blocks, and its time zone (for the dates a door shows).
   */
  async circulation(): Promise<{
    extras: repo.PatronExtras;
    blocks: Pick<Settings, 'maxMoneyOwed' | 'maxOverdueItems'>;
    today: string;
    timeZone: string;
  }> {
    const now = await this.library.now();
    return { extras: { circulation: { today: now.today } }, blocks: now, today: now.today, timeZone: now.timeZone };
  }

  async create(input: PatronInput): Promise<string> {
    const parsed = parsePatronInput(input, true);
    const fields = { ...parsed.fields, ...(parsed.pin === undefined ? {} : { pinHash: await hashPin(parsed.pin) }) };
    return this.db.transaction(async (tx) => {
      const at = await stamp(tx);
      await this.checkCodes(tx, fields, parsed.fixedValues);
      const id = await repo.insertPatron(tx, fields, at);
      await this.setIds(tx, id, parsed.barcodes ?? [], parsed.uniqueIds ?? []);
      if (parsed.marc.fields.length) await repo.replaceMarcFields(tx, id, [], parsed.marc.fields);
      if (parsed.fixedValues) await repo.setFixedValues(tx, id, parsed.fixedValues);
      return id;
    });
  }

  async update(id: string, input: PatronInput): Promise<void> {
    const parsed = parsePatronInput(input, false);
    const fields = { ...parsed.fields, ...(parsed.pin === undefined ? {} : { pinHash: await hashPin(parsed.pin) }) };
    const found = await this.db.transaction(async (tx) => {
      // The change clock first, as every write takes it, then the patron's row.
      const at = await stamp(tx);
      await this.checkCodes(tx, fields, parsed.fixedValues);
      if (fields.moneyOwed !== undefined && (await repo.finesOwed(tx, id)) > 0)
        throw fail.conflict(0, `moneyOwed: patron ${id} owes fines, and money owed follows them: charge or pay a fine instead`);
      if (parsed.keepOtherTypes) {
        // varFields t/p or a/h replace the phones or addresses of those types only.
        const current = await repo.lockPatronForUpdate(tx, id);
        if (!current) return false;
        const keep = parsed.keepOtherTypes;
        if (keep.phones && fields.phones)
          fields.phones = [...fields.phones, ...current.phones.filter((p) => keep.phones!.includes(p.type))];
        if (keep.addresses && fields.addresses)
          fields.addresses = [...fields.addresses, ...current.addresses.filter((a) => keep.addresses!.includes(a.type))];
      }
      if (!(await repo.updatePatron(tx, id, fields, at))) return false;
      if (fields.pinHash !== undefined) await this.pinChanged(tx, id);
      await this.setIds(tx, id, parsed.barcodes, parsed.uniqueIds);
      if (parsed.marc.tags.length) await repo.replaceMarcFields(tx, id, parsed.marc.tags, parsed.marc.fields);
      if (parsed.fixedValues) await repo.setFixedValues(tx, id, parsed.fixedValues);
      return true;
    });
    if (!found) throw fail.notFound(`no patron ${id}`);
  }

  /** Gives the patron these barcodes and unique ids (those given), refusing any another patron holds. */
  private async setIds(tx: Queryable, id: string, barcodes: string[] | undefined, uniqueIds: string[] | undefined): Promise<void> {
    if (barcodes) {
      const taken = await repo.setKeys(tx, 'barcodes', id, barcodes);
      if (taken.length) throw refusePatron.barcodeTaken(taken);
    }
    if (uniqueIds) {
      const taken = await repo.setKeys(tx, 'uniqueIds', id, uniqueIds);
      if (taken.length) throw refusePatron.uniqueIdTaken(taken);
    }
  }

  private async checkCodes(tx: Queryable, fields: repo.PatronFields, fixedValues?: ReadonlyMap<number, string | null>): Promise<void> {
    if (fixedValues) await this.library.checkPatronFixedValues(tx, fixedValues);
    if (fields.patronType !== undefined && !(await repo.patronTypeExists(tx, fields.patronType)))
      throw refusePatron.unknownPatronType(fields.patronType);
    if (fields.homeLibraryCode && !(await repo.locationExists(tx, fields.homeLibraryCode)))
      throw refusePatron.unknownLocation(fields.homeLibraryCode);
  }

  async delete(id: string): Promise<void> {
    const found = await this.db.transaction(async (tx) => {
      const at = await stamp(tx);
      await this.deletion.prepare(tx, id);
      if (!(await repo.tombstonePatron(tx, id, at))) return false;
      await this.deletion.finish(tx, id);
      return true;
    });
    if (!found) throw fail.notFound(`no patron ${id}`);
  }

  /** Locks a live patron for a change of what it owes (fines): false when there is none. In the caller's transaction. */
  lockForMoney(tx: Queryable, id: string): Promise<boolean> {
    return repo.lockPatronRow(tx, id);
  }

  /** Moves what the patron owes (a fine charged, a payment), in the caller's transaction. */
  addOwed(tx: Queryable, id: string, delta: string): Promise<void> {
    return repo.addOwed(tx, id, delta);
  }

  /** Whether a live patron has this id. */
  exists(id: string): Promise<boolean> {
    return repo.patronExists(this.db, id);
  }

  /**
   * Locks a live patron's row for a checkout or a hold, in the caller's transaction, and reads what
   * their standing needs (library/standing.ts): undefined when there is no such patron.
   */
  lockForCirculation(tx: Queryable, id: string, today: string): Promise<repo.PatronState | undefined> {
    return repo.lockPatron(tx, id, today);
  }

  async get(id: string, extras?: repo.PatronExtras): Promise<repo.PatronRow> {
    const row = await repo.getPatron(this.db, id, extras);
    if (!row) throw fail.notFound(`no patron ${id}`);
    return row;
  }

  async list(filter: Omit<repo.PatronListFilter, 'horizon'>): Promise<repo.PatronRow[]> {
    const byDate = filter.createdDate || filter.updatedDate || filter.deletedDate;
    return repo.listPatrons(this.reads, { ...filter, horizon: byDate ? await horizonForReads(this.db) : undefined });
  }

  /** The one live patron matching; 404 when none, 409 (code 133) when several. */
  async find(key: repo.FindKey, extras?: repo.PatronExtras): Promise<repo.PatronRow> {
    return this.get(await this.idOf(key), extras);
  }

  /**
   * find()'s patron, its id only (one statement, no row read). With an institution, only that
   * institution's patrons (by home library) are found: another's is not found, as if none held the key.
   */
  async idOf(key: repo.FindKey, institution?: string): Promise<string> {
    const ids = await repo.findPatronIds(this.db, key, 2, institution);
    if (ids.length > 1) throw fail.multipleRecords(`more than one patron has this ${key.kind}`);
    if (ids.length === 0) throw fail.notFound(`no patron has this ${key.kind}`);
    return ids[0]!;
  }

  /**
   * A live patron's first barcode; with an institution, only when the patron is that
   * institution's (as idOf finds them). Undefined otherwise.
   */
  barcodeOf(id: string, institution?: string): Promise<string | undefined> {
    return repo.firstBarcode(this.db, id, institution);
  }

  /**
   * Checks a barcode and PIN; answers the patron's id. Every way of failing (unknown barcode, no PIN,
   * wrong PIN) gives the same answer after the same work. Over a limit: tooManyAttempts, without
   * checking the PIN. With an institution, another institution's patron is an unknown barcode
   * (and nothing is counted against that patron).
   */
  async validate(barcode: string, pin: string, keyId: string, caseSensitive = true, institution?: string): Promise<string> {
    refuseIfScryptFull();
    const spelling = barcode.trim();
    const found = spelling ? await repo.pinOfBarcode(this.db, spelling, caseSensitive, institution) : undefined;
    const key = counted('key', keyId, { failures: this.limits.keyFailures, windowSec: this.limits.keyWindowSec });
    const target = this.patronCounted(found?.id, spelling);
    await this.begin(key, target, 'API key');
    const ok = await this.verify(key, target, pin.slice(0, 64), pin.length <= 64 ? found?.pin_hash : undefined);
    if (ok && found) {
      await this.attempts.succeeded(key, target);
      return found.id;
    }
    // The failure stays counted against the key (it was counted before the PIN was checked).
    await this.attempts.failed(key, target);
    throw invalidBarcodeOrPin();
  }

  /**
   * The Patron API's pintest: a PIN against a patron named by a barcode (read with its PIN in one
   * statement, as validate reads it) or by id, which (unlike validate) says whether the PIN was
   * wrong, the patron has none, or there is no such patron. Counted against the same limits as
   * validate: per patron, and per client in place of an API key. Over a limit: tooManyAttempts,
   * without checking the PIN.
   */
  async pinTest(
    patron: { barcode: string } | { id: string },
    pin: string,
    client: string,
  ): Promise<'ok' | 'wrongPin' | 'noPin' | 'notFound'> {
    const found =
      'barcode' in patron
        ? await repo.pinOfBarcode(this.db, patron.barcode)
        : await repo.pinOfPatron(this.db, patron.id).then((r) => r && { ...r, id: patron.id });
    if (!found) return 'notFound';
    refuseIfScryptFull();
    const key = counted('key', client, { failures: this.limits.keyFailures, windowSec: this.limits.keyWindowSec });
    const target = this.patronCounted(found.id, '');
    await this.begin(key, target, 'client');
    if (found.pin_hash && pin.length <= 64 && (await this.verify(key, target, pin, found.pin_hash))) {
      await this.attempts.succeeded(key, target);
      return 'ok';
    }
    await this.attempts.failed(key, target);
    return found.pin_hash ? 'wrongPin' : 'noPin';
  }

  /**
   * A patron's own change of PIN: the new PIN must meet the rules a write's `pin` meets (checked
   * first, so a mistyped new PIN costs no attempt), then the old PIN is tested as pinTest tests it,
   * counted against the same limits per patron and per `client` as validate (a wrong one is a
   * failed attempt; over a limit, tooManyAttempts). Answers false for a wrong old PIN, nothing
   * changed; true once the new PIN is the patron's.
   */
  async changePin(id: string, oldPin: string, newPin: string, client: string): Promise<boolean> {
    checkPin(newPin);
    const tested = await this.pinTest({ id }, oldPin, client);
    if (tested === 'notFound') throw fail.notFound(`no patron ${id}`);
    if (tested !== 'ok') return false;
    await this.update(id, { pin: newPin });
    return true;
  }

  /**
   * Failures are counted per patron, so that every spelling that reaches it (spaces around the
   * barcode, another letter case, another of its barcodes, its record number in the Patron API)
   * shares one count; a barcode no patron holds, per spelling (spaces and letter case aside).
   */
  private patronCounted(id: string | undefined, spelling: string): Counted {
    const limit = { failures: this.limits.barcodeFailures, windowSec: this.limits.barcodeWindowSec };
    return id === undefined ? counted('barcode', spelling.toLowerCase(), limit) : counted('patron', id, limit);
  }

  private async begin(key: Counted, target: Counted, what: string): Promise<void> {
    const begun = await this.attempts.begin(key, target);
    if (begun.refused === 'source') throw tooManyAttempts(begun.retryAfterSec, what);
    // (Named as a barcode whether or not a patron holds it: the answer does not tell which exist.)
    if (begun.refused === 'target') throw tooManyAttempts(begun.retryAfterSec, 'barcode');
  }

  /** The PIN against its hash (or the dummy's); when the bound on scrypt work refuses it, the attempt is taken back. */
  private async verify(key: Counted, target: Counted, pin: string, hash: string | null | undefined): Promise<boolean> {
    try {
      return await verifyPin(pin, hash);
    } catch (error) {
      if (error instanceof ScryptBusy) await this.attempts.notChecked(key, target);
      throw error;
    }
  }

  /** GET /patrons/metadata: the codes of a patron's coded fields, with descriptions. */
  async metadata(fields: readonly MetadataField[]): Promise<{ field: MetadataField; values: { code: string; desc: string }[] }[]> {
    const out = [];
    for (const field of fields) {
      let values: { code: string; desc: string }[];
      if (field === 'patronType')
        values = (await repo.listPatronTypes(this.db)).map((t) => ({ code: String(t.code), desc: t.description }));
      else if (field === 'homeLibraryCode') values = (await repo.listLocations(this.db)).map((l) => ({ code: l.code, desc: l.name }));
      else values = Object.entries(BLOCK_CODES).map(([code, desc]) => ({ code, desc }));
      out.push({ field, values });
    }
    return out;
  }
}

export type { BulkPatron, PatronRow, PatronState, Phone } from './repository.ts';

/** What the generated catalogue's loader writes in its own transactions. */
export const patronLoader = { insert: repo.insertBulkPatrons };
