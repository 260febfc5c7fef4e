// SQL for files received (table files).
import type { Queryable } from '../db/types.ts';
import type { FileKind } from './kinds.ts';
import { MAX_REPORT_BYTES } from './report-cap.ts';

export type FileStatus = 'received' | 'processing' | 'loaded' | 'refused' | 'failed';

export interface FileRow {
  id: string;
  account: string;
  name: string;
  sha256: string;
  size: string;
  kind: FileKind;
  status: FileStatus;
  received_date: Date;
  processed_date: Date | null;
  report: unknown;
}

const HEAD = 'id::text as id, account, name, sha256, size::text as size, kind, status, received_date, processed_date';
/** A report as shown: one kept before reports were capped, and longer, shows only that it was cut. */
const REPORT = `case when octet_length(report::text) <= ${MAX_REPORT_BYTES} then report
  else jsonb_build_object('truncated', 'the report was longer than ${MAX_REPORT_BYTES} bytes') end`;
const COLUMNS = `${HEAD}, ${REPORT} as report`;
const REPORT_TEXT = `coalesce((${REPORT})::text, 'null')`;

/** A file without its report, with the size of its report as text . */
export type FileHeadRow = Omit<FileRow, 'report'> & { report_bytes: number };

/** What one account's files hold: their bytes and their reports' (as kept). */
const ACCOUNT_BYTES = `select coalesce(sum(size + coalesce(octet_length(report::text), 0)), 0) from files where account = $1`;

/**
 * Keeps a file; with `maxAccountBytes`, only when the account's files, this one included, hold no
 * more than that, else nothing. A process stores one file at a time (src/files/store-queue.ts);
 * two processes storing the same account's files at the same moment may pass it by one file.
 */
export async function insertFile(
  db: Queryable,
  row: { account: string; name: string; sha256: string; kind: FileKind; content: Uint8Array },
  maxAccountBytes?: number,
): Promise<FileRow | undefined> {
  const [inserted] = await db.query<FileRow>(
    `insert into files (account, name, sha256, size, kind, content)
     select $1::text, $2::text, $3::text, $4::bigint, $5::text, $6::bytea
     where $7::bigint is null or (${ACCOUNT_BYTES}) + $4::bigint <= $7::bigint
     returning ${COLUMNS}`,
    [row.account, row.name, row.sha256, row.content.byteLength, row.kind, row.content, maxAccountBytes ?? null],
  );
  return inserted;
}

export async function accountBytes(db: Queryable, account: string): Promise<number> {
  const [row] = await db.query<{ n: string }>(`select (${ACCOUNT_BYTES})::text as n`, [account]);
  return Number(row?.n ?? 0);
}

export function listFiles(db: Queryable, o: { account?: string; limit: number; offset: number }): Promise<FileRow[]> {
  return db.query<FileRow>(`select ${COLUMNS} from files where ($1::text is null or account = $1) order by id desc limit $2 offset $3`, [
    o.account ?? null,
    o.limit,
    o.offset,
  ]);
}

/** An account's processed files, newest first, without their reports. */
export function listProcessed(db: Queryable, account: string, limit: number): Promise<FileHeadRow[]> {
  return db.query<FileHeadRow>(
    `select ${HEAD}, octet_length(${REPORT_TEXT}) as report_bytes from files
     where account = $1 and status in ('loaded', 'refused', 'failed') order by id desc limit $2`,
    [account, limit],
  );
}

/** One processed file of an account, with its report as text. */
export function findProcessed(db: Queryable, account: string, id: string): Promise<(FileHeadRow & { report_text: string })[]> {
  return db.query<FileHeadRow & { report_text: string }>(
    `select ${HEAD}, octet_length(${REPORT_TEXT}) as report_bytes, ${REPORT_TEXT} as report_text from files
     where account = $1 and id = $2 and status in ('loaded', 'refused', 'failed')`,
    [account, id],
  );
}

export async function countFiles(db: Queryable, account?: string): Promise<number> {
  const [row] = await db.query<{ n: number }>('select count(*)::int as n from files where ($1::text is null or account = $1)', [
    account ?? null,
  ]);
  return row?.n ?? 0;
}

export function findFile(db: Queryable, id: string): Promise<FileRow[]> {
  return db.query<FileRow>(`select ${COLUMNS} from files where id = $1`, [id]);
}

/**
 * Claims the oldest file waiting, or one whose claim's lease ran out (its process died): one
 * statement, and `for update skip locked` so that two processes asking at once never take the
 * same row. Counts the claim in attempts. Answers it with its bytes, or nothing when none waits.
 */
export async function claimNext(
  db: Queryable,
  claim: string,
  leaseSec: number,
  only?: string,
): Promise<(FileRow & { content: Uint8Array; attempts: number }) | undefined> {
  const [row] = await db.query<FileRow & { content: Uint8Array; attempts: number }>(
    `update files set status = 'processing', claim = $1, lease_until = now() + make_interval(secs => $2), attempts = attempts + 1
     where id = (
       select id from files
       where (status = 'received' or (status = 'processing' and lease_until < now())) and ($3::bigint is null or id = $3)
       order by id limit 1 for update skip locked
     )
     returning ${COLUMNS}, content, attempts`,
    [claim, leaseSec, only ?? null],
  );
  return row;
}

/** Keeps a claim alive while its file is processed; false when the claim is no longer held. */
export async function renewLease(db: Queryable, id: string, claim: string, leaseSec: number): Promise<boolean> {
  const rows = await db.query(
    `update files set lease_until = now() + make_interval(secs => $3)
     where id = $1 and claim = $2 and status = 'processing' returning id`,
    [id, claim, leaseSec],
  );
  return rows.length > 0;
}

/** Records a file's outcome, only by the holder of its claim; false when another process holds it now. */
export async function finishFile(db: Queryable, id: string, claim: string, status: FileStatus, report: unknown): Promise<boolean> {
  const rows = await db.query(
    `update files set status = $3, report = $4::text::jsonb, processed_date = now(), claim = null, lease_until = null
     where id = $1 and claim = $2 and status = 'processing' returning id`,
    [id, claim, status, JSON.stringify(report)],
  );
  return rows.length > 0;
}

/** Puts a refused or failed file back to be processed again (a file being processed is left alone). */
export async function requeueFile(db: Queryable, id: string): Promise<FileRow[]> {
  return db.query<FileRow>(
    `update files set status = 'received', processed_date = null, report = null, attempts = 0
     where id = $1 and status in ('refused', 'failed') returning ${COLUMNS}`,
    [id],
  );
}
