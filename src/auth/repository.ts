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
 * processes have made them so far, and the same keys' counts of the minute before (a process that
 * has just entered a minute learns there what the others did in the last one).
 */
export async function addRequestCounts(
  db: Queryable,
  counts: { keyId: string; family: string; minute: number; count: number }[],
): Promise<{ key_id: string; family: string; minute: string; count: number }[]> {
  return db.query(
    `with added as (
       insert into rate_counts (key_id, family, minute, count)
       select * from unnest($1::bigint[], $2::text[], $3::bigint[], $4::int[])
       on conflict (key_id, family, minute) do update set count = rate_counts.count + excluded.count
       returning key_id, family, minute, count)
     select key_id::text, family, minute::text, count from added
     union all
     select r.key_id::text, r.family, r.minute::text, r.count
       from rate_counts r join added a on r.key_id = a.key_id and r.family = a.family and r.minute = a.minute - 1`,
    [counts.map((c) => c.keyId), counts.map((c) => c.family), counts.map((c) => c.minute), counts.map((c) => c.count)],
  );
}

export async function dropRequestCountsBefore(db: Queryable, minute: number): Promise<void> {
  await db.query('delete from rate_counts where minute < $1', [minute]);
}

// Failed attempts at a secret (src/auth/attempts.ts): fixed windows, one row per subject, in the
// table migration 0007 made for PIN validations (its subjects are hashes of a kind and a value,
// so patrons', keys' and addresses' counts never meet).
export interface AttemptCounts {
  /** False when the source had used up its failures: nothing was counted, the secret must not be checked. */
  sourceCounted: boolean;
  /** The source's attempts in its current window, this one included (0 when it was refused). */
  sourceAttempts: number;
  sourceRetrySec: number;
  /** Attempts on the target in its current window, this one included (0 when the source was refused). */
  targetAttempts: number;
  targetRetrySec: number;
}

const RETRY = (alias: string, windowParam: string) =>
  `greatest(1, ceil(extract(epoch from (${alias}.window_start + make_interval(secs => ${windowParam}::integer) - now()))))::integer`;

/**
 * Counts an attempt against its source and its target before the secret is checked, in one
 * statement, so attempts made at the same moment cannot all slip under either limit. The source is
 * counted only while under its limit (the row is locked and its latest count checked by ON
 * CONFLICT), and the target only when the source was counted: a source over its limit cannot push
 * any target towards lockout. The caller takes the source's count back when the secret was not
 * checked or was right.
 */
export async function beginAttempt(
  db: Queryable,
  targetSubject: Buffer,
  targetWindowSec: number,
  sourceSubject: Buffer,
  sourceWindowSec: number,
  sourceLimit: number,
): Promise<AttemptCounts> {
  const expired = (windowParam: string) => `f.window_start <= now() - make_interval(secs => ${windowParam}::integer)`;
  const rows = await db.query<{
    source_attempts: number | null;
    source_retry: number | null;
    target_attempts: number | null;
    target_retry: number | null;
  }>(
    `with s as (
       insert into patron_validation_failures as f (subject, window_start, failures) values ($3, now(), 1)
       on conflict (subject) do update set
         window_start = case when ${expired('$4')} then now() else f.window_start end,
         failures = case when ${expired('$4')} then 1 else f.failures + 1 end
       where ${expired('$4')} or f.failures < $5::integer
       returning f.failures),
     t as (
       insert into patron_validation_failures as f (subject, window_start, failures) select $1, now(), 1 from s
       on conflict (subject) do update set
         window_start = case when ${expired('$2')} then now() else f.window_start end,
         failures = case when ${expired('$2')} then 1 else f.failures + 1 end
       returning f.failures, f.window_start)
     select (select s.failures from s) as source_attempts,
       (select ${RETRY('o', '$4')} from patron_validation_failures o where o.subject = $3) as source_retry,
       (select t.failures from t) as target_attempts,
       (select ${RETRY('t', '$2')} from t) as target_retry`,
    [targetSubject, targetWindowSec, sourceSubject, sourceWindowSec, sourceLimit],
  );
  const r = rows[0]!;
  return {
    sourceCounted: r.source_attempts !== null,
    sourceAttempts: r.source_attempts ?? 0,
    sourceRetrySec: r.source_retry ?? sourceWindowSec,
    targetAttempts: r.target_attempts ?? 0,
    targetRetrySec: r.target_retry ?? targetWindowSec,
  };
}

/** Takes back one attempt counted against each of two subjects (a secret not checked after all). */
export async function takeBackAttempts(db: Queryable, first: Buffer, second: Buffer): Promise<void> {
  await db.query('update patron_validation_failures set failures = failures - 1 where subject in ($1, $2) and failures > 0', [
    first,
    second,
  ]);
}

/** Takes back one attempt counted against a subject (the source, when its target was over its limit). */
export async function takeBackAttempt(db: Queryable, subject: Buffer): Promise<void> {
  await db.query('update patron_validation_failures set failures = failures - 1 where subject = $1 and failures > 0', [subject]);
}

/** A right secret: the target's failures forgotten and the attempt taken back from the source, in one round trip. */
export async function attemptSucceeded(db: Queryable, targetSubject: Buffer, sourceSubject: Buffer): Promise<void> {
  await db.query(
    `with cleared as (delete from patron_validation_failures where subject = $1)
     update patron_validation_failures set failures = failures - 1 where subject = $2 and failures > 0`,
    [targetSubject, sourceSubject],
  );
}

/** Removes counters whose window ended long ago (they would be reset on next use anyway). */
export async function sweepFailures(db: Queryable, olderThanSec: number): Promise<void> {
  await db.query('delete from patron_validation_failures where window_start < now() - make_interval(secs => $1::integer)', [olderThanSec]);
}

/** The subjects' failures in their current windows (one row per subject with any), with the seconds until each window ends. */
export async function failuresOf(
  db: Queryable,
  first: Buffer,
  firstWindowSec: number,
  second: Buffer,
  secondWindowSec: number,
): Promise<{ first: boolean; failures: number; retry_sec: number }[]> {
  return db.query(
    `select f.subject = $1 as first, f.failures, ${RETRY('f', 'w.sec')} as retry_sec
     from patron_validation_failures f
     join (values ($1::bytea, $2::integer), ($3::bytea, $4::integer)) as w (subject, sec) on w.subject = f.subject
     where f.window_start > now() - make_interval(secs => w.sec)`,
    [first, firstWindowSec, second, secondWindowSec],
  );
}

/** Counts a failure against both subjects, in one statement; answers each one's failures in its window, this one included. */
export async function addFailures(
  db: Queryable,
  first: Buffer,
  firstWindowSec: number,
  second: Buffer,
  secondWindowSec: number,
): Promise<{ first: boolean; failures: number }[]> {
  const expired = 'f.window_start <= now() - make_interval(secs => case when f.subject = $1 then $2::integer else $4::integer end)';
  return db.query(
    `insert into patron_validation_failures as f (subject, window_start, failures)
     select w.subject, now(), 1 from (values ($1::bytea), ($3::bytea)) as w (subject)
     on conflict (subject) do update set
       window_start = case when ${expired} then now() else f.window_start end,
       failures = case when ${expired} then 1 else f.failures + 1 end
     returning f.subject = $1 as first, f.failures`,
    [first, firstWindowSec, second, secondWindowSec],
  );
}

/** Forgets a subject's failures (the right secret was given). */
export async function forgetFailures(db: Queryable, subject: Buffer): Promise<void> {
  await db.query('delete from patron_validation_failures where subject = $1', [subject]);
}
