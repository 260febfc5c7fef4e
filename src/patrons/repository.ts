// SQL for patrons, their barcodes and the counters of failed PIN validations.
import { commonConditions, parameters, type CommonListFilter } from '../db/list-filters.ts';
import type { Queryable } from '../db/types.ts';
import type { StoredMarcField } from './var-fields.ts';

export interface Phone {
  number: string;
  type: string;
}
export interface Address {
  lines: string[];
  type: string;
}

export interface PatronRow {
  id: string;
  names: string[];
  barcodes: string[];
  emails: string[];
  phones: Phone[];
  addresses: Address[];
  patron_type: number;
  patron_type_desc: string;
  home_library_code: string | null;
  home_library_name: string | null;
  expiration_date: string | null;
  birth_date: string | null;
  block_code: string;
  money_owed: string;
  message: string | null;
  suppressed: boolean;
  created_date: Date;
  updated_date: Date;
  deleted_date: Date | null;
  unique_ids: string[];
  notes: string[];
  /** The varFields written in MARC form (src/patrons/var-fields.ts). */
  marc_fields: StoredMarcField[];
  /** Whether the patron has a PIN (never the PIN or its hash). */
  has_pin: boolean;
  /** The values of the fixed fields the library defines, in number order, with the code's name where it has one. */
  fixed_values: DefinedFixedValue[];
  /** With `circulation` only: what Sierra's fixedFields and autoBlockInfo count. */
  current_checkouts?: number;
  checkouts_total?: number;
  overdue?: number;
  last_circ_activity?: Date | null;
}

export interface DefinedFixedValue {
  number: number;
  label: string;
  short: string;
  value: string;
  display: string | null;
}

/** What a read adds to each patron's row: `circulation` counts its loans, overdue as of that day. */
export interface PatronExtras {
  circulation?: { today: string };
}

/** What a write sets; undefined leaves a column as it is (on update). */
export interface PatronFields {
  names?: string[];
  emails?: string[];
  phones?: Phone[];
  addresses?: Address[];
  patronType?: number;
  homeLibraryCode?: string | null;
  expirationDate?: string | null;
  birthDate?: string | null;
  blockCode?: string;
  moneyOwed?: string;
  message?: string | null;
  notes?: string[];
  suppressed?: boolean;
  pinHash?: string;
}

const COLUMNS = `p.id::text, p.names, p.emails, p.phones, p.addresses, p.patron_type, t.description as patron_type_desc,
  p.home_library_code, l.name as home_library_name, to_char(p.expiration_date, 'YYYY-MM-DD') as expiration_date,
  to_char(p.birth_date, 'YYYY-MM-DD') as birth_date, p.block_code, p.money_owed::text as money_owed, p.message, p.suppressed,
  p.created_date, p.updated_date, p.deleted_date,
  array(select b.barcode from patron_barcodes b where b.patron_id = p.id order by b.position) as barcodes,
  array(select u.unique_id from patron_unique_ids u where u.patron_id = p.id order by u.position) as unique_ids, p.notes,
  p.marc_fields, p.pin_hash is not null as has_pin,
  coalesce((select json_agg(json_build_object('number', v.field_number, 'label', f.label, 'short', f.short, 'value', v.value, 'display', c.name)
      order by v.field_number)
    from patron_fixed_values v join patron_fixed_fields f on f.number = v.field_number
      left join patron_fixed_field_codes c on c.field_number = v.field_number and c.code = v.value
    where v.patron_id = p.id), '[]') as fixed_values`;
const FROM = 'patrons p join patron_types t on t.code = p.patron_type left join locations l on l.code = p.home_library_code';

/**
 * What `select` reads: the patron's columns, and with `circulation` its loans in one pass (open,
 * all, overdue on the day given, the last time one went out or came back). `add` takes the day as
 * a parameter.
 */
function select(extras: PatronExtras | undefined, add: (v: unknown) => string): string {
  if (!extras?.circulation) return `select ${COLUMNS} from ${FROM}`;
  return `select ${COLUMNS}, lo.current_checkouts, lo.checkouts_total, lo.overdue, greatest(lo.last_out, lo.last_in) as last_circ_activity
    from ${FROM} left join lateral (select count(*) filter (where c.returned_date is null)::int as current_checkouts, count(*)::int as checkouts_total,
      count(*) filter (where c.returned_date is null and c.due_date < ${add(extras.circulation.today)}::date)::int as overdue,
      max(c.out_date) as last_out, max(c.returned_date) as last_in from checkouts c where c.patron_id = p.id) lo on true`;
}

// Column and the SQL type its parameter is cast to, per writable field.
const SET: Record<keyof PatronFields, [string, string]> = {
  names: ['names', 'text[]'],
  emails: ['emails', 'text[]'],
  phones: ['phones', 'text::jsonb'],
  addresses: ['addresses', 'text::jsonb'],
  patronType: ['patron_type', 'integer'],
  homeLibraryCode: ['home_library_code', 'text'],
  expirationDate: ['expiration_date', 'date'],
  birthDate: ['birth_date', 'date'],
  blockCode: ['block_code', 'text'],
  moneyOwed: ['money_owed', 'numeric'],
  message: ['message', 'text'],
  notes: ['notes', 'text[]'],
  suppressed: ['suppressed', 'boolean'],
  pinHash: ['pin_hash', 'text'],
};

function value(field: keyof PatronFields, v: unknown): unknown {
  return field === 'phones' || field === 'addresses' ? JSON.stringify(v) : v;
}

export async function insertPatron(tx: Queryable, fields: PatronFields, stamp: Date): Promise<string> {
  const { params, add } = parameters();
  const given = (Object.keys(SET) as (keyof PatronFields)[]).filter((f) => fields[f] !== undefined);
  const columns = [...given.map((f) => SET[f][0]), 'created_date', 'updated_date'];
  const values = [...given.map((f) => `${add(value(f, fields[f]))}::${SET[f][1]}`), add(stamp), add(stamp)];
  const rows = await tx.query<{ id: string }>(
    `insert into patrons (${columns.join(', ')}) values (${values.join(', ')}) returning id::text`,
    params,
  );
  return rows[0]!.id;
}

/** A patron from `carrel generate`: the fields it makes, all with one PIN hash. */
export interface BulkPatron {
  barcode: string;
  names: string[];
  emails: string[];
  patronType: number;
  homeLibraryCode: string;
  expirationDate: string;
}

/** Adds many patrons, skipping any whose barcode a live patron has; answers how many were added. */
export async function insertBulkPatrons(tx: Queryable, rows: BulkPatron[], pinHash: string, stamp: Date): Promise<number> {
  const taken = new Set(
    (
      await tx.query<{ barcode: string }>('select barcode from patron_barcodes where barcode = any($1::text[])', [
        rows.map((p) => p.barcode),
      ])
    ).map((r) => r.barcode),
  );
  const fresh = rows.filter((p) => !taken.has(p.barcode));
  if (fresh.length === 0) return 0;
  const ids = await tx.query<{ id: string }>("select nextval('patron_ids')::text as id from generate_series(1, $1)", [fresh.length]);
  const doc = fresh.map((p, i) => ({
    id: ids[i]!.id,
    barcode: p.barcode,
    names: p.names,
    emails: p.emails,
    patron_type: p.patronType,
    home_library_code: p.homeLibraryCode,
    expiration_date: p.expirationDate,
  }));
  await tx.query(
    `with r as (select * from jsonb_to_recordset($1::jsonb) as r(id bigint, barcode text, names text[], emails text[], patron_type integer,
                  home_library_code text, expiration_date date)),
     p as (insert into patrons (id, names, emails, patron_type, home_library_code, expiration_date, pin_hash, created_date, updated_date)
           select id, names, emails, patron_type, home_library_code, expiration_date, $2, $3, $3 from r)
     insert into patron_barcodes (barcode, patron_id, position) select barcode, id, 0 from r`,
    [doc, pinHash, stamp],
  );
  return fresh.length;
}

/** Changes the given fields of a live patron; false when there is none. */
export async function updatePatron(tx: Queryable, id: string, fields: PatronFields, stamp: Date): Promise<boolean> {
  const { params, add } = parameters();
  const given = (Object.keys(SET) as (keyof PatronFields)[]).filter((f) => fields[f] !== undefined);
  const sets = [...given.map((f) => `${SET[f][0]} = ${add(value(f, fields[f]))}::${SET[f][1]}`), `updated_date = ${add(stamp)}`];
  const rows = await tx.query(`update patrons set ${sets.join(', ')} where id = ${add(id)} and deleted_date is null returning id`, params);
  return rows.length > 0;
}

/** Sets a patron's values of the library's own fixed fields (by number; null removes one), leaving the others. */
export async function setFixedValues(tx: Queryable, id: string, values: ReadonlyMap<number, string | null>): Promise<void> {
  const entries = [...values];
  await tx.query('delete from patron_fixed_values where patron_id = $1 and field_number = any($2::int[])', [id, entries.map(([n]) => n)]);
  const kept = entries.filter(([, v]) => v !== null);
  if (kept.length)
    await tx.query(
      `insert into patron_fixed_values (patron_id, field_number, value) select $1, n, v from unnest($2::int[], $3::text[]) as t(n, v)`,
      [id, kept.map(([n]) => n), kept.map(([, v]) => v)],
    );
}

/** The keys a patron is found by, each held by one live patron: their tables and columns. */
const KEYS = {
  barcodes: { table: 'patron_barcodes', column: 'barcode' },
  uniqueIds: { table: 'patron_unique_ids', column: 'unique_id' },
} as const;

/**
 * Gives a patron exactly these barcodes or unique ids, in order; answers the ones another live
 * patron holds (then nothing should be committed).
 */
export async function setKeys(tx: Queryable, kind: keyof typeof KEYS, id: string, values: string[]): Promise<string[]> {
  const { table, column } = KEYS[kind];
  await tx.query(`delete from ${table} where patron_id = $1`, [id]);
  if (values.length === 0) return [];
  const rows = await tx.query<{ value: string }>(
    `insert into ${table} (${column}, patron_id, position)
     select v, $1, n from unnest($2::text[]) with ordinality as t(v, n)
     on conflict (${column}) do nothing returning ${column} as value`,
    [id, values],
  );
  const stored = new Set(rows.map((r) => r.value));
  return values.filter((v) => !stored.has(v));
}

/**
 * Replaces the MARC forms of a patron's varFields of these tags with those given (the others kept,
 * in their order).
 */
export async function replaceMarcFields(tx: Queryable, id: string, tags: string[], fields: StoredMarcField[]): Promise<void> {
  await tx.query(
    `update patrons set marc_fields =
       coalesce((select jsonb_agg(m.field order by m.ord) from jsonb_array_elements(marc_fields) with ordinality m(field, ord)
                 where not (m.field ->> 'fieldTag' = any($2::text[]))), '[]'::jsonb) || $3::text::jsonb
     where id = $1`,
    [id, tags, JSON.stringify(fields)],
  );
}

/** Deletes a live patron, leaving its tombstone: personal data and PIN cleared, barcodes released. */
export async function tombstonePatron(tx: Queryable, id: string, stamp: Date): Promise<boolean> {
  const rows = await tx.query(
    `update patrons set names = '{}', emails = '{}', phones = '[]', addresses = '[]', birth_date = null, message = null, notes = '{}',
       marc_fields = '[]', reading_history = false, pin_hash = null, deleted_date = $2, updated_date = $2
     where id = $1 and deleted_date is null returning id`,
    [id, stamp],
  );
  if (rows.length > 0) {
    await tx.query('delete from patron_barcodes where patron_id = $1', [id]);
    await tx.query('delete from patron_unique_ids where patron_id = $1', [id]);
    await tx.query('delete from patron_fixed_values where patron_id = $1', [id]);
    // What a patron read goes with the patron.
    await tx.query('delete from reading_history where patron_id = $1', [id]);
  }
  return rows.length > 0;
}

/** A live patron's phones and addresses, locked for the write that changes them. */
export async function lockPatronForUpdate(tx: Queryable, id: string): Promise<{ phones: Phone[]; addresses: Address[] } | undefined> {
  return (
    await tx.query<{ phones: Phone[]; addresses: Address[] }>(
      'select phones, addresses from patrons where id = $1 and deleted_date is null for update',
      [id],
    )
  )[0];
}

/** How many fines the patron still owes (any not wholly paid). */
export async function finesOwed(db: Queryable, id: string): Promise<number> {
  return (await db.query<{ n: number }>('select count(*)::int as n from fines where patron_id = $1 and paid_date is null', [id]))[0]!.n;
}

/** Locks a live patron's row for a change of what it owes; false when there is none. */
export async function lockPatronRow(tx: Queryable, id: string): Promise<boolean> {
  return (await tx.query('select 1 from patrons where id = $1 and deleted_date is null for update', [id])).length > 0;
}

/** Moves what a patron owes by `delta` (a decimal string, negative for a payment), never below zero. */
export async function addOwed(tx: Queryable, id: string, delta: string): Promise<void> {
  await tx.query('update patrons set money_owed = greatest(money_owed + $2::numeric, 0) where id = $1', [id, delta]);
}

/** What a checkout or a hold needs of its patron, read with the patron's row locked. */
export interface PatronState {
  id: string;
  expiration_date: string | null;
  block_code: string;
  patron_type: number;
  money_owed: string;
  /** Checkouts due before the day asked about. */
  overdue: number;
}

export async function lockPatron(tx: Queryable, id: string, today: string): Promise<PatronState | undefined> {
  return (
    await tx.query<PatronState>(
      `select id::text, to_char(expiration_date, 'YYYY-MM-DD') as expiration_date, block_code, patron_type, money_owed::text,
         (select count(*)::int from checkouts c where c.patron_id = p.id and c.returned_date is null and c.due_date < $2::date) as overdue
       from patrons p where id = $1 and deleted_date is null for update`,
      [id, today],
    )
  )[0];
}

export async function patronExists(db: Queryable, id: string): Promise<boolean> {
  return (await db.query('select 1 from patrons where id = $1 and deleted_date is null', [id])).length > 0;
}

export async function getPatron(db: Queryable, id: string, extras?: PatronExtras): Promise<PatronRow | undefined> {
  const { params, add } = parameters();
  return (await db.query<PatronRow>(`${select(extras, add)} where p.id = ${add(id)}`, params))[0];
}

export interface PatronListFilter extends CommonListFilter {
  limit: number;
  offset: number;
  extras?: PatronExtras;
}

export async function listPatrons(db: Queryable, filter: PatronListFilter): Promise<PatronRow[]> {
  const { params, add } = parameters();
  const from = select(filter.extras, add);
  const where = commonConditions('p', filter, add);
  return db.query<PatronRow>(
    `${from} ${where.length ? `where ${where.join(' and ')}` : ''}
     order by p.id limit ${add(filter.limit)} offset ${add(filter.offset)}`,
    params,
  );
}

export type FindKey = { kind: 'barcode' | 'name' | 'email' | 'phone' | 'uniqueId'; value: string };

/**
 * Only the patrons of one institution: those whose home library is a location of a branch the
 * profile gives that institution (README, "SIP2"). `param` is the institution's placeholder.
 */
const ofInstitution = (param: string) =>
  `p.home_library_code in (select l.code from locations l join branches b on b.id = l.branch_id where b.institution = ${param})`;

/** Ids of live patrons matching exactly (of this institution only, when one is given), at most `limit` of them, ascending. */
export async function findPatronIds(db: Queryable, key: FindKey, limit: number, institution?: string): Promise<string[]> {
  const condition = {
    barcode: 'p.id in (select patron_id from patron_barcodes where barcode = $1)',
    name: 'p.names @> array[$1::text]',
    email: 'p.emails @> array[$1::text]',
    phone: "p.phones @> jsonb_build_array(jsonb_build_object('number', $1::text))",
    uniqueId: 'p.id in (select patron_id from patron_unique_ids where unique_id = $1)',
  }[key.kind];
  const scoped = institution === undefined ? '' : `and ${ofInstitution('$3')}`;
  const rows = await db.query<{ id: string }>(
    `select p.id::text from patrons p where p.deleted_date is null and ${condition} ${scoped} order by p.id limit $2`,
    institution === undefined ? [key.value, limit] : [key.value, limit, institution],
  );
  return rows.map((r) => r.id);
}

/** A live patron's first barcode (of this institution's patrons only, when one is given); undefined when none. */
export async function firstBarcode(db: Queryable, id: string, institution?: string): Promise<string | undefined> {
  const scoped = institution === undefined ? '' : `and ${ofInstitution('$2')}`;
  const [row] = await db.query<{ barcode: string }>(
    `select b.barcode from patrons p join patron_barcodes b on b.patron_id = p.id
     where p.id = $1::bigint and p.deleted_date is null ${scoped} order by b.position limit 1`,
    institution === undefined ? [id] : [id, institution],
  );
  return row?.barcode;
}

/**
 * The live patron holding a barcode, with its PIN hash (null when it has no PIN). Not case
 * sensitive: a barcode that matches only with letters of another case, and only one such.
 */
/** A live patron's PIN hash (null when it has none), and its first barcode; undefined when there is no such patron. */
export async function pinOfPatron(db: Queryable, id: string): Promise<{ pin_hash: string | null; barcode: string | null } | undefined> {
  const [row] = await db.query<{ pin_hash: string | null; barcode: string | null }>(
    `select p.pin_hash, (select b.barcode from patron_barcodes b where b.patron_id = p.id order by b.position limit 1) as barcode
     from patrons p where p.id = $1::bigint and p.deleted_date is null`,
    [id],
  );
  return row;
}

export async function pinOfBarcode(
  db: Queryable,
  barcode: string,
  caseSensitive = true,
  institution?: string,
): Promise<{ id: string; pin_hash: string | null } | undefined> {
  const scoped = institution === undefined ? '' : `and ${ofInstitution('$2')}`;
  const params = institution === undefined ? [barcode] : [barcode, institution];
  const exact = await db.query<{ id: string; pin_hash: string | null }>(
    `select p.id::text, p.pin_hash from patron_barcodes b join patrons p on p.id = b.patron_id
     where b.barcode = $1 and p.deleted_date is null ${scoped}`,
    params,
  );
  if (exact.length || caseSensitive) return exact[0];
  const folded = await db.query<{ id: string; pin_hash: string | null }>(
    `select p.id::text, p.pin_hash from patron_barcodes b join patrons p on p.id = b.patron_id
     where lower(b.barcode) = lower($1) and p.deleted_date is null ${scoped} limit 2`,
    params,
  );
  return folded.length === 1 ? folded[0] : undefined;
}

export async function patronTypeExists(db: Queryable, code: number): Promise<boolean> {
  return (await db.query('select 1 from patron_types where code = $1', [code])).length > 0;
}

export async function locationExists(db: Queryable, code: string): Promise<boolean> {
  return (await db.query('select 1 from locations where code = $1', [code])).length > 0;
}

export async function listPatronTypes(db: Queryable): Promise<{ code: number; description: string }[]> {
  return db.query('select code, description from patron_types order by code');
}

export async function listLocations(db: Queryable): Promise<{ code: string; name: string }[]> {
  return db.query('select code, name from locations order by code');
}
