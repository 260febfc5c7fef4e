// SQL for funds.
import type { Queryable } from '../../db/types.ts';

export interface FundRow {
  id: number;
  code: string;
  fund_name: string;
  accounting_unit: number;
  currency: string;
  appropriation: string;
  expenditure: string;
  encumbrance: string;
  free_balance: string;
  note: string | null;
  created_date: Date;
  updated_date: Date;
}

const SELECT = `select id, code, fund_name, accounting_unit, currency, appropriation::text, expenditure::text, encumbrance::text,
  (appropriation - expenditure - encumbrance)::text as free_balance, note, created_date, updated_date from funds`;

export async function listFunds(db: Queryable, limit: number, offset: number): Promise<FundRow[]> {
  return db.query<FundRow>(`${SELECT} order by code limit $1 offset $2`, [limit, offset]);
}

export async function getFund(db: Queryable, code: string): Promise<FundRow | undefined> {
  return (await db.query<FundRow>(`${SELECT} where code = $1`, [code]))[0];
}

export async function fundsByCode(db: Queryable, codes: readonly string[]): Promise<FundRow[]> {
  return db.query<FundRow>(`${SELECT} where code = any($1::text[])`, [codes]);
}

export interface NewFund {
  code: string;
  fundName: string;
  accountingUnit: number;
  currency: string;
  appropriation: string;
  expenditure: string;
  encumbrance: string;
  note: string | null;
}

/** Inserts a fund; false when the code is taken. */
export async function insertFund(tx: Queryable, fund: NewFund, stamp: Date): Promise<boolean> {
  const rows = await tx.query(
    `insert into funds (code, fund_name, accounting_unit, currency, appropriation, expenditure, encumbrance, note, created_date, updated_date)
     values ($1, $2, $3, $4, $5::numeric, $6::numeric, $7::numeric, $8, $9, $9) on conflict (code) do nothing returning id`,
    [
      fund.code,
      fund.fundName,
      fund.accountingUnit,
      fund.currency,
      fund.appropriation,
      fund.expenditure,
      fund.encumbrance,
      fund.note,
      stamp,
    ],
  );
  return rows.length > 0;
}

export interface FundChanges {
  fundName?: string;
  accountingUnit?: number;
  appropriation?: string;
  /** null clears the note. */
  note?: string | null;
}

/** Changes the given fields; false when there is no such fund. */
export async function updateFund(tx: Queryable, code: string, changes: FundChanges, stamp: Date): Promise<boolean> {
  const rows = await tx.query(
    `update funds set fund_name = coalesce($2, fund_name), accounting_unit = coalesce($3, accounting_unit),
       appropriation = coalesce($4::numeric, appropriation), note = case when $5::boolean then $6 else note end, updated_date = $7
     where code = $1 returning id`,
    [
      code,
      changes.fundName ?? null,
      changes.accountingUnit ?? null,
      changes.appropriation ?? null,
      changes.note !== undefined,
      changes.note ?? null,
      stamp,
    ],
  );
  return rows.length > 0;
}

export interface BalanceChange {
  fundId: number;
  /** Signed decimal text. */
  encumbrance: string;
  expenditure: string;
}

/** A fund's balances as locked for a change: numeric text. */
export interface LockedBalances {
  id: number;
  code: string;
  encumbrance: string;
  expenditure: string;
}

/** Locks these funds' rows in id order (so concurrent writers cannot deadlock) and reads their balances. */
export async function lockBalances(tx: Queryable, fundIds: readonly number[]): Promise<LockedBalances[]> {
  return tx.query<LockedBalances>(
    'select id, code, encumbrance::text, expenditure::text from funds where id = any($1::int[]) order by id for update',
    [fundIds],
  );
}

/** Adds each change to its fund's balances (locked by lockBalances). */
export async function addToBalances(tx: Queryable, changes: readonly BalanceChange[], stamp: Date): Promise<void> {
  await tx.query(
    `update funds f set encumbrance = f.encumbrance + c.encumbrance, expenditure = f.expenditure + c.expenditure, updated_date = $2
     from jsonb_to_recordset($1::jsonb) as c(fund_id integer, encumbrance numeric, expenditure numeric)
     where f.id = c.fund_id`,
    [changes.map((c) => ({ fund_id: c.fundId, encumbrance: c.encumbrance, expenditure: c.expenditure })), stamp],
  );
}
