// What the file doors (SFTP, FTP) show an account and do with what it sends, so that both doors
// show the same folders and take an upload the same way: out/ holds a report per file the
// account sent that has been processed, NAME.ID.report.json; a file sent to in/ is stored from
// the door's spool file once complete, then processed (FileService). An account's quota
// (CARREL_SFTP_QUOTA_MB) bounds what its files hold whichever door they came through.
import fs from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import type { FileEntry, FileService, ProcessedFile } from './service.ts';
import type { StoreQueue } from './store-queue.ts';

/** Reports out/ lists at most: the newest. */
export const MAX_REPORTS = 1000;

export function reportName(file: ProcessedFile): string {
  return `${file.name}.${file.id}.report.json`;
}

/** The id a report's name ends with (NAME.ID.report.json). */
const REPORT_NAME = /\.(\d{1,18})\.report\.json$/;

/** A report file's text before its report: the file it tells of, as one JSON object left open. */
function reportHead(file: ProcessedFile): string {
  const { id, name, sha256, size, kind, status, receivedDate, processedDate } = file;
  return `${JSON.stringify({ id, name, sha256, size, kind, status, receivedDate, processedDate }).slice(0, -1)},"report":`;
}

/** A report file's size, from its head and the size of the report it holds. */
export function reportSize(file: ProcessedFile): number {
  return Buffer.byteLength(reportHead(file)) + file.reportBytes + 2;
}

/** The account's reports in out/, newest first, without reading them. */
export function listReports(files: FileService, account: string): Promise<ProcessedFile[]> {
  return files.listProcessed(account, MAX_REPORTS);
}

/** One report of out/, read by the id its name ends with (never a listing); undefined when there is none. */
export async function readReport(
  files: FileService,
  account: string,
  name: string,
): Promise<{ file: ProcessedFile; content: Buffer } | undefined> {
  const id = REPORT_NAME.exec(name)?.[1];
  if (!id) return undefined;
  const file = await files.processed(account, id);
  if (!file || reportName(file) !== name) return undefined;
  return { file, content: Buffer.from(`${reportHead(file)}${file.reportText}}\n`) };
}

/** Bytes the account's files may still take before they hold quotaBytes: 0 or less, none. */
export async function quotaRoom(files: FileService, account: string, quotaBytes: number): Promise<number> {
  return quotaBytes - (await files.accountBytes(account));
}

/** What a door tells a client whose upload would take its account past its quota. */
export function overQuota(quotaBytes: number): string {
  return `quota exceeded: this account's files may hold at most ${quotaBytes} bytes in all (CARREL_SFTP_QUOTA_MB): nothing of this file is kept`;
}

export type Taken = { taken: FileEntry } | { refused: 'revoked' | 'busy' | 'quota' };

/**
 * Stores a complete upload from its spool file (the caller deletes the spool file) and starts
 * processing what waits. Refused when the account was revoked while it uploaded, when too many
 * uploads already wait to be stored (StoreQueue), or when the account's files would then hold
 * more than quotaBytes (checked in the insert that keeps it, so that two uploads that each fit
 * alone but not together keep only the first).
 */
export async function takeUpload(o: {
  files: FileService;
  stores: StoreQueue;
  account: string;
  name: string;
  spoolFile: string;
  /** What the account's files may hold in all (SftpLimits.quotaBytes). */
  quotaBytes: number;
  /** Whether the account may still send files. */
  allowed: () => Promise<boolean>;
  log: FastifyBaseLogger;
  door: string;
}): Promise<Taken> {
  if (!(await o.allowed())) return { refused: 'revoked' };
  const stored = o.stores.run(async () => o.files.receiveWithin(o.account, o.name, fs.readFileSync(o.spoolFile), o.quotaBytes));
  if (!stored) return { refused: 'busy' };
  const file = await stored;
  if (!file) return { refused: 'quota' };
  o.log.info({ file: file.id, name: file.name, kind: file.kind, size: file.size }, `${o.door} file received`);
  void o.files.processWaiting().catch((error: unknown) => o.log.error({ err: error }, 'processing files failed'));
  return { taken: file };
}
