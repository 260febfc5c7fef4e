// Files received (README, "SFTP door and files"): kept with their bytes as they arrive, recognised
// by content, and processed exactly once. Any process may process any file: it claims one with a
// lease (repository.claimNext), renews the lease while it works, and records the outcome only if
// it still holds the claim; a file whose process died is claimed again once its lease runs out.
import crypto from 'node:crypto';
import type { Db, Queryable } from '../db/types.ts';
import { fail } from '../shared/errors.ts';
import { recognise, type FileKind } from './kinds.ts';
import { defaultProcessors, type FileProcessor, type LoadSettings } from './processors.ts';
import { capReport } from './report-cap.ts';
import * as repo from './repository.ts';

/** How long a claim holds without renewal, and how often it is renewed while a file is processed. */
const LEASE_SEC = 120;
const RENEW_MS = 30_000;
/** Claims of one file past which it is marked failed unprocessed: each before ended with no outcome recorded. */
const MAX_ATTEMPTS = 3;

/** Why a processor stopped: another process holds the file's claim now. */
export class LostClaim extends Error {
  constructor(id: string) {
    super(`file ${id} was claimed by another process: this one stopped processing it`);
  }
}

export interface FileEntry {
  id: string;
  account: string;
  name: string;
  sha256: string;
  size: number;
  kind: FileKind;
  status: repo.FileStatus;
  receivedDate: string;
  processedDate: string | null;
  report: unknown;
}

/** A processed file as an account's out/ folder lists it: without its report, with the report's size. */
export type ProcessedFile = Omit<FileEntry, 'report' | 'account'> & { reportBytes: number };

function presentHead(row: repo.FileHeadRow): ProcessedFile {
  const { id, name, sha256, size, kind, status, receivedDate, processedDate } = presentFile({ ...row, report: null });
  return { id, name, sha256, size, kind, status, receivedDate, processedDate, reportBytes: Number(row.report_bytes) };
}

export function presentFile(row: repo.FileRow): FileEntry {
  return {
    id: row.id,
    account: row.account,
    name: row.name,
    sha256: row.sha256,
    size: Number(row.size),
    kind: row.kind,
    status: row.status,
    receivedDate: row.received_date.toISOString(),
    processedDate: row.processed_date?.toISOString() ?? null,
    report: row.report ?? null,
  };
}

export class FileService {
  private readonly processors: Map<FileKind, FileProcessor>;
  private draining: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly db: Db,
    /** The load settings of the account a file came from. */
    private readonly settingsOf: (account: string) => Promise<LoadSettings>,
    /** How often a claim is renewed (and found lost) while a file is processed. */
    private readonly renewMs = RENEW_MS,
  ) {
    this.processors = defaultProcessors(db);
  }

  /** Sets the processor of a kind of file (EDIFACT's, once it exists); files of that kind retried from then on use it. */
  register(kind: FileKind, processor: FileProcessor): void {
    this.processors.set(kind, processor);
  }

  /**
   * Keeps a file complete as received, recognised by its content; it waits to be processed. `tx`:
   * a caller's transaction, when what it records about the file must be kept with it or not at all.
   */
  async receive(account: string, name: string, content: Uint8Array, tx: Queryable = this.db): Promise<FileEntry> {
    return (await this.keep(tx, account, name, content))!;
  }

  /** As receive, unless the account's files would then hold more than maxBytes: then nothing is kept (undefined). */
  receiveWithin(account: string, name: string, content: Uint8Array, maxBytes: number): Promise<FileEntry | undefined> {
    return this.keep(this.db, account, name, content, maxBytes);
  }

  /** The bytes an account's files and their reports hold. */
  accountBytes(account: string): Promise<number> {
    return repo.accountBytes(this.db, account);
  }

  private async keep(tx: Queryable, account: string, name: string, content: Uint8Array, maxBytes?: number): Promise<FileEntry | undefined> {
    const sha256 = crypto.createHash('sha256').update(content).digest('hex');
    const { kind } = recognise(content);
    const row = await repo.insertFile(tx, { account, name, sha256, kind, content }, maxBytes);
    return row && presentFile(row);
  }

  async list(o: { account?: string; limit: number; offset: number }): Promise<{ total: number; entries: FileEntry[] }> {
    const [total, rows] = await Promise.all([repo.countFiles(this.db, o.account), repo.listFiles(this.db, o)]);
    return { total, entries: rows.map(presentFile) };
  }

  /** An account's processed files, newest first, without their reports (each read on its own, `processed`). */
  async listProcessed(account: string, limit: number): Promise<ProcessedFile[]> {
    return (await repo.listProcessed(this.db, account, limit)).map(presentHead);
  }

  /** One processed file of an account with its report as JSON text; undefined when there is none. */
  async processed(account: string, id: string): Promise<(ProcessedFile & { reportText: string }) | undefined> {
    const [row] = await repo.findProcessed(this.db, account, id);
    return row && { ...presentHead(row), reportText: row.report_text };
  }

  async get(id: string): Promise<FileEntry> {
    const [row] = await repo.findFile(this.db, id);
    if (!row) throw fail.notFound(`no file has id ${id}`);
    return presentFile(row);
  }

  /** A refused or failed file, back to be processed again. */
  async retry(id: string): Promise<FileEntry> {
    const [row] = await repo.requeueFile(this.db, id);
    if (row) return presentFile(row);
    const file = await this.get(id);
    throw fail.conflict(0, `file ${id} is ${file.status}: only a refused or failed file is processed again`);
  }

  /**
   * Processes the files waiting, one at a time, until none is left. Callers at once share one
   * pass; a call during a pass makes it look again before it ends (a file received meanwhile).
   */
  processWaiting(): Promise<void> {
    if (this.draining) {
      this.again = true;
      return this.draining;
    }
    this.draining = (async () => {
      do {
        this.again = false;
        while (await this.processOne()) {
          // next file
        }
      } while (this.again);
    })().finally(() => (this.draining = undefined));
    return this.draining;
  }

  /** Claims one file waiting (this one only, when given) and processes it; false when none was claimed. */
  async processOne(only?: string): Promise<boolean> {
    const claim = crypto.randomUUID();
    const file = await repo.claimNext(this.db, claim, LEASE_SEC, only);
    if (!file) return false;
    if (file.attempts > MAX_ATTEMPTS) {
      const reason = `processing it stopped ${MAX_ATTEMPTS} times before its outcome was recorded: it is not processed again unless retried`;
      await repo.finishFile(this.db, file.id, claim, 'failed', { reason });
      return true;
    }
    // A lease found taken (this process stalled past it and another claimed the file) stops the
    // processor at its next safe point, and its renewal: the outcome is the new holder's to record.
    const lost = new AbortController();
    const renew = setInterval(
      () =>
        void repo.renewLease(this.db, file.id, claim, LEASE_SEC).then(
          (held) => {
            if (held) return;
            clearInterval(renew);
            lost.abort(new LostClaim(file.id));
          },
          () => undefined,
        ),
      this.renewMs,
    );
    renew.unref();
    // At each safe point the processor asks whether it still holds the claim (renewing it): a
    // loss is found there at once rather than at the next renewal.
    const checkpoint = async () => {
      if (!lost.signal.aborted && !(await repo.renewLease(this.db, file.id, claim, LEASE_SEC))) lost.abort(new LostClaim(file.id));
      lost.signal.throwIfAborted();
    };
    let outcome: { status: repo.FileStatus; report: unknown };
    try {
      const processor = this.processors.get(file.kind)!;
      const settings = await this.settingsOf(file.account);
      const { id, account, name, kind, content } = file;
      outcome = await processor({ id, account, name, kind, content, settings, signal: lost.signal, checkpoint });
    } catch (error) {
      outcome = { status: 'failed', report: { reason: error instanceof Error ? error.message : String(error) } };
    } finally {
      clearInterval(renew);
    }
    if (lost.signal.aborted) return true;
    try {
      await repo.finishFile(this.db, file.id, claim, outcome.status, capReport(outcome.report));
    } catch (error) {
      // An outcome the database refuses (a report it cannot hold, say): recorded as a failure.
      const why = error instanceof Error ? error.message : String(error);
      await repo.finishFile(this.db, file.id, claim, 'failed', { reason: `its outcome could not be recorded: ${why.slice(0, 500)}` });
    }
    return true;
  }
}
