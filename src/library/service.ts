// The library's setup as one service: its profile (read, planned, applied in one transaction), its
// settings, "today" in its time zone, and the circulation rule for a loan. Circulation and holds
// ask it; `carrel profile` and PUT /library/profile apply through it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCK_KEYS } from '../db/lock-keys.ts';
import type { Db, Queryable } from '../db/types.ts';
import type { ClosedDays, Clock } from '../shared/calendar.ts';
import { fail } from '../shared/errors.ts';
import * as closed from './closed-days-repository.ts';
import { describeChange, plan, type Change } from './plan.ts';
import { parseProfile, ProfileError, ruleKey as ruleKeyOf, type PatronFixedFieldSpec, type Profile } from './profile.ts';
import * as repo from './repository.ts';

export type { Rule, Settings } from './repository.ts';

export interface ApplyResult {
  changes: Change[];
  /** False for a dry run, or when there was nothing to change. */
  applied: boolean;
}

/** Where the starter profile is: profiles/ at the package's root, from src/library or from dist. */
export function starterProfilePath(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, 'profiles', 'starter.yaml');
}

export function readStarterProfile(): Profile {
  const file = starterProfilePath();
  return parseProfile(fs.readFileSync(file, 'utf8'), file);
}

export class LibraryService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  settings(q: Queryable = this.db): Promise<repo.Settings> {
    return repo.readSettings(q);
  }

  /** Today where the library is (YYYY-MM-DD). */
  async today(q: Queryable = this.db): Promise<string> {
    return (await this.now(q)).today;
  }

  /** The library's settings and its today, from one read: what a checkout or a hold needs of both. */
  async now(q: Queryable = this.db): Promise<repo.Settings & { today: string }> {
    const settings = await repo.readSettings(q);
    return { ...settings, today: this.clock.today(settings.timeZone) };
  }

  ruleFor(q: Queryable, patronType: number | null, itemType: string | null, location: string | null): Promise<repo.Rule> {
    return repo.ruleFor(q, patronType, itemType, location);
  }

  /** ruleFor this patron's loan of this item, read by their ids (none when either is missing). */
  ruleForLoan(q: Queryable, patronId: string, itemId: string): Promise<repo.Rule | undefined> {
    return repo.ruleForLoan(q, patronId, itemId);
  }

  /** The weekdays and dates a location is closed (due dates and pickup-by dates move past them). */
  async closedDays(location: string): Promise<ClosedDays> {
    if (!(await closed.locationExists(this.db, location))) throw fail.notFound(`no location ${location}`);
    return closed.closedDays(this.db, location, '0001-01-01');
  }

  /** A location's closed days from `from` on, read in the caller's transaction. */
  closedDaysFrom(q: Queryable, location: string, from: string): Promise<ClosedDays> {
    return closed.closedDays(q, location, from);
  }

  /** The closed days of an item's location from `from` on (for its due date: calendar.openDayAfter). */
  closedDaysOfItem(q: Queryable, itemId: string, from: string): Promise<ClosedDays> {
    return closed.closedDaysOfItem(q, itemId, from);
  }

  /** Closes a location on these weekdays and dates, or opens it again (adding false), all or none. */
  async setClosed(location: string, days: readonly ({ weekday: number } | { date: string })[], adding: boolean): Promise<void> {
    if (!(await closed.locationExists(this.db, location))) throw fail.notFound(`no location ${location}`);
    await this.db.transaction(async (tx) => {
      for (const d of days) {
        if ('weekday' in d)
          await (adding ? closed.addClosedWeekday(tx, location, d.weekday) : closed.removeClosedWeekday(tx, location, d.weekday));
        else await (adding ? closed.addClosedDate(tx, location, d.date) : closed.removeClosedDate(tx, location, d.date));
      }
    });
  }

  /** The patron fixed fields the library defines (all, or those numbered), with their code lists. */
  patronFixedFields(q: Queryable = this.db, numbers?: number[]): Promise<PatronFixedFieldSpec[]> {
    return repo.patronFixedFields(q, numbers);
  }

  /**
   * Checks the values a patron write gives the library's own fixed fields (by number; null clears
   * one): each field must be defined, and a value one of its codes when it has a list. Read in the
   * caller's transaction, so a profile applied meanwhile is seen whole or not at all.
   */
  async checkPatronFixedValues(q: Queryable, values: ReadonlyMap<number, string | null>): Promise<void> {
    if (values.size === 0) return;
    const defined = new Map((await repo.patronFixedFields(q, [...values.keys()])).map((f) => [f.number, f]));
    for (const [number, value] of values) {
      const field = defined.get(number);
      const name = `fixedFields.${number}`;
      if (!field) {
        const all = (await repo.patronFixedFields(q)).map((f) => f.number);
        throw fail.invalidInput(
          `${name} is not a patron fixed field this library defines (${all.length ? `it defines ${all.join(', ')}` : 'it defines none'}; the library profile's patronFixedFields adds one)`,
        );
      }
      if (value !== null && field.codes && !field.codes.some((c) => c.code === value))
        throw fail.invalidInput(`${name} must be one of ${field.codes.map((c) => c.code).join(', ')} (${field.label}), not "${value}"`);
    }
  }

  /** The library as one profile, read in one snapshot (an apply meanwhile shows whole or not at all). */
  profile(): Promise<Profile> {
    return this.db.transaction(async (tx) => {
      await tx.query('set transaction isolation level repeatable read');
      return repo.readProfile(tx);
    });
  }

  /**
   * Makes the library what the profile says, in one transaction, or (dryRun) only says what that
   * would change. Refuses, changing nothing, a removal that would leave records naming a code gone.
   */
  async apply(wanted: Profile, options: { dryRun?: boolean } = {}): Promise<ApplyResult> {
    try {
      return await this.db.transaction(async (tx) => {
        await tx.query('select pg_advisory_xact_lock($1)', [LOCK_KEYS.profile]);
        const current = await repo.readProfile(tx);
        const changes = plan(current, wanted);
        await refuseOrphans(tx, changes, wanted);
        if (options.dryRun || changes.length === 0) return { changes, applied: false };
        await write(tx, current, wanted, changes);
        return { changes, applied: true };
      });
    } catch (error) {
      // A record naming a code being removed, written after the counts were taken: refused all the same.
      if ((error as { code?: unknown }).code === '23503') {
        throw new ProfileError(['a record written meanwhile names a code this profile removes; apply it again to see which']);
      }
      throw error;
    }
  }

  /**
   * A database opened for the first time, with nothing in it (no branches, locations, bibs, items
   * or patrons), starts from the starter profile. Only additions: a database with anything in it
   * is the library's, and left as it is.
   */
  async startIfNew(): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [LOCK_KEYS.profile]);
      if (!(await repo.claimStart(tx))) return false;
      const starter = readStarterProfile();
      const current = await repo.readProfile(tx);
      await write(
        tx,
        current,
        starter,
        plan(current, starter).filter((c) => c.action !== 'remove'),
      );
      return true;
    });
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

async function refuseOrphans(tx: Queryable, changes: Change[], wanted: Profile): Promise<void> {
  const removed = (kind: Change['kind']) => changes.filter((c) => c.action === 'remove' && c.kind === kind).map((c) => c.key);
  const problems: string[] = [];
  for (const [code, uses] of await repo.locationUses(tx, removed('location'))) {
    const named = [
      uses.items && `${plural(uses.items, 'item')} are there`,
      uses.patrons && `${plural(uses.patrons, 'patron')} have it as home library`,
      uses.holds && `${plural(uses.holds, 'hold')} name it as pickup location`,
    ].filter(Boolean);
    if (named.length) problems.push(`location ${code} cannot be removed: ${named.join(', ')}; keep it in the profile, or move them first`);
  }
  for (const [code, n] of await repo.itemTypeUses(tx, removed('itemType'))) {
    if (n)
      problems.push(`item type ${code} cannot be removed: ${plural(n, 'item')} ${n === 1 ? 'has' : 'have'} it; keep it in the profile`);
  }
  for (const [code, n] of await repo.patronTypeUses(tx, removed('patronType').map(Number))) {
    if (n)
      problems.push(`patron type ${code} cannot be removed: ${plural(n, 'patron')} ${n === 1 ? 'has' : 'have'} it; keep it in the profile`);
  }
  for (const [code, n] of await repo.itemStatusUses(tx, removed('itemStatus'))) {
    if (n)
      problems.push(`item status ${code} cannot be removed: ${plural(n, 'item')} ${n === 1 ? 'has' : 'have'} it; keep it in the profile`);
  }
  for (const [number, n] of await repo.patronFixedFieldUses(tx, removed('patronFixedField').map(Number))) {
    if (n)
      problems.push(
        `patron fixed field ${number} cannot be removed: ${plural(n, 'patron')} ${n === 1 ? 'has' : 'have'} a value; keep it in the profile`,
      );
  }
  // A field's code list (given, or shortened) must still hold every value patrons have.
  const changed = new Set(changes.filter((c) => c.kind === 'patronFixedField' && c.action === 'change').map((c) => c.key));
  for (const f of wanted.patronFixedFields) {
    if (!f.codes || !changed.has(String(f.number))) continue;
    for (const { value, n } of await repo.patronValuesOutside(
      tx,
      f.number,
      f.codes.map((c) => c.code),
    ))
      problems.push(
        `patron fixed field ${f.number} cannot lose code ${value}: ${plural(n, 'patron')} ${n === 1 ? 'has' : 'have'} it; keep it in the field's codes`,
      );
  }
  if (problems.length) throw new ProfileError(problems);
}

/** Writes the planned changes: additions and changes first, parents before children; removals after, children first. */
async function write(tx: Queryable, current: Profile, p: Profile, changes: Change[]): Promise<void> {
  const touched = (kind: Change['kind']) => new Set(changes.filter((c) => c.kind === kind && c.action !== 'remove').map((c) => c.key));
  const removed = (kind: Change['kind']) => changes.filter((c) => c.kind === kind && c.action === 'remove').map((c) => c.key);
  if (touched('settings').size) await repo.writeSettings(tx, p);
  for (const t of p.patronTypes) if (touched('patronType').has(String(t.code))) await repo.upsertPatronType(tx, t);
  for (const t of p.itemTypes) if (touched('itemType').has(t.code)) await repo.upsertItemType(tx, t);
  for (const st of p.itemStatuses) if (touched('itemStatus').has(st.code)) await repo.upsertItemStatus(tx, st);
  for (const f of p.patronFixedFields) if (touched('patronFixedField').has(String(f.number))) await repo.upsertPatronFixedField(tx, f);
  for (const b of p.branches) if (touched('branch').has(String(b.id))) await repo.upsertBranch(tx, b);
  for (const b of p.branches) for (const l of b.locations) if (touched('location').has(l.code)) await repo.upsertLocation(tx, l, b.id);
  for (const key of removed('rule'))
    await repo.deleteRule(
      tx,
      current.circulationRules.find((r) => ruleKeyOf(r) === key)!,
    );
  for (const r of p.circulationRules) if (touched('rule').has(ruleKeyOf(r))) await repo.upsertRule(tx, r);
  for (const code of removed('location')) await repo.deleteLocation(tx, code);
  for (const id of removed('branch')) await repo.deleteBranch(tx, Number(id));
  for (const code of removed('itemType')) await repo.deleteItemType(tx, code);
  for (const code of removed('patronType')) await repo.deletePatronType(tx, Number(code));
  for (const code of removed('itemStatus')) await repo.deleteItemStatus(tx, code);
  for (const n of removed('patronFixedField')) await repo.deletePatronFixedField(tx, Number(n));
}

/** What an import reads and writes in its own transactions: the codes it knows, and those it adds (`--create-missing`). */
export const codeLoader = {
  itemTypeCodes: repo.itemTypeCodes,
  lockCodes: repo.lockCodes,
  createLocations: repo.createLocations,
  createItemTypes: repo.createItemTypes,
};

/** The plan as `carrel profile apply` prints it. */
export function describePlan(result: ApplyResult, dryRun: boolean): string {
  if (result.changes.length === 0) return 'The library already matches the profile: nothing to change.';
  const head = dryRun
    ? `Applying the profile would make ${plural(result.changes.length, 'change')} (dry run: nothing written):`
    : `Applied ${plural(result.changes.length, 'change')}:`;
  return [head, ...result.changes.map((c) => `  ${describeChange(c)}`)].join('\n');
}

/** The library's time zone as an SQL fragment for another domain's statement (the catalogue's account page reads them with the patron's other lists in one round trip). */
export const settingsSql = { timeZone: repo.TIME_ZONE_SQL };
