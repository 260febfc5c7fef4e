// SQL for items.
import { copyText } from '../db/copy-text.ts';
import type { Queryable } from '../db/types.ts';
import { commonConditions, parameters, type CommonListFilter } from '../db/list-filters.ts';
import { ACTIVE_SQL, HOLD_STATE } from '../holds/states.ts';
import { ITEM_STATUS } from './statuses.ts';

export interface ItemRow {
  id: string;
  bib_ids: string[];
  barcode: string | null;
  call_number: string | null;
  location_code: string | null;
  location_name: string | null;
  status: string;
  status_display: string;
  /** What the library's profile says the status means: SIP2 circulation status, may be borrowed, on the shelf. */
  status_sip2: string;
  status_available: boolean;
  status_on_shelf: boolean;
  item_type: string | null;
  due_date: Date | null;
  suppressed: boolean;
  created_date: Date;
  updated_date: Date;
  deleted_date: Date | null;
  message: string | null;
  /** With `circulation` only (the fields Sierra derives from loans and holds). */
  item_type_name?: string | null;
  copy_no?: number;
  hold_count?: number;
  transit_to?: string | null;
  transit_to_name?: string | null;
  /** The open loan's due date as the calendar day it was set to (YYYY-MM-DD), whatever the session's time zone. */
  due_day?: string | null;
  out_date?: Date | null;
  last_checkout?: Date | null;
  last_checkin?: Date | null;
  checkouts_total?: number;
  /** With `profile` only: SIP2's media type of its item type, and the SIP2 institution of its location's branch (null: none). */
  sip2_media_type?: string | null;
  institution?: string | null;
}

/** What a read adds to each item's row: `circulation`, what Sierra's fixedFields and holdCount need. */
export interface ItemExtras {
  circulation?: boolean;
  /** What the library profile says of its type and place: what a SIP2 kiosk is told (CK, BG). */
  profile?: boolean;
}

export interface NewItem {
  bibIds: string[];
  barcode?: string | null;
  callNumber?: string | null;
  location?: string | null;
  status?: string;
  itemType?: string | null;
  message?: string | null;
}

const COLUMNS = `i.id::text, array(select ib.bib_id::text from item_bibs ib where ib.item_id = i.id order by ib.bib_id) as bib_ids,
  i.barcode, i.call_number, i.location_code, l.name as location_name, i.status, s.display as status_display, s.sip2_status as status_sip2,
  s.available as status_available, s.on_shelf as status_on_shelf, i.item_type,
  i.due_date, i.suppressed, i.created_date, i.updated_date, i.deleted_date, i.message`;
const FROM = 'items i left join locations l on l.code = i.location_code join item_statuses s on s.code = i.status';
/**
 * Copy number: the item's place among its first bib's items in the order they were added, as
 * Sierra numbers copies when they are created. Its loans in one pass over its checkouts; holds on
 * the item itself (not on its bib) as its hold count; the pickup location of a hold it is in
 * transit for.
 */
const CIRCULATION = `, (select t.name from item_types t where t.code = i.item_type) as item_type_name,
  coalesce((select count(*)::int from item_bibs c where c.bib_id = (select min(f.bib_id) from item_bibs f where f.item_id = i.id) and c.item_id <= i.id), 1) as copy_no,
  (select count(*)::int from holds h where h.item_id = i.id and h.state in ${ACTIVE_SQL}) as hold_count,
  tr.pickup_location as transit_to, tl.name as transit_to_name,
  lo.due_day, lo.out_date, lo.last_checkout, lo.last_checkin, lo.checkouts_total`;
const CIRCULATION_FROM = ` left join lateral (select to_char(max(c.due_date) filter (where c.returned_date is null), 'YYYY-MM-DD') as due_day,
    max(c.out_date) filter (where c.returned_date is null) as out_date, max(c.out_date) as last_checkout,
    max(c.returned_date) as last_checkin, count(*)::int as checkouts_total from checkouts c where c.item_id = i.id) lo on true
  left join holds tr on tr.trapped_item_id = i.id and tr.state = '${HOLD_STATE.inTransit}'
  left join locations tl on tl.code = tr.pickup_location`;
const PROFILE = `, (select t.sip2_media_type from item_types t where t.code = i.item_type) as sip2_media_type,
  (select b.institution from branches b where b.id = l.branch_id) as institution`;
const select = (extras: ItemExtras = {}) =>
  `select ${COLUMNS}${extras.circulation ? CIRCULATION : ''}${extras.profile ? PROFILE : ''} from ${FROM}${extras.circulation ? CIRCULATION_FROM : ''}`;

export async function insertItem(tx: Queryable, item: NewItem, stamp: Date): Promise<string> {
  const rows = await tx.query<{ id: string }>(
    `insert into items (barcode, call_number, location_code, status, item_type, message, created_date, updated_date)
     values ($1, $2, $3, coalesce($4, '${ITEM_STATUS.available}'), $5, $6, $7, $7) returning id::text`,
    [
      item.barcode ?? null,
      item.callNumber ?? null,
      item.location ?? null,
      item.status ?? null,
      item.itemType ?? null,
      item.message ?? null,
      stamp,
    ],
  );
  const id = rows[0]!.id;
  await tx.query('insert into item_bibs (item_id, bib_id) select $1, unnest($2::bigint[])', [id, item.bibIds]);
  return id;
}

/** Changes the given members of a live item (bibIds: its links replaced); false when there is none. */
export async function updateItem(tx: Queryable, id: string, item: Partial<NewItem>, stamp: Date): Promise<boolean> {
  const { params, add } = parameters();
  const columns: [keyof NewItem, string][] = [
    ['barcode', 'barcode'],
    ['callNumber', 'call_number'],
    ['location', 'location_code'],
    ['status', 'status'],
    ['itemType', 'item_type'],
    ['message', 'message'],
  ];
  const sets = columns.filter(([member]) => item[member] !== undefined).map(([member, column]) => `${column} = ${add(item[member])}`);
  const rows = await tx.query(
    `update items set ${[...sets, `updated_date = ${add(stamp)}`].join(', ')} where id = ${add(id)} and deleted_date is null returning id`,
    params,
  );
  if (rows.length === 0) return false;
  if (item.bibIds) {
    await tx.query('delete from item_bibs where item_id = $1', [id]);
    await tx.query('insert into item_bibs (item_id, bib_id) select $1, unnest($2::bigint[])', [id, item.bibIds]);
  }
  return true;
}

/** Deletes a live item, leaving its tombstone (its barcode free again); false when there is none. */
export async function tombstoneItem(tx: Queryable, id: string, stamp: Date): Promise<boolean> {
  return (
    (
      await tx.query('update items set deleted_date = $2, updated_date = $2 where id = $1 and deleted_date is null returning id', [
        id,
        stamp,
      ])
    ).length > 0
  );
}

/** Locks a live item's row (a checkout of it waits, or has committed); false when there is none. */
export async function lockItemRow(tx: Queryable, id: string): Promise<boolean> {
  return (await tx.query('select 1 from items where id = $1 and deleted_date is null for update', [id])).length > 0;
}

/** What keeps an item from being deleted: its open checkout, the active holds on it. */
export async function itemInUse(tx: Queryable, id: string): Promise<{ on_loan: boolean; holds: number }> {
  return (
    await tx.query<{ on_loan: boolean; holds: number }>(
      `select exists (select 1 from checkouts where item_id = $1 and returned_date is null) as on_loan,
         (select count(*)::int from holds where (item_id = $1 or trapped_item_id = $1) and state in ${ACTIVE_SQL}) as holds`,
      [id],
    )
  )[0]!;
}

/** Which of these codes are missing from their tables: the bibs (live), the location, status and item type. */
export async function missingReferences(
  db: Queryable,
  r: { bibIds?: string[]; location?: string | null; status?: string; itemType?: string | null },
): Promise<{ bibs: string[]; location: boolean; status: boolean; itemType: boolean }> {
  const row = (
    await db.query<{ bibs: string[]; location: boolean; status: boolean; item_type: boolean }>(
      `select array(select b::text from unnest($1::bigint[]) b where not exists (select 1 from bibs where id = b and deleted_date is null)) as bibs,
         ($2::text is not null and not exists (select 1 from locations where code = $2)) as location,
         ($3::text is not null and not exists (select 1 from item_statuses where code = $3)) as status,
         ($4::text is not null and not exists (select 1 from item_types where code = $4)) as item_type`,
      [r.bibIds ?? [], r.location ?? null, r.status ?? null, r.itemType ?? null],
    )
  )[0]!;
  return { bibs: row.bibs, location: row.location, status: row.status, itemType: row.item_type };
}

/** The live item other than `except` that has this barcode. */
export async function barcodeHolder(db: Queryable, barcode: string, except?: string): Promise<string | undefined> {
  return (
    await db.query<{ id: string }>(
      'select id::text from items where barcode = $1 and deleted_date is null and id <> coalesce($2::bigint, 0)',
      [barcode, except ?? null],
    )
  )[0]?.id;
}

/** An item read from a bib's item field on import. */
export interface ImportedItem {
  bibId: string;
  barcode: string | null;
  callNumber: string | null;
  location: string | null;
  status: string;
  itemType: string | null;
}

/**
 * What writing imported items needs from the database first: an id for each, and which of their
 * barcodes live items already have. Taken before the writing transaction, while the previous one
 * is still writing (ids are never given back anyway). Within one plan a barcode appears once: the
 * last occurrence is kept.
 */
export interface ItemPlan {
  rows: ImportedItem[];
  ids: string[];
  taken: Set<string>;
}

export async function planImportedItems(db: Queryable, items: ImportedItem[]): Promise<ItemPlan> {
  const byBarcode = new Map<string, ImportedItem>();
  const unbarcoded: ImportedItem[] = [];
  for (const item of items) {
    if (item.barcode === null) unbarcoded.push(item);
    else byBarcode.set(item.barcode, item);
  }
  const rows = [...byBarcode.values(), ...unbarcoded];
  if (rows.length === 0) return { rows, ids: [], taken: new Set() };
  const [ids, taken] = await Promise.all([
    db.query<{ id: string }>("select nextval('item_ids')::text as id from generate_series(1, $1)", [rows.length]),
    db.query<{ barcode: string }>('select barcode from items where deleted_date is null and barcode = any($1::text[])', [
      [...byBarcode.keys()],
    ]),
  ]);
  return { rows, ids: ids.map((r) => r.id), taken: new Set(taken.map((r) => r.barcode)) };
}

/**
 * Adds planned items, or updates the live item with the same barcode (call number, location,
 * type; never its status, which circulation owns) where they differ. Each is linked to its bib.
 */
export async function writeImportedItems(
  tx: Queryable,
  { rows, ids, taken }: ItemPlan,
  stamp: Date,
): Promise<{ created: number; updated: number }> {
  // Items whose barcode no live item had are new: with COPY they go in at several times the speed
  // of an upsert. (A barcode another writer adds meanwhile makes the batch fail whole.)
  const fresh: number[] = [];
  const known: number[] = [];
  rows.forEach((item, i) => (tx.copyFrom && (item.barcode === null || !taken.has(item.barcode)) ? fresh : known).push(i));
  if (fresh.length) {
    await tx.copyFrom!(
      'items',
      ['id', 'barcode', 'call_number', 'location_code', 'status', 'item_type', 'created_date', 'updated_date'],
      copyText(
        fresh.map((i) => {
          const r = rows[i]!;
          return [ids[i], r.barcode, r.callNumber, r.location, r.status, r.itemType, stamp, stamp];
        }),
      ),
    );
    await tx.copyFrom!('item_bibs', ['item_id', 'bib_id'], copyText(fresh.map((i) => [ids[i], rows[i]!.bibId])));
  }
  if (known.length === 0) return { created: fresh.length, updated: 0 };
  const doc = known.map((i) => {
    const item = rows[i]!;
    return {
      id: ids[i],
      barcode: item.barcode,
      call_number: item.callNumber,
      location_code: item.location,
      status: item.status,
      item_type: item.itemType,
    };
  });
  // xmax = 0 on the returned row: inserted; otherwise the conflict updated an existing item (whose
  // id it returns). An item the record describes as it already is stays as it is (its updatedDate
  // too, so harvesters are not sent it again), and is not returned: it is looked up below.
  const written = await tx.query<{ id: string; barcode: string | null; inserted: boolean }>(
    `insert into items (id, barcode, call_number, location_code, status, item_type, created_date, updated_date)
     select id, barcode, call_number, location_code, status, item_type, $2, $2
     from jsonb_to_recordset($1::jsonb) as r(id bigint, barcode text, call_number text, location_code text, status text, item_type text)
     on conflict (barcode) where deleted_date is null and barcode is not null do update
       set call_number = excluded.call_number, location_code = excluded.location_code, item_type = excluded.item_type,
           updated_date = excluded.updated_date
       where (items.call_number, items.location_code, items.item_type) is distinct from (excluded.call_number, excluded.location_code, excluded.item_type)
     returning id::text, barcode, (xmax = 0) as inserted`,
    [doc, stamp],
  );
  const returned = new Set(written.map((w) => w.barcode));
  const unchanged = known.flatMap((i) => (rows[i]!.barcode !== null && !returned.has(rows[i]!.barcode) ? [rows[i]!.barcode] : []));
  const matched =
    unchanged.length === 0
      ? written
      : [
          ...written,
          ...(await tx.query<{ id: string; barcode: string; inserted: boolean }>(
            'select id::text, barcode, false as inserted from items where deleted_date is null and barcode = any($1::text[])',
            [unchanged],
          )),
        ];
  const key = (barcode: string | null, id: string) => (barcode === null ? `id ${id}` : `barcode ${barcode}`);
  const bibOf = new Map(known.map((i) => [key(rows[i]!.barcode, ids[i]!), rows[i]!.bibId]));
  await tx.query(`insert into item_bibs (item_id, bib_id) select * from unnest($1::bigint[], $2::bigint[]) on conflict do nothing`, [
    matched.map((w) => w.id),
    matched.map((w) => bibOf.get(key(w.barcode, w.id))),
  ]);
  const created = written.filter((w) => w.inserted).length;
  return { created: fresh.length + created, updated: matched.length - created };
}

export async function locationCodes(db: Queryable): Promise<string[]> {
  return (await db.query<{ code: string }>('select code from locations')).map((r) => r.code);
}

/** The codes of an item's coded fields with their descriptions, for GET /items/metadata. */
export async function codedValues(db: Queryable, field: 'itemType' | 'location' | 'status'): Promise<{ code: string; desc: string }[]> {
  const sql = {
    itemType: 'select code, name as desc from item_types order by code collate "C"',
    location: 'select code, name as desc from locations order by code collate "C"',
    status: 'select code, display as desc from item_statuses order by code collate "C"',
  }[field];
  return (await db.query<{ code: string; desc: string }>(sql)).map((r) => ({ code: r.code, desc: r.desc }));
}

export async function statusCodes(db: Queryable): Promise<string[]> {
  return (await db.query<{ code: string }>('select code from item_statuses')).map((r) => r.code);
}

/** Live items of any of these bibs, in id order. */
export async function itemsOfBibs(db: Queryable, bibIds: string[], extras?: ItemExtras): Promise<ItemRow[]> {
  return db.query<ItemRow>(
    `${select(extras)} where i.deleted_date is null and exists (select 1 from item_bibs ib where ib.item_id = i.id and ib.bib_id = any($1::bigint[]))
     order by i.id`,
    [bibIds],
  );
}

export async function getItem(db: Queryable, id: string, extras?: ItemExtras): Promise<ItemRow | undefined> {
  return (await db.query<ItemRow>(`${select(extras)} where i.id = $1`, [id]))[0];
}

/** Several items by id in one statement (a page of holds with expand=record); missing ids are left out. */
export async function getItems(db: Queryable, ids: readonly string[], extras?: ItemExtras): Promise<ItemRow[]> {
  if (ids.length === 0) return [];
  return db.query<ItemRow>(`${select(extras)} where i.id = any($1::bigint[])`, [ids]);
}

export interface ItemListFilter extends CommonListFilter {
  bibIds?: string[];
  status?: string[];
  /** Location codes; a code ending in * matches every code that starts with it. */
  location?: string[];
  limit: number;
  offset: number;
  extras?: ItemExtras;
}

/** The live item with this barcode (the first, should several share it). */
export async function itemExists(db: Queryable, id: string): Promise<boolean> {
  return (await db.query('select 1 from items where id = $1 and deleted_date is null', [id])).length > 0;
}

/** An item's circulation status and due date (null: not on loan), written under its circulation locks. */
export async function setItemStatus(tx: Queryable, itemId: string, status: string, dueDate: string | null, stamp: Date): Promise<void> {
  await tx.query('update items set status = $2, due_date = $3::date::timestamptz, updated_date = $4 where id = $1', [
    itemId,
    status,
    dueDate,
    stamp,
  ]);
}

/** The live item with this barcode; of several, the first made. */
export async function itemIdByBarcode(db: Queryable, barcode: string): Promise<string | undefined> {
  return (
    await db.query<{ id: string }>('select id::text from items where barcode = $1 and deleted_date is null order by id limit 1', [barcode])
  )[0]?.id;
}

export async function listItems(db: Queryable, filter: ItemListFilter): Promise<ItemRow[]> {
  const { params, add } = parameters();
  const where = commonConditions('i', filter, add);
  if (filter.bibIds)
    where.push(`exists (select 1 from item_bibs ib where ib.item_id = i.id and ib.bib_id = any(${add(filter.bibIds)}::bigint[]))`);
  if (filter.status) where.push(`i.status = any(${add(filter.status)}::text[])`);
  if (filter.location) {
    const exact = filter.location.filter((l) => !l.endsWith('*'));
    // A code may hold '_', which LIKE reads as any character: escaped, it is itself.
    const prefixes = filter.location.filter((l) => l.endsWith('*')).map((l) => `${l.slice(0, -1).replace(/[\\%_]/g, '\\$&')}%`);
    where.push(`(i.location_code = any(${add(exact)}::text[]) or i.location_code like any(${add(prefixes)}::text[]))`);
  }
  return db.query<ItemRow>(
    `${select(filter.extras)} ${where.length ? `where ${where.join(' and ')}` : ''} order by i.id limit ${add(filter.limit)} offset ${add(filter.offset)}`,
    params,
  );
}
