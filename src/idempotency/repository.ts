// SQL for idempotent requests (migration 0021).
import type { Queryable } from '../db/types.ts';

export interface KeptAnswer {
  fingerprint: string;
  statusCode: number | null;
  contentType: string | null;
  body: string | null;
}

/**
 * Claims (keyId, key) in tx: true when claimed, false when another request holds it. A claim
 * another transaction has not finished yet is waited for (the unique key), so the same request
 * sent twice at once runs once. A claim older than keepHours counts as gone.
 */
export async function claim(tx: Queryable, keyId: string, key: string, fingerprint: string, keepHours: number): Promise<boolean> {
  await tx.query(
    `delete from idempotent_requests
      where key_id = (select id from api_keys where key = $1) and idempotency_key = $2
        and created_date < now() - make_interval(hours => $3)`,
    [keyId, key, keepHours],
  );
  const rows = await tx.query(
    `insert into idempotent_requests (key_id, idempotency_key, fingerprint)
     select id, $2, $3 from api_keys where key = $1
     on conflict (key_id, idempotency_key) do nothing
     returning 1 as claimed`,
    [keyId, key, fingerprint],
  );
  return rows.length === 1;
}

export async function keptAnswer(db: Queryable, keyId: string, key: string): Promise<KeptAnswer | undefined> {
  const rows = await db.query<{ fingerprint: string; status_code: number | null; content_type: string | null; body: string | null }>(
    `select r.fingerprint, r.status_code, r.content_type, r.body
       from idempotent_requests r join api_keys k on k.id = r.key_id
      where k.key = $1 and r.idempotency_key = $2`,
    [keyId, key],
  );
  const row = rows[0];
  return row && { fingerprint: row.fingerprint, statusCode: row.status_code, contentType: row.content_type, body: row.body };
}

export async function keepAnswer(
  tx: Queryable,
  keyId: string,
  key: string,
  answer: { statusCode: number; contentType: string | null; body: string | null },
): Promise<void> {
  await tx.query(
    `update idempotent_requests set status_code = $3, content_type = $4, body = $5
      where key_id = (select id from api_keys where key = $1) and idempotency_key = $2`,
    [keyId, key, answer.statusCode, answer.contentType, answer.body],
  );
}

/** Forgets claims older than keepHours; answers how many. */
export async function forgetOld(db: Queryable, keepHours: number): Promise<number> {
  const rows = await db.query(`delete from idempotent_requests where created_date < now() - make_interval(hours => $1) returning 1`, [
    keepHours,
  ]);
  return rows.length;
}
