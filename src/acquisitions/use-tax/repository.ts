// SQL for use tax codes.
import type { Queryable } from '../../db/types.ts';

export interface UseTaxRow {
  code: string;
  /** The rate in percent, as the library set it (NUMERIC text: 7.75, 0, 8.125). */
  rate: string;
  description: string | null;
}

export async function listUseTaxCodes(db: Queryable): Promise<UseTaxRow[]> {
  return db.query<UseTaxRow>('select code, rate::text as rate, description from use_tax_codes order by code');
}

/** Creates a code or sets its rate (and its description, unless that is undefined); answers true when it was new. */
export async function upsertUseTaxCode(
  tx: Queryable,
  code: string,
  rate: string,
  description: string | null | undefined,
): Promise<boolean> {
  const rows = await tx.query<{ created: boolean }>(
    `insert into use_tax_codes (code, rate, description) values ($1, $2::numeric, $3)
     on conflict (code) do update set rate = excluded.rate,
       description = case when $4::boolean then excluded.description else use_tax_codes.description end, updated_date = now()
     returning (xmax = 0) as created`,
    [code, rate, description ?? null, description !== undefined],
  );
  return rows[0]!.created;
}

/** Locks a code against change until the transaction ends and answers its rate; undefined when unknown. */
export async function lockUseTaxCode(tx: Queryable, code: string, mode: 'share' | 'update'): Promise<UseTaxRow | undefined> {
  const rows = await tx.query<UseTaxRow>(
    `select code, rate::text as rate, description from use_tax_codes where code = $1 for ${mode === 'share' ? 'share' : 'update'}`,
    [code],
  );
  return rows[0];
}

/** Live invoices that carry the code. */
export async function countInvoicesUsing(tx: Queryable, code: string): Promise<number> {
  const rows = await tx.query<{ n: number }>('select count(*)::int as n from invoices where use_tax_code = $1 and deleted_date is null', [
    code,
  ]);
  return rows[0]!.n;
}

export async function deleteUseTaxCode(tx: Queryable, code: string): Promise<void> {
  await tx.query('delete from use_tax_codes where code = $1', [code]);
}
