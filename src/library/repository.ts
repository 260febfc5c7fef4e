// SQL for the library's setup: reading it whole as a profile, writing one change at a time, the
// records that still name a code, and the circulation rule for a loan (circulation_rule(), 0023).
import { LOCK_KEYS } from '../db/lock-keys.ts';
import type { Queryable } from '../db/types.ts';
import { replaceClosedDays } from './closed-days-repository.ts';
import type { ItemStatusSpec } from '../items/statuses.ts';
import {
  ruleKey,
  WEEKDAYS,
  type BranchSpec,
  type ItemTypeSpec,
  type LocationSpec,
  type PatronFixedFieldSpec,
  type Profile,
  type RuleSpec,
} from './profile.ts';

export interface Settings {
  timeZone: string;
  holdLimit: number;
  holdMonths: number;
  maxMoneyOwed: string | null;
  maxOverdueItems: number | null;
}

/** The library's time zone as an SQL expression, for a statement that reads it beside other things. */
export const TIME_ZONE_SQL = '(select time_zone from library_settings)';

export async function readSettings(db: Queryable): Promise<Settings> {
  const row = (
    await db.query<Settings>(
      `select time_zone as "timeZone", hold_limit as "holdLimit", hold_months as "holdMonths",
         max_money_owed::text as "maxMoneyOwed", max_overdue_items as "maxOverdueItems" from library_settings`,
    )
  )[0];
  if (!row) throw new Error('library_settings has no row (migration 0023 makes it)');
  return row;
}

/** The rule for one loan: each value from the most specific matching row that sets it. */
export interface Rule {
  loanDays: number;
  renewals: number;
  holdable: boolean;
  /** Null: the library's hold limit. */
  holdLimit: number | null;
  finePerDay: string;
  /** Null: no maximum. */
  maxFine: string | null;
  graceDays: number;
}

const RULE = `r.loan_days as "loanDays", r.renewals, r.holdable, r.hold_limit as "holdLimit", r.fine_per_day::text as "finePerDay",
  r.max_fine::text as "maxFine", r.grace_days as "graceDays"`;

export async function ruleFor(db: Queryable, patronType: number | null, itemType: string | null, location: string | null): Promise<Rule> {
  return (await db.query<Rule>(`select ${RULE} from circulation_rule($1, $2, $3) r`, [patronType, itemType, location]))[0]!;
}

/** The rule for a loan of this item to this patron (none when either is missing), read by their ids. */
export async function ruleForLoan(db: Queryable, patronId: string, itemId: string): Promise<Rule | undefined> {
  return (
    await db.query<Rule>(
      `select ${RULE} from patrons p, items i, circulation_rule(p.patron_type, i.item_type, i.location_code) r where p.id = $1 and i.id = $2`,
      [patronId, itemId],
    )
  )[0];
}

export async function readProfile(db: Queryable): Promise<Profile> {
  const settings = await readSettings(db);
  const branches = await db.query<{ id: number; name: string; address: string | null; institution: string | null }>(
    'select id, name, address, institution from branches order by id',
  );
  const locations = await db.query<{
    code: string;
    name: string;
    branch_id: number;
    pickup: boolean;
    hold_shelf_days: number;
    closed_weekdays: number[];
    closed_dates: string[];
  }>(
    `select l.code, l.name, l.branch_id, l.pickup, l.hold_shelf_days,
       array(select weekday from location_closed_days d where d.location_code = l.code order by weekday) as closed_weekdays,
       array(select to_char(closed_date, 'YYYY-MM-DD') from location_closed_dates d where d.location_code = l.code order by closed_date) as closed_dates
     from locations l order by l.code collate "C"`,
  );
  const rules = await db.query<RuleSpec>(
    `select patron_type as "patronType", item_type as "itemType", location_code as location, loan_days as "loanDays", renewals, holdable,
       hold_limit as "holdLimit", fine_per_day::text as "finePerDay", max_fine::text as "maxFine", grace_days as "graceDays"
     from circulation_rules`,
  );
  const location = (l: (typeof locations)[number]): LocationSpec => ({
    code: l.code,
    name: l.name,
    pickup: l.pickup,
    holdShelfDays: l.hold_shelf_days,
    openDays: WEEKDAYS.filter((_, i) => !l.closed_weekdays.includes(i)),
    closedDates: l.closed_dates,
  });
  return {
    timeZone: settings.timeZone,
    branches: branches.map((b): BranchSpec => ({ ...b, locations: locations.filter((l) => l.branch_id === b.id).map(location) })),
    // Plain arrays and objects (a driver's rows may be neither), so that two profiles compare by value.
    itemTypes: (
      await db.query<ItemTypeSpec>('select code, name, sip2_media_type as "sip2MediaType" from item_types order by code collate "C"')
    ).map((r) => ({ ...r })),
    patronTypes: (await db.query<{ code: number; name: string }>('select code, description as name from patron_types order by code')).map(
      (r) => ({
        ...r,
      }),
    ),
    itemStatuses: await itemStatuses(db),
    patronFixedFields: await patronFixedFields(db),
    circulationRules: rules.map((r) => ({ ...r })).sort((a, b) => (ruleKey(a) < ruleKey(b) ? -1 : ruleKey(a) > ruleKey(b) ? 1 : 0)),
    holds: { limit: settings.holdLimit, neededByMonths: settings.holdMonths },
    blocks: { moneyOwed: settings.maxMoneyOwed, overdueItems: settings.maxOverdueItems },
  };
}

const STATUS = `code, display as name, available, holdable, on_shelf as "onShelf", sip2_status as "sip2Status"`;

export async function itemStatuses(db: Queryable): Promise<ItemStatusSpec[]> {
  return (await db.query<ItemStatusSpec>(`select ${STATUS} from item_statuses order by code collate "C"`)).map((r) => ({ ...r }));
}

/** The defined patron fixed fields (all, or those numbered), each with its code list. */
export async function patronFixedFields(db: Queryable, numbers?: number[]): Promise<PatronFixedFieldSpec[]> {
  const rows = await db.query<{ number: number; label: string; short: string; codes: { code: string; name: string }[] | null }>(
    `select f.number, f.label, f.short,
       (select json_agg(json_build_object('code', c.code, 'name', c.name) order by c.code collate "C")
        from patron_fixed_field_codes c where c.field_number = f.number) as codes
     from patron_fixed_fields f where $1::int[] is null or f.number = any($1::int[]) order by f.number`,
    [numbers ?? null],
  );
  return rows.map((r) => ({ number: r.number, label: r.label, short: r.short, codes: r.codes && r.codes.map((c) => ({ ...c })) }));
}

// ---- what still names a code

/** How many records name each of these locations: items (deleted ones too), patrons' home library, holds' pickup. */
export async function locationUses(
  db: Queryable,
  codes: string[],
): Promise<Map<string, { items: number; patrons: number; holds: number }>> {
  const rows = await db.query<{ code: string; items: number; patrons: number; holds: number }>(
    `select c as code,
       (select count(*)::int from items where location_code = c) as items,
       (select count(*)::int from patrons where home_library_code = c) as patrons,
       (select count(*)::int from holds where pickup_location = c) as holds
     from unnest($1::text[]) c`,
    [codes],
  );
  return new Map(rows.map((r) => [r.code, r]));
}

/**
 * How many rows of `table` hold each of these codes in `column`. Both names are Carrel's own, written
 * here and never taken from a request; the codes are a parameter.
 */
async function countsBy<K extends string | number>(
  db: Queryable,
  table: string,
  column: string,
  codes: K[],
  type: 'text' | 'int',
): Promise<Map<K, number>> {
  const rows = await db.query<{ code: K; n: number }>(
    `select c as code, (select count(*)::int from ${table} where ${column} = c) as n from unnest($1::${type}[]) c`,
    [codes],
  );
  return new Map(rows.map((r) => [r.code, r.n]));
}

export const itemTypeUses = (db: Queryable, codes: string[]) => countsBy(db, 'items', 'item_type', codes, 'text');
export const patronTypeUses = (db: Queryable, codes: number[]) => countsBy(db, 'patrons', 'patron_type', codes, 'int');
export const itemStatusUses = (db: Queryable, codes: string[]) => countsBy(db, 'items', 'status', codes, 'text');
/** How many patrons have a value of each of these fields. */
export const patronFixedFieldUses = (db: Queryable, numbers: number[]) =>
  countsBy(db, 'patron_fixed_values', 'field_number', numbers, 'int');

/** The values patrons hold in this field that are not among these codes, with how many hold each. */
export async function patronValuesOutside(db: Queryable, number: number, codes: string[]): Promise<{ value: string; n: number }[]> {
  return db.query<{ value: string; n: number }>(
    `select value, count(*)::int as n from patron_fixed_values where field_number = $1 and value <> all($2::text[])
     group by value order by value collate "C"`,
    [number, codes],
  );
}

// ---- writes, one change each

export async function upsertItemStatus(tx: Queryable, s: ItemStatusSpec): Promise<void> {
  await tx.query(
    `insert into item_statuses (code, display, available, holdable, on_shelf, sip2_status) values ($1, $2, $3, $4, $5, $6)
     on conflict (code) do update set display = excluded.display, available = excluded.available, holdable = excluded.holdable,
       on_shelf = excluded.on_shelf, sip2_status = excluded.sip2_status`,
    [s.code, s.name, s.available, s.holdable, s.onShelf, s.sip2Status],
  );
}

export async function deleteItemStatus(tx: Queryable, code: string): Promise<void> {
  await tx.query('delete from item_statuses where code = $1', [code]);
}

export async function upsertPatronFixedField(tx: Queryable, f: PatronFixedFieldSpec): Promise<void> {
  await tx.query(
    `insert into patron_fixed_fields (number, label, short) values ($1, $2, $3)
     on conflict (number) do update set label = excluded.label, short = excluded.short`,
    [f.number, f.label, f.short],
  );
  await tx.query('delete from patron_fixed_field_codes where field_number = $1', [f.number]);
  if (f.codes)
    await tx.query(
      `insert into patron_fixed_field_codes (field_number, code, name)
       select $1, c->>'code', c->>'name' from jsonb_array_elements($2::jsonb) c`,
      [f.number, f.codes],
    );
}

export async function deletePatronFixedField(tx: Queryable, number: number): Promise<void> {
  await tx.query('delete from patron_fixed_fields where number = $1', [number]);
}

export async function writeSettings(tx: Queryable, p: Profile): Promise<void> {
  await tx.query(
    `update library_settings set time_zone = $1, hold_limit = $2, hold_months = $3, max_money_owed = $4::numeric, max_overdue_items = $5`,
    [p.timeZone, p.holds.limit, p.holds.neededByMonths, p.blocks.moneyOwed, p.blocks.overdueItems],
  );
}

export async function upsertPatronType(tx: Queryable, t: { code: number; name: string }): Promise<void> {
  await tx.query(
    'insert into patron_types (code, description) values ($1, $2) on conflict (code) do update set description = excluded.description',
    [t.code, t.name],
  );
}

export async function deletePatronType(tx: Queryable, code: number): Promise<void> {
  await tx.query('delete from patron_types where code = $1', [code]);
}

export async function upsertItemType(tx: Queryable, t: ItemTypeSpec): Promise<void> {
  await tx.query(
    `insert into item_types (code, name, sip2_media_type) values ($1, $2, $3)
     on conflict (code) do update set name = excluded.name, sip2_media_type = excluded.sip2_media_type`,
    [t.code, t.name, t.sip2MediaType],
  );
}

export async function deleteItemType(tx: Queryable, code: string): Promise<void> {
  await tx.query('delete from item_types where code = $1', [code]);
}

export async function upsertBranch(
  tx: Queryable,
  b: { id: number; name: string; address: string | null; institution: string | null },
): Promise<void> {
  await tx.query(
    `insert into branches (id, name, address, institution) overriding system value values ($1, $2, $3, $4)
     on conflict (id) do update set name = excluded.name, address = excluded.address, institution = excluded.institution`,
    [b.id, b.name, b.address, b.institution],
  );
  // A branch made later without a number takes the next one free.
  await tx.query(`select setval(pg_get_serial_sequence('branches', 'id'), greatest((select max(id) from branches), 1))`);
}

export async function deleteBranch(tx: Queryable, id: number): Promise<void> {
  await tx.query('delete from branches where id = $1', [id]);
}

export async function upsertLocation(tx: Queryable, l: LocationSpec, branchId: number): Promise<void> {
  await tx.query(
    `insert into locations (code, name, branch_id, pickup, hold_shelf_days) values ($1, $2, $3, $4, $5)
     on conflict (code) do update set name = excluded.name, branch_id = excluded.branch_id, pickup = excluded.pickup,
       hold_shelf_days = excluded.hold_shelf_days`,
    [l.code, l.name, branchId, l.pickup, l.holdShelfDays],
  );
  await replaceClosedDays(
    tx,
    l.code,
    WEEKDAYS.flatMap((d, i) => (l.openDays.includes(d) ? [] : [i])),
    l.closedDates,
  );
}

export async function deleteLocation(tx: Queryable, code: string): Promise<void> {
  await tx.query('delete from locations where code = $1', [code]);
}

const RULE_WHERE = `coalesce(patron_type, -1) = coalesce($1::int, -1) and coalesce(item_type, '') = coalesce($2::text, '')
  and coalesce(location_code, '') = coalesce($3::text, '')`;

export async function deleteRule(tx: Queryable, r: RuleSpec): Promise<void> {
  await tx.query(`delete from circulation_rules where ${RULE_WHERE}`, [r.patronType, r.itemType, r.location]);
}

export async function upsertRule(tx: Queryable, r: RuleSpec): Promise<void> {
  await deleteRule(tx, r);
  await tx.query(
    `insert into circulation_rules (patron_type, item_type, location_code, loan_days, renewals, holdable, hold_limit, fine_per_day, max_fine, grace_days)
     values ($1, $2, $3, $4, $5, $6, $7, $8::numeric, $9::numeric, $10)`,
    [r.patronType, r.itemType, r.location, r.loanDays, r.renewals, r.holdable, r.holdLimit, r.finePerDay, r.maxFine, r.graceDays],
  );
}

// ---- codes an import brings

export async function itemTypeCodes(db: Queryable): Promise<string[]> {
  return (await db.query<{ code: string }>('select code from item_types')).map((r) => r.code);
}

/**
 * Takes the turn to add codes: an import writes batches side by side, and two adding the same
 * codes in different orders would wait on each other. Held to the end of the transaction.
 */
export async function lockCodes(tx: Queryable): Promise<void> {
  await tx.query('select pg_advisory_xact_lock($1)', [LOCK_KEYS.profile]);
}

/** Adds these locations (named by their codes, not pickup locations) to the first branch, made when there is none. */
export async function createLocations(tx: Queryable, codes: string[]): Promise<void> {
  await tx.query(`insert into branches (name) select 'Main Library' where not exists (select from branches)`);
  await tx.query(
    `insert into locations (code, name, branch_id) select c, c, (select min(id) from branches) from unnest($1::text[]) c
     on conflict (code) do nothing`,
    [codes],
  );
}

/** Adds these item types, named by their codes (the default rules apply to them). */
export async function createItemTypes(tx: Queryable, codes: string[]): Promise<void> {
  await tx.query('insert into item_types (code, name) select c, c from unnest($1::text[]) c on conflict (code) do nothing', [codes]);
}

/** True the first time it is asked of a database with nothing in it: it starts from the starter profile. */
export async function claimStart(tx: Queryable): Promise<boolean> {
  const rows = await tx.query<{ started: boolean }>('select started from library_settings for update');
  if (rows[0]?.started !== false) return false;
  await tx.query('update library_settings set started = true');
  const used = await tx.query(
    `select 1 from branches union all select 1 from locations union all select 1 from bibs
     union all select 1 from items union all select 1 from patrons limit 1`,
  );
  return used.length === 0;
}
