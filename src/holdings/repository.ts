// Holdings rows: read by bib and by the shared list filters, and written two ways: a bib's own
// holdings replaced with the bib (from_bib), holdings records added or replaced by their 001.
import { commonConditions, parameters, type CommonListFilter } from '../db/list-filters.ts';
import type { Queryable } from '../db/types.ts';
import type { MarcInJson } from '../marc/marc-in-json.ts';

export interface HoldingRow {
  id: string;
  bib_id: string;
  location_code: string | null;
  location_name: string | null;
  marc: MarcInJson | null;
  suppressed: boolean;
  created_date: Date;
  updated_date: Date;
  deleted_date: Date | null;
}

const SELECT = `select h.id::text, h.bib_id::text, h.location_code, l.name as location_name, h.marc, h.suppressed,
  h.created_date, h.updated_date, h.deleted_date
  from holdings h left join locations l on l.code = h.location_code`;

export interface HoldingListFilter extends CommonListFilter {
  bibIds?: string[];
  limit: number;
  offset: number;
}

export async function listHoldings(db: Queryable, filter: HoldingListFilter): Promise<HoldingRow[]> {
  const { params, add } = parameters();
  const where = commonConditions('h', filter, add);
  if (filter.bibIds) where.push(`h.bib_id = any(${add(filter.bibIds)}::bigint[])`);
  return db.query<HoldingRow>(
    `${SELECT} ${where.length ? `where ${where.join(' and ')}` : ''} order by h.id limit ${add(filter.limit)} offset ${add(filter.offset)}`,
    params,
  );
}

export async function getHolding(db: Queryable, id: string): Promise<HoldingRow | undefined> {
  return (await db.query<HoldingRow>(`${SELECT} where h.id = $1`, [id]))[0];
}

/** A holdings record as written: its MARC-in-JSON text and what is kept beside it. */
export interface HoldingWrite {
  marc: string;
  location: string | null;
}

/**
 * Makes these bibs' own holdings the ones given, in order: the nth keeps the id of the bib's nth
 * (changed only when it differs), those past the new count are deleted, new ones are added.
 */
export async function replaceBibHoldings(
  tx: Queryable,
  bibs: { bibId: string; holdings: HoldingWrite[] }[],
  stamp: Date,
): Promise<{ created: number; updated: number }> {
  if (bibs.length === 0) return { created: 0, updated: 0 };
  const existing = await tx.query<{ id: string; bib_id: string }>(
    `select id::text, bib_id::text from holdings where from_bib and deleted_date is null and bib_id = any($1::bigint[]) order by bib_id, id`,
    [bibs.map((b) => b.bibId)],
  );
  const held = new Map<string, string[]>();
  for (const row of existing) held.set(row.bib_id, [...(held.get(row.bib_id) ?? []), row.id]);
  const changes: { id: string | null; bib: string; marc: string; location: string | null }[] = [];
  const gone: string[] = [];
  for (const { bibId, holdings } of bibs) {
    const ids = held.get(bibId) ?? [];
    holdings.forEach((h, i) => changes.push({ id: ids[i] ?? null, bib: bibId, marc: h.marc, location: h.location }));
    gone.push(...ids.slice(holdings.length));
  }
  if (gone.length)
    await tx.query(`update holdings set marc = null, deleted_date = $2, updated_date = $2 where id = any($1::bigint[])`, [gone, stamp]);
  const updates = changes.filter((c) => c.id !== null);
  if (updates.length)
    await tx.query(
      `update holdings h set marc = u.marc::json, location_code = u.location, updated_date = $4
       from unnest($1::bigint[], $2::text[], $3::text[]) as u(id, marc, location)
       where h.id = u.id and (h.marc::text is distinct from u.marc or h.location_code is distinct from u.location)`,
      [updates.map((c) => c.id), updates.map((c) => c.marc), updates.map((c) => c.location), stamp],
    );
  const inserts = changes.filter((c) => c.id === null);
  if (inserts.length)
    await tx.query(
      `insert into holdings (bib_id, from_bib, location_code, marc, created_date, updated_date)
       select u.bib, true, u.location, u.marc::json, $4, $4 from unnest($1::bigint[], $2::text[], $3::text[]) with ordinality as u(bib, marc, location, n)
       order by u.n`,
      [inserts.map((c) => c.bib), inserts.map((c) => c.marc), inserts.map((c) => c.location), stamp],
    );
  return { created: inserts.length, updated: updates.length };
}

/** Deletes a bib's holdings, of both kinds, with the bib. */
export async function tombstoneBibHoldings(tx: Queryable, bibId: string, stamp: Date): Promise<void> {
  await tx.query(`update holdings set marc = null, deleted_date = $2, updated_date = $2 where bib_id = $1 and deleted_date is null`, [
    bibId,
    stamp,
  ]);
}

/** Live bibs by 001 (any 003): a holdings record's 004 names its bib by its 001 alone. */
export async function bibsByControlNumber(db: Queryable, numbers: string[]): Promise<{ id: string; control_number: string }[]> {
  if (numbers.length === 0) return [];
  return db.query(`select id::text, control_number from bibs where deleted_date is null and control_number = any($1::text[]) order by id`, [
    numbers,
  ]);
}

export interface HoldingsRecordWrite extends HoldingWrite {
  bibId: string;
  controlNumber: string;
}

/**
 * Adds holdings records, or replaces the live one with the same 001 (moving it to the bib its 004
 * now names). Answers how many were added and how many replaced. Loads take their turn (one import
 * at a time), so two writers never race for one 001; the unique index would refuse the second.
 */
export async function upsertHoldingsRecords(
  tx: Queryable,
  records: HoldingsRecordWrite[],
  stamp: Date,
): Promise<{ created: number; updated: number }> {
  if (records.length === 0) return { created: 0, updated: 0 };
  const rows = await tx.query<{ created: boolean }>(
    `with u as (
       select * from unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) with ordinality as u(bib, control, marc, location, n)
     ),
     changed as (
       update holdings h set bib_id = u.bib, marc = u.marc::json, location_code = u.location, updated_date = $5
       from u where h.control_number = u.control and not h.from_bib and h.deleted_date is null
       returning h.control_number
     ),
     added as (
       insert into holdings (bib_id, from_bib, control_number, location_code, marc, created_date, updated_date)
       select u.bib, false, u.control, u.location, u.marc::json, $5, $5 from u
       where not exists (select 1 from holdings h where h.control_number = u.control and not h.from_bib and h.deleted_date is null)
       order by u.n
       returning id
     )
     select false as created from changed union all select true from added`,
    [records.map((r) => r.bibId), records.map((r) => r.controlNumber), records.map((r) => r.marc), records.map((r) => r.location), stamp],
  );
  const created = rows.filter((r) => r.created).length;
  return { created, updated: rows.length - created };
}
