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
  rate_limit: number | null;
}

export interface TokenRow {
  key_id: string;
  key: string;
  roles: string[];
  expires_date: Date;
  rate_limit: number | null;
}

export async function insertKey(
  db: Queryable,
  key: string,
  name: string,
  secretHash: string,
  roles: string[],
  rateLimit: number | null,
): Promise<KeyRow> {
  const rows = await db.query<KeyRow>(
    `insert into api_keys (key, name, secret_hash, roles, rate_limit) values ($1, $2, $3, $4, $5)
     returning id::text, key, name, roles, secret_hash, created_date, revoked_date, rate_limit`,
    [key, name, secretHash, roles, rateLimit],
  );
  return rows[0]!;
}

export async function listKeys(db: Queryable): Promise<KeyRow[]> {
  return db.query<KeyRow>(
    'select id::text, key, name, roles, secret_hash, created_date, revoked_date, rate_limit from api_keys order by id',
  );
}

export async function findActiveKey(db: Queryable, key: string): Promise<KeyRow | undefined> {
  const rows = await db.query<KeyRow>(
    `select id::text, key, name, roles, secret_hash, created_date, revoked_date, rate_limit
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
    `select k.id::text as key_id, k.key, k.roles, t.expires_date, k.rate_limit
     from access_tokens t join api_keys k on k.id = t.key_id
     where t.token_hash = $1 and t.expires_date > now() and k.revoked_date is null`,
    [hash],
  );
  return rows[0];
}

/** Sets a key's requests per minute (null: the default, 0: unlimited); false when no active key has that id. */
export async function setRateLimit(db: Queryable, key: string, rateLimit: number | null): Promise<boolean> {
  // Announced as a revocation is: every server forgets the principals it remembered, with their limits.
  const rows = await db.query(
    `with changed as (update api_keys set rate_limit = $2 where key = $1 and revoked_date is null returning id)
     select pg_notify('${REVOCATIONS}', id::text)::text as told from changed`,
    [key, rateLimit],
  );
  return rows.length === 1;
}

/**
 * Adds this process's requests to the shared counts; answers every count it touched, as all
 * processes have made them so far. Counts older than the minute before `oldest` are dropped.
 */
export async function addRequestCounts(
  db: Queryable,
  counts: { keyId: string; family: string; minute: number; count: number }[],
): Promise<{ key_id: string; family: string; minute: string; count: number }[]> {
  return db.query(
    `insert into rate_counts (key_id, family, minute, count)
     select * from unnest($1::bigint[], $2::text[], $3::bigint[], $4::int[])
     on conflict (key_id, family, minute) do update set count = rate_counts.count + excluded.count
     returning key_id::text, family, minute::text, count`,
    [counts.map((c) => c.keyId), counts.map((c) => c.family), counts.map((c) => c.minute), counts.map((c) => c.count)],
  );
}

export async function dropRequestCountsBefore(db: Queryable, minute: number): Promise<void> {
  await db.query('delete from rate_counts where minute < $1', [minute]);
}
