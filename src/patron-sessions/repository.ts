// SQL of the catalogue's sessions (migration 0070). Times come from the service: one clock decides
// what is expired, whatever the database server's clock says.
import type { Queryable } from '../db/types.ts';

export interface SessionRow {
  patron_id: string;
  csrf_token: string;
}

export async function insertSession(q: Queryable, row: { idHash: Buffer; patronId: string; csrfToken: string; at: Date }): Promise<void> {
  await q.query('insert into catalog_sessions (id_hash, patron_id, csrf_token, created, last_seen) values ($1, $2, $3, $4, $4)', [
    row.idHash,
    row.patronId,
    row.csrfToken,
    row.at,
  ]);
}

/** When a live session's last-seen time is written, and the bounds that decide whether it lives. */
export interface SeenAt {
  at: Date;
  idleSince: Date;
  begunSince: Date;
  /** Its last-seen time is moved to `at` only when older than this (SessionLimits' touchEverySec). */
  touchBefore: Date;
}

/**
 * The statement reading a live session by its hash (neither idle since $3 nor begun before $4),
 * its last-seen time moved to $2 when older than $5; then `select` over the CTE `live`
 * (patron_id, csrf_token). A session seen a moment ago is only read: most page views write nothing.
 */
function liveSession(select: string): string {
  return `with live as (
       select id_hash, patron_id, csrf_token, last_seen from catalog_sessions
       where id_hash = $1 and last_seen > $3 and created > $4),
     touched as (
       update catalog_sessions c set last_seen = $2 from live
       where c.id_hash = live.id_hash and live.last_seen < $5)
     ${select}`;
}

const seenParams = (idHash: Buffer, seen: SeenAt) => [idHash, seen.at, seen.idleSince, seen.begunSince, seen.touchBefore];

/** The live session (see SeenAt), seen at `seen.at`. */
export async function touchLiveSession(q: Queryable, idHash: Buffer, seen: SeenAt): Promise<SessionRow | undefined> {
  const rows = await q.query<SessionRow>(liveSession('select patron_id::text, csrf_token from live'), seenParams(idHash, seen));
  return rows[0];
}

/**
 * touchLiveSession, and in the same statement the row `page` reads of the session's patron: a
 * select that names the session's patron as `s.patron_id` and takes no parameters of its own.
 * page_found is true when it found its row (its columns are all null otherwise).
 */
export async function touchLiveSessionWith<T>(
  q: Queryable,
  idHash: Buffer,
  seen: SeenAt,
  page: string,
): Promise<(SessionRow & { page_found: boolean | null } & Partial<T>) | undefined> {
  const rows = await q.query<SessionRow & { page_found: boolean | null } & Partial<T>>(
    liveSession(`select page.*, s.patron_id::text as patron_id, s.csrf_token
     from live s left join lateral (select true as page_found, found.* from (${page}) found) page on true`),
    seenParams(idHash, seen),
  );
  return rows[0];
}

export async function deleteSession(q: Queryable, idHash: Buffer): Promise<void> {
  await q.query('delete from catalog_sessions where id_hash = $1', [idHash]);
}

export async function deleteSessionsOfPatron(q: Queryable, patronId: string): Promise<void> {
  await q.query('delete from catalog_sessions where patron_id = $1', [patronId]);
}

/** Deletes every session idle since `idleSince` or begun before `begunSince`; answers how many. */
export async function deleteExpired(q: Queryable, idleSince: Date, begunSince: Date): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `with gone as (delete from catalog_sessions where last_seen <= $1 or created <= $2 returning 1)
     select count(*)::int as n from gone`,
    [idleSince, begunSince],
  );
  return rows[0]?.n ?? 0;
}
