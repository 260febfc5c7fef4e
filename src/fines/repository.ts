// SQL for fines and their payments.
import type { Queryable } from '../db/types.ts';

export interface FineRow {
  id: string;
  patron_id: string;
  item_id: string | null;
  charge_type: string;
  item_charge: string;
  processing_fee: string;
  billing_fee: string;
  paid_amount: string;
  description: string | null;
  location_code: string | null;
  location_name: string | null;
  assessed_date: Date;
}

export interface NewFine {
  patronId: string;
  itemId: string | null;
  checkoutId: string | null;
  chargeType: string;
  itemCharge: string;
  processingFee?: string;
  billingFee?: string;
  description: string | null;
  location: string | null;
}

const SELECT = `select f.id::text, f.patron_id::text, f.item_id::text, f.charge_type, f.item_charge::text, f.processing_fee::text,
  f.billing_fee::text, f.paid_amount::text, f.description, f.location_code, l.name as location_name, f.assessed_date
  from fines f left join locations l on l.code = f.location_code`;

export async function insertFine(tx: Queryable, fine: NewFine, at: Date): Promise<string> {
  const rows = await tx.query<{ id: string }>(
    `insert into fines (patron_id, item_id, checkout_id, charge_type, item_charge, processing_fee, billing_fee, description, location_code, assessed_date)
     values ($1, $2, $3, $4, $5::numeric, $6::numeric, $7::numeric, $8, $9, $10) returning id::text`,
    [
      fine.patronId,
      fine.itemId,
      fine.checkoutId,
      fine.chargeType,
      fine.itemCharge,
      fine.processingFee ?? '0',
      fine.billingFee ?? '0',
      fine.description,
      fine.location,
      at,
    ],
  );
  return rows[0]!.id;
}

/** A fine by id, owed or paid. */
export async function getFine(db: Queryable, id: string): Promise<FineRow | undefined> {
  return (await db.query<FineRow>(`${SELECT} where f.id = $1`, [id]))[0];
}

/** The fines a patron still owes (not wholly paid), in the order they were assessed. */
export async function owedFines(db: Queryable, patronId: string, limit: number, offset: number): Promise<FineRow[]> {
  return db.query<FineRow>(`${SELECT} where f.patron_id = $1 and f.paid_date is null order by f.id limit $2 offset $3`, [
    patronId,
    limit,
    offset,
  ]);
}

/**
 * A patron's fines still owed, oldest first, at most `limit`, as one json array of FineRow (its
 * assessed_date a json string): for a statement that reads them beside the patron's other lists
 * in one round trip (the catalogue's account page). `patron` is an SQL expression of the patron's id.
 */
export function owedFinesOfPatronJson(patron: string, limit: number): string {
  if (!Number.isInteger(limit)) throw new Error(`not a row count: ${limit}`);
  return `(select coalesce(json_agg(row_to_json(x) order by x.id::bigint), '[]') from (
    ${SELECT} where f.patron_id = ${patron} and f.paid_date is null order by f.id limit ${limit}) x)`;
}

/** These fines of the patron, still owed, locked for a payment; those not found are left out. */
export async function lockOwedFines(tx: Queryable, patronId: string, ids: string[]): Promise<FineRow[]> {
  return tx.query<FineRow>(
    `${SELECT} where f.patron_id = $1 and f.id = any($2::bigint[]) and f.paid_date is null order by f.id for update of f`,
    [patronId, ids],
  );
}

/** Records a payment on a fine: its paid amount, and the date it was paid off when it is. */
export async function payFine(
  tx: Queryable,
  fineId: string,
  patronId: string,
  amount: string,
  paymentType: number,
  at: Date,
): Promise<void> {
  await tx.query(
    `update fines set paid_amount = paid_amount + $2::numeric,
       paid_date = case when paid_amount + $2::numeric = item_charge + processing_fee + billing_fee then $3::timestamptz end
     where id = $1`,
    [fineId, amount, at],
  );
  await tx.query('insert into fine_payments (fine_id, patron_id, amount, payment_type, paid_date) values ($1, $2, $3::numeric, $4, $5)', [
    fineId,
    patronId,
    amount,
    paymentType,
    at,
  ]);
}

/** The patron type of a checkout's patron, for the rule its fine is assessed by. */
export async function patronTypeOf(tx: Queryable, patronId: string): Promise<number | undefined> {
  return (await tx.query<{ patron_type: number }>('select patron_type from patrons where id = $1', [patronId]))[0]?.patron_type;
}
