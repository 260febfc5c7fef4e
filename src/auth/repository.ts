// SQL for API keys and bearer tokens.
import type { Queryable } from '../db/types.ts';

export interface KeyRow {
  id: string;
  key: string;
  name: string;
  roles: string[];
  secret_hash: string;
  created_date: Date;
  revoked_date: Date | null;
}

export interface TokenRow {
  key_id: string;
  key: string;
  roles: string[];
  expires_date: Date;
}

export async function insertKey(db: Queryable, key: string, name: string, secretHash: string, roles: string[]): Promise<KeyRow> {
  const rows = await db.query<KeyRow>(
    `insert into api_keys (key, name, secret_hash, roles) values ($1, $2, $3, $4)
     returning id::text, key, name, roles, secret_hash, created_date, revoked_date`,
    [key, name, secretHash, roles],
  );
  return rows[0]!;
}

export async function listKeys(db: Queryable): Promise<KeyRow[]> {
  return db.query<KeyRow>('select id::text, key, name, roles, secret_hash, created_date, revoked_date from api_keys order by id');
}

export async function findActiveKey(db: Queryable, key: string): Promise<KeyRow | undefined> {
  const rows = await db.query<KeyRow>(
    `select id::text, key, name, roles, secret_hash, created_date, revoked_date
     from api_keys where key = $1 and revoked_date is null`,
    [key],
  );
  return rows[0];
}

/** The notification channel a revocation is announced on, to servers that remember tokens (token-cache.ts). */
export const REVOCATIONS = 'carrel_key_revoked';

/**
 * Marks the key revoked and drops its tokens, and tells every listening process (delivered when
 * the transaction commits); false when there is no such unrevoked key.
 */
export async function revokeKey(db: Queryable, key: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `with revoked as (
       update api_keys set revoked_date = now() where key = $1 and revoked_date is null returning id)
     , dropped as (delete from access_tokens where key_id in (select id from revoked))
     select id::text, pg_notify('${REVOCATIONS}', id::text)::text as told from revoked`,
    [key],
  );
  return rows.length > 0;
}

export async function insertToken(db: Queryable, hash: Buffer, keyId: string, lifetimeSec: number): Promise<Date> {
  const rows = await db.query<{ expires_date: Date }>(
    `insert into access_tokens (token_hash, key_id, expires_date)
     values ($1, $2, now() + make_interval(secs => $3)) returning expires_date`,
    [hash, keyId, lifetimeSec],
  );
  return rows[0]!.expires_date;
}

export async function deleteExpiredTokens(db: Queryable): Promise<void> {
  await db.query('delete from access_tokens where expires_date < now()');
}

/** The live token's key and roles; nothing when the token is unknown, expired or its key revoked. */
export async function findLiveToken(db: Queryable, hash: Buffer): Promise<TokenRow | undefined> {
  const rows = await db.query<TokenRow>(
    `select k.id::text as key_id, k.key, k.roles, t.expires_date
     from access_tokens t join api_keys k on k.id = t.key_id
     where t.token_hash = $1 and t.expires_date > now() and k.revoked_date is null`,
    [hash],
  );
  return rows[0];
}
