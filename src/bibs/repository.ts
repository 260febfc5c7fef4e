// SQL for bibliographic records.
import { CopyWriter } from '../db/copy-text.ts';
import type { Queryable } from '../db/types.ts';
import type { MarcInJson } from '../marc/marc-in-json.ts';
import { commonConditions, parameters, type CommonListFilter } from '../db/list-filters.ts';
import type { DerivedBib } from './derive.ts';
import { DERIVED_COLUMNS } from './derived-columns.ts';
import { ACTIVE_SQL } from '../holds/states.ts';
import { ITEM_STATUS } from '../items/statuses.ts';

export interface BibRow {
  id: string;
  marc: MarcInJson | null;
  marc_text?: string | null;
  title: string | null;
  author: string | null;
  publish_year: number | null;
  lang: string | null;
  country: string | null;
  bib_level: string | null;
  material_type: string | null;
  material_type_desc: string | null;
  suppressed: boolean;
  catalog_date: string | null;
  created_date: Date;
  updated_date: Date;
  deleted_date: Date | null;
  /**
   * Some item of the bib is on the shelf: status available, not checked out, not suppressed.
   * Read with the holdings it is in item_holdings instead.
   */
  available?: boolean;
  /** Read with the fixed fields or locations only: its live items' count, locations (each once, by code) and availability. */
  item_holdings?: { copies: number; available: boolean; locations: { code: string; name: string }[] };
  /** Read with `holds` only: active holds on the bib. */
  hold_count?: number;
  /** Read with `orders` only: each location of each order of the bib not cancelled. */
  order_info?: { orderId: string; location: { code: string; name: string }; copies: number; date: string }[];
}

/** What a read includes beyond the derived columns. */
export interface BibExtras {
  marc?: boolean;
  /** The MARC as its stored text (marc_text), not parsed: a harvest writes it out as it is. */
  marcText?: boolean;
  /** The item locations and copy count the fixed fields and `locations` show. */
  holdings?: boolean;
  /** The count of active holds on the bib (`holdCount`). */
  holds?: boolean;
  /** The bib's orders, a location each (`orders`). */
  orders?: boolean;
}

// A bib's live items' count, locations and availability, for the fixed fields and `locations`: one
// pass over its items for all three (a subquery each read them thrice, a third of a harvest page's
// database time). Built as json, not jsonb: it is only sent.
const ITEM_HOLDINGS = `(select json_build_object('copies', count(*),
    'available', coalesce(bool_or(i.status = '${ITEM_STATUS.available}' and i.due_date is null and not i.suppressed), false),
    'locations', coalesce((select json_agg(json_build_object('code', l.code, 'name', l.name) order by l.code)
                           from locations l where l.code = any(array_agg(i.location_code))), '[]'))
  from item_bibs ib join items i on i.id = ib.item_id where ib.bib_id = b.id and i.deleted_date is null) as item_holdings`;
// Whether any live item is on the shelf: not checked out, available, not suppressed.
const AVAILABLE = `exists (select 1 from item_bibs ib join items i on i.id = ib.item_id
  where ib.bib_id = b.id and i.status = '${ITEM_STATUS.available}' and i.due_date is null and i.deleted_date is null and not i.suppressed) as available`;

// Each location of each live, not cancelled order of the bib, in order and location order.
const ORDER_INFO = `(select coalesce(json_agg(json_build_object('orderId', o.id::text,
    'location', json_build_object('code', ol.location_code, 'name', coalesce(l.name, ol.location_code)),
    'copies', ol.copies, 'date', to_char(o.order_date, 'YYYY-MM-DD')) order by o.id, ol.display_order), '[]')
  from orders o join order_locations ol on ol.order_id = o.id left join locations l on l.code = ol.location_code
  where o.bib_id = b.id and o.deleted_date is null and o.status <> 'z') as order_info`;

// The MARC is read only when the answer shows it (varFields): a page of 2,000 bibs without it is a
// fraction of the bytes.
const columns = ({
  marc = false,
  marcText = false,
  holdings = false,
  holds = false,
  orders = false,
}: BibExtras) => `b.id::text, ${marc ? 'b.marc' : 'null as marc'}, ${marcText ? 'b.marc::text as marc_text' : 'null as marc_text'}, b.title, b.author, b.publish_year, b.lang, b.country, b.bib_level,
  b.material_type, m.description as material_type_desc, b.suppressed, to_char(b.catalog_date, 'YYYY-MM-DD') as catalog_date,
  b.created_date, b.updated_date, b.deleted_date, ${holdings ? ITEM_HOLDINGS : AVAILABLE}${
    holds
      ? `, (select count(*)::int from holds h where h.bib_id = b.id and h.record_type = 'b' and h.state in ${ACTIVE_SQL}) as hold_count`
      : ''
  }${orders ? `, ${ORDER_INFO}` : ''}`;
const FROM = 'bibs b left join material_types m on m.code = b.material_type';

/**
 * BibRow's columns over "bibs b" (joined as BIB_FROM), for a statement of another module that
 * answers a page of bibs with its own columns: a search's page with its ranking, in one round trip.
 */
export const bibRowColumns = columns;
export const BIB_FROM = FROM;

// The writes below take the derived columns from DERIVED_COLUMNS (derived-columns.ts), in its
// order. Their names and types are constants of that table, never client input, so building
// statement text from them is safe; the values still go as parameters or COPY cells.

/** The derived columns' names: "title, author, …" once joined. */
const DERIVED_NAMES = DERIVED_COLUMNS.map(([column]) => column);
/** How many parameters the derived columns take in a statement that sends them one by one. */
const DERIVED_COUNT = DERIVED_COLUMNS.length;
/** "$from, $from+1, …": a parameter for each derived column, in the table's order (as derivedParams gives the values). */
const derivedPlaceholders = (from: number) => DERIVED_COLUMNS.map((_, i) => `$${from + i}`).join(', ');

/** A record's derived values, in the table's order: the parameters for derivedPlaceholders. */
function derivedParams(d: DerivedBib): unknown[] {
  return DERIVED_COLUMNS.map(([, , value]) => value(d));
}

// $1 the MARC, then the derived columns, then suppressed, then the stamp.
const INSERT_BIB = `insert into bibs (marc, ${DERIVED_NAMES.join(', ')}, suppressed, catalog_date, created_date, updated_date)
  values ($1::json, ${derivedPlaceholders(2)}, $${DERIVED_COUNT + 2},
    ($${DERIVED_COUNT + 3}::timestamptz at time zone 'UTC')::date, $${DERIVED_COUNT + 3}, $${DERIVED_COUNT + 3})
  returning id::text`;

export async function insertBib(tx: Queryable, marc: MarcInJson, derived: DerivedBib, suppressed: boolean, stamp: Date): Promise<string> {
  const rows = await tx.query<{ id: string }>(INSERT_BIB, [marc, ...derivedParams(derived), suppressed, stamp]);
  return rows[0]!.id;
}

// A bulk write (an import) sends its batch as one COPY: each bib as a prepared row of COPY text
// (bibRow, or the import's own reader), made as records are read, ahead of the write. Where the
// connection cannot COPY (a client of the embedded server's socket) the batch goes as one JSON
// document, unpacked by jsonb_to_recordset.

/** The recordset's columns with their types, "r(id bigint, marc json, title text, …)"; also the import's temporary table. */
const RECORDSET = `r(id bigint, marc json, ${DERIVED_COLUMNS.map(([column, type]) => `${column} ${type}`).join(', ')})`;

/** The columns of a prepared row, in order: the MARC (MARC-in-JSON) and what is derived from it. */
const ROW_COLUMNS = ['marc', ...DERIVED_NAMES];

/** Appends a record's derived cells, in ROW_COLUMNS' order, to a row whose MARC cell has been written. */
export function writeDerivedCells(w: CopyWriter, d: DerivedBib): void {
  for (const [, , value] of DERIVED_COLUMNS) {
    w.byte(0x09);
    w.cell(value(d));
  }
}

/** A record's prepared row from its MARC-in-JSON text (marcInJsonText). */
export function bibRow(marcJson: string, derived: DerivedBib): Uint8Array {
  const w = new CopyWriter(marcJson.length * 2 + 256);
  w.cell(marcJson);
  writeDerivedCells(w, derived);
  return w.written();
}

export interface BulkBib {
  id?: string;
  /** The prepared row: ROW_COLUMNS as COPY text, without a line end. */
  row: Uint8Array;
  /** Needed where the connection cannot COPY: the rows are then sent as JSON, from these values. */
  derived?: DerivedBib;
}

/** The MARC-in-JSON text back out of a prepared row: its first cell, unescaped (JSON text has no tabs or line breaks). */
function marcJsonOf(row: Uint8Array): string {
  const end = row.indexOf(0x09);
  return Buffer.from(row.buffer, row.byteOffset, end).toString('utf8').replaceAll('\\\\', '\\');
}

function recordsetJson(rows: BulkBib[]): string {
  const parts = rows.map(({ id, row, derived: d }) => {
    if (!d) throw new Error('a bib row without its derived columns, where rows are written as JSON');
    // The derived columns as the recordset's fields, by column name.
    const fields: Record<string, unknown> = {};
    for (const [column, , value] of DERIVED_COLUMNS) fields[column] = value(d);
    const rest = JSON.stringify(fields);
    return `{"id":${id ?? 'null'},"marc":${marcJsonOf(row)},${rest.slice(1)}`;
  });
  return `[${parts.join(',')}]`;
}

/** Rows ending with the given cells of each (COPY text), for one COPY. */
function withCells(rows: BulkBib[], cells: (row: BulkBib) => string): Buffer {
  const w = new CopyWriter(rows.reduce((sum, r) => sum + r.row.length + 80, 0));
  for (const r of rows) {
    w.bytes(r.row);
    w.ascii(cells(r));
  }
  return w.written();
}

/** Ids for new records, taken ahead so that a batch knows which id each of its records gets. */
export async function allocateBibIds(tx: Queryable, count: number): Promise<string[]> {
  if (count === 0) return [];
  const rows = await tx.query<{ id: string }>("select nextval('bib_ids')::text as id from generate_series(1, $1)", [count]);
  return rows.map((r) => r.id);
}

const BIB_COLUMNS = [...ROW_COLUMNS, 'id', 'catalog_date', 'created_date', 'updated_date'];
/** The row's columns read from the recordset r: "r.marc, r.title, …", in ROW_COLUMNS' order. */
const FROM_R = ROW_COLUMNS.map((c) => `r.${c}`).join(', ');

/** Many new records in one statement (COPY where the connection can); a row without an id gets the next one. */
export async function insertBibs(tx: Queryable, rows: BulkBib[], stamp: Date): Promise<void> {
  if (tx.copyFrom && rows.every((r) => r.id !== undefined)) {
    const at = stamp.toISOString();
    const tail = `\t${at.slice(0, 10)}\t${at}\t${at}\n`;
    await tx.copyFrom(
      'bibs',
      BIB_COLUMNS,
      withCells(rows, (r) => `\t${r.id}${tail}`),
    );
    return;
  }
  const doc = recordsetJson(rows);
  await tx.query(
    `insert into bibs (${BIB_COLUMNS.join(', ')})
     select ${FROM_R}, coalesce(r.id, nextval('bib_ids')), ($2::timestamptz at time zone 'UTC')::date, $2, $2
     from jsonb_to_recordset($1::text::jsonb) as ${RECORDSET}`,
    [doc, stamp],
  );
}

/** Each row column set from the recordset r: "marc = r.marc, title = r.title, …". */
const SET_FROM_R = ROW_COLUMNS.map((c) => `${c} = r.${c}`).join(', ');

/**
 * A row of r that differs from its bib b: a record loaded again as it is changes nothing (its
 * updatedDate neither, so harvesters are not sent it again). Derived columns are compared too, so
 * loading the same file after an upgrade that derives them differently still refreshes them.
 */
const DIFFERS = `(${ROW_COLUMNS.map((c) => (c === 'marc' ? 'b.marc::text' : `b.${c}`)).join(', ')})
  is distinct from (${ROW_COLUMNS.map((c) => (c === 'marc' ? 'r.marc::text' : `r.${c}`)).join(', ')})`;

/** Replaces many live records' MARC in one statement (suppression unchanged), where it differs. */
export async function updateBibs(tx: Queryable, rows: (BulkBib & { id: string })[], stamp: Date): Promise<void> {
  if (tx.copyFrom) {
    // COPY into a table of the transaction, then one update from it: the MARC is read once, as
    // json, where a JSON document would be parsed whole as jsonb and each record's MARC written
    // back out as text.
    await tx.exec(`create temporary table import_bibs (${RECORDSET.slice(2, -1)}) on commit drop`);
    await tx.copyFrom(
      'import_bibs',
      [...ROW_COLUMNS, 'id'],
      withCells(rows, (r) => `\t${r.id}\n`),
    );
    await tx.query(
      `update bibs b set ${SET_FROM_R}, updated_date = $1 from import_bibs r where b.id = r.id and b.deleted_date is null and ${DIFFERS}`,
      [stamp],
    );
    return;
  }
  const doc = recordsetJson(rows);
  await tx.query(
    `update bibs b set ${SET_FROM_R}, updated_date = $2
     from jsonb_to_recordset($1::text::jsonb) as ${RECORDSET}
     where b.id = r.id and b.deleted_date is null and ${DIFFERS}`,
    [doc, stamp],
  );
}

export interface MatchRow {
  id: string;
  control_number: string | null;
  control_source: string | null;
  system_numbers: string[];
}

/** Live bibs with one of these 001+003 pairs. */
export async function findBibsByControl(db: Queryable, controls: [string, string][]): Promise<MatchRow[]> {
  if (controls.length === 0) return [];
  return db.query<MatchRow>(
    `select id::text, control_number, control_source, system_numbers from bibs
     where deleted_date is null and (control_number, coalesce(control_source, '')) in (select * from unnest($1::text[], $2::text[]))`,
    [controls.map((c) => c[0]), controls.map((c) => c[1])],
  );
}

/** Live bibs sharing one of these 035 numbers. */
export async function findBibsBySystemNumber(db: Queryable, numbers: string[]): Promise<MatchRow[]> {
  if (numbers.length === 0) return [];
  // The numbers are looked up one at a time: for "system_numbers && (500 numbers)" the planner
  // expects most of the table to match and reads all of it (1.5 s a batch at 100,000 bibs). The
  // "offset 0" keeps each lookup its own index scan: during a first import the table has no
  // statistics yet, "deleted_date is null" looks rare, and PostgreSQL would otherwise read every
  // live bib once and test each number against each (a second a batch by 50,000 bibs).
  return db.query<MatchRow>(
    `select distinct b.id::text, b.control_number, b.control_source, b.system_numbers from unnest($1::text[]) as n(number)
       cross join lateral (select * from bibs where deleted_date is null and system_numbers @> array[n.number] offset 0) b`,
    [numbers],
  );
}

// $1 the id, $2 the MARC, then the derived columns ("title = $3, …"), then suppressed (null
// leaves it), then the stamp.
const UPDATE_BIB = `update bibs set marc = $2::json,
    ${DERIVED_NAMES.map((c, i) => `${c} = $${3 + i}`).join(', ')},
    suppressed = coalesce($${DERIVED_COUNT + 3}, suppressed), updated_date = $${DERIVED_COUNT + 4}
  where id = $1 and deleted_date is null returning id`;

/** Replaces a live record's MARC; false when there is no live record with this id. */
export async function updateBib(
  tx: Queryable,
  id: string,
  marc: MarcInJson,
  derived: DerivedBib,
  suppressed: boolean | undefined,
  stamp: Date,
): Promise<boolean> {
  const rows = await tx.query(UPDATE_BIB, [id, marc, ...derivedParams(derived), suppressed ?? null, stamp]);
  return rows.length > 0;
}

// The MARC and each derived column not 'kept' set to what deleting writes (its onDelete):
// "marc = null, title = null, …, isbns = '{}', …".
const TOMBSTONE_BIB = `update bibs set marc = null,
    ${DERIVED_COLUMNS.filter(([, , , onDelete]) => onDelete !== 'kept')
      .map(([column, , , onDelete]) => `${column} = ${onDelete}`)
      .join(', ')},
    deleted_date = $2, updated_date = $2
  where id = $1 and deleted_date is null returning id`;

/** Deletes a live record, leaving its tombstone (id and dates); false when there is none. */
export async function tombstoneBib(tx: Queryable, id: string, stamp: Date): Promise<boolean> {
  const rows = await tx.query(TOMBSTONE_BIB, [id, stamp]);
  return rows.length > 0;
}

export async function getBib(db: Queryable, id: string): Promise<BibRow | undefined> {
  const rows = await db.query<BibRow>(
    `select ${columns({ marc: true, holdings: true, holds: true, orders: true })} from ${FROM} where b.id = $1`,
    [id],
  );
  return rows[0];
}

export interface BibListFilter extends CommonListFilter {
  limit: number;
  offset: number;
  extras?: BibExtras;
}

export async function listBibs(db: Queryable, filter: BibListFilter): Promise<BibRow[]> {
  const { params, add } = parameters();
  const where = commonConditions('b', filter, add);
  const sql = `select ${columns(filter.extras ?? {})} from ${FROM} ${where.length ? `where ${where.join(' and ')}` : ''}
    order by b.id limit ${add(filter.limit)} offset ${add(filter.offset)}`;
  return db.query<BibRow>(sql, params);
}

/** Bibs by id, with these extras, keyed by id (missing ids left out). */
export async function bibsById(db: Queryable, ids: string[], extras: BibExtras): Promise<Map<string, BibRow>> {
  if (ids.length === 0) return new Map();
  const rows = await listBibs(db, { id: { kind: 'list', ids }, limit: ids.length, offset: 0, extras });
  return new Map(rows.map((r) => [r.id, r]));
}

export async function getBibMarc(db: Queryable, id: string): Promise<MarcInJson | undefined> {
  const rows = await db.query<{ marc: MarcInJson }>('select marc from bibs where id = $1 and deleted_date is null', [id]);
  return rows[0]?.marc;
}

export async function listMaterialTypes(db: Queryable): Promise<{ code: string; description: string }[]> {
  return db.query('select code, description from material_types order by code');
}

/** The distinct values of a derived code column among live records (for metadata). */
export async function codesInUse(db: Queryable, column: 'lang' | 'country'): Promise<string[]> {
  const rows = await db.query<{ code: string }>(
    `select distinct ${column === 'lang' ? 'lang' : 'country'} as code from bibs where deleted_date is null and ${column} is not null order by 1`,
  );
  return rows.map((r) => r.code);
}

/** Every bib row, tombstones included: zero means the catalogue has never held a record. */
export async function countBibs(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>('select count(*)::int as n from bibs');
  return rows[0]!.n;
}

/** Ids of live bibs in ascending order. */
export async function listBibIds(db: Queryable): Promise<string[]> {
  return (await db.query<{ id: string }>('select id::text from bibs where deleted_date is null order by id')).map((r) => r.id);
}

/**
 * Fresh planner statistics for the catalogue tables. After a bulk load they are far off (a table
 * the planner thinks holds 100 rows holds a million), and what follows, search indexing first,
 * would be planned badly.
 */
export async function analyzeCatalogue(db: Queryable): Promise<void> {
  // Side by side where the pool has two connections.
  await Promise.all([db.exec('analyze bibs'), db.exec('analyze items; analyze item_bibs')]);
}
