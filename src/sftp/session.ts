// One SFTP session of an account: its requests answered within the account's tree
// (src/files/paths.ts). Uploads go to in/ only and are spooled to a file of their own until the
// client closes them; reads come from out/ only: a report of each file the account sent, and the
// orders waiting for the account's vendor to collect them.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import ssh2 from 'ssh2';
import {
  listReports,
  overQuota,
  pathOf,
  place,
  readReport,
  reportName,
  reportSize,
  quotaRoom,
  takeUpload,
  type FileService,
  type StoreQueue,
} from '../files/index.ts';
import { MAX_ACCOUNT_HANDLES, type AccountHandles } from './account-handles.ts';
import type { SftpAccountService } from './accounts.ts';

const { STATUS_CODE, OPEN_MODE } = ssh2.utils.sftp;

/** Files and directories one session may have open at once. */
const MAX_HANDLES = 16;
const TOO_MANY = `at most ${MAX_HANDLES} files and folders open in a session, ${MAX_ACCOUNT_HANDLES} in all of an account's`;
/**
 * Requests that read the database a session may have in flight; past it a request fails at once.
 * A client pipelining many would otherwise take the database from every other session.
 */
const MAX_IN_FLIGHT = 8;
/** Directory entries sent per READDIR answer. */
const PER_READDIR = 100;

/**
 * Orders a vendor collects from out/ (src/acquisitions/edi-transport): the interchanges waiting for
 * it, and the mark that it has read one whole.
 */
export interface OrderPickup {
  waitingOrders(vendor: string): Promise<{ id: string; name: string; size: number; prepared: Date }[]>;
  waitingOrder(vendor: string, name: string): Promise<{ id: string; content: Uint8Array; prepared: Date } | undefined>;
  ordersCollected(id: string, account: string): Promise<void>;
}

/** An order file's name: ord, the interchange's control reference, .CEP. */
const ORDER_NAME = /^ord\d{1,14}\.CEP$/;

/** An order file being read: which of its bytes were sent to the client, so that its close knows whether it was read whole. */
interface Collecting {
  id: string;
  read: Uint8Array;
  unread: number;
}

type Handle =
  | {
      type: 'upload';
      name: string;
      spoolFile: string;
      fd: number;
      size: number;
      failed?: string;
      /** Bytes the account's quota had left when the file was opened. */
      room: number;
    }
  | { type: 'read'; content: Buffer; order?: Collecting }
  | { type: 'dir'; entries: ssh2.FileEntry[]; sent: boolean };

const DIR_MODE = fs.constants.S_IFDIR | 0o755;
const FILE_MODE = fs.constants.S_IFREG | 0o644;

function attrs(mode: number, size: number, time = new Date()): ssh2.Attributes {
  const seconds = Math.floor(time.getTime() / 1000);
  return { mode, uid: 0, gid: 0, size, atime: seconds, mtime: seconds };
}

function longname(name: string, a: ssh2.Attributes): string {
  const dir = (a.mode & fs.constants.S_IFDIR) !== 0;
  return `${dir ? 'drwxr-xr-x' : '-rw-r--r--'} 1 carrel carrel ${String(a.size).padStart(10)} Jan  1 00:00 ${name}`;
}

/** Counts the bytes from `from` to `to` as read (each once, however often it is read). */
function markRead(c: Collecting, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    if (c.read[i]) continue;
    c.read[i] = 1;
    c.unread--;
  }
}

export class SftpSession {
  private readonly handles = new Map<string, Handle>();
  private inFlight = 0;
  /** The vendor the account is tied to, read once per session. */
  private vendor: Promise<string | null> | undefined;

  constructor(
    private readonly sftp: ssh2.SFTPWrapper,
    private readonly o: {
      account: string;
      files: FileService;
      accounts: SftpAccountService;
      /** The orders vendors collect; none: out/ holds reports only. */
      orders?: OrderPickup;
      spool: string;
      maxFileBytes: number;
      /** Bytes an account's files may hold (SftpLimits.quotaBytes). */
      quotaBytes: number;
      /** The process's uploads being stored, one at a time. */
      stores: StoreQueue;
      /** Handles open by each account in all its sessions. */
      accountHandles: AccountHandles;
      log: FastifyBaseLogger;
    },
  ) {}

  start(): void {
    const { sftp } = this;
    const guard = (reqId: number, work: () => Promise<void> | void) => {
      Promise.resolve()
        .then(work)
        .catch((error: unknown) => {
          this.o.log.error({ err: error }, 'SFTP request failed');
          sftp.status(reqId, STATUS_CODE.FAILURE, 'the request failed');
        });
    };
    // Requests answered from the database (or storing an upload): counted, at most MAX_IN_FLIGHT.
    const limited = (reqId: number, work: () => Promise<void> | void) => {
      if (this.inFlight >= MAX_IN_FLIGHT)
        return void sftp.status(reqId, STATUS_CODE.FAILURE, `at most ${MAX_IN_FLIGHT} requests at once: wait for answers`);
      this.inFlight++;
      guard(reqId, () =>
        Promise.resolve()
          .then(work)
          .finally(() => this.inFlight--),
      );
    };
    sftp.on('error', () => undefined);
    // The client is done (its end of the channel closed): close ours, or OpenSSH waits for ever.
    sftp.on('end', () => sftp.end());
    sftp.on('REALPATH', (reqId, raw) =>
      guard(reqId, () => {
        const p = place(raw);
        if (!p) return void sftp.status(reqId, STATUS_CODE.NO_SUCH_FILE, 'outside your folders: only in/ and out/');
        const full = pathOf(p);
        sftp.name(reqId, [{ filename: full, longname: full, attrs: attrs(DIR_MODE, 0) }]);
      }),
    );
    const stat = (reqId: number, raw: string) => limited(reqId, () => this.stat(reqId, raw));
    sftp.on('STAT', stat);
    sftp.on('LSTAT', stat);
    sftp.on('OPENDIR', (reqId, raw) => limited(reqId, () => this.openDir(reqId, raw)));
    sftp.on('READDIR', (reqId, handle) => guard(reqId, () => this.readDir(reqId, handle)));
    sftp.on('OPEN', (reqId, raw, flags) => limited(reqId, () => this.open(reqId, raw, flags)));
    sftp.on('WRITE', (reqId, handle, offset, data) => guard(reqId, () => this.write(reqId, handle, offset, data)));
    sftp.on('READ', (reqId, handle, offset, length) => guard(reqId, () => this.read(reqId, handle, offset, length)));
    sftp.on('FSTAT', (reqId, handle) =>
      guard(reqId, () => {
        const h = this.handles.get(handle.toString('hex'));
        if (!h) return void sftp.status(reqId, STATUS_CODE.FAILURE, 'no such handle');
        sftp.attrs(
          reqId,
          attrs(h.type === 'dir' ? DIR_MODE : FILE_MODE, h.type === 'read' ? h.content.length : h.type === 'upload' ? h.size : 0),
        );
      }),
    );
    // Times and modes a client sets (sftp -p) mean nothing here: accepted, kept nowhere.
    sftp.on('SETSTAT', (reqId) => sftp.status(reqId, STATUS_CODE.OK));
    sftp.on('FSETSTAT', (reqId) => sftp.status(reqId, STATUS_CODE.OK));
    sftp.on('CLOSE', (reqId, handle) => limited(reqId, () => this.close(reqId, handle)));
    const denied = (reqId: number) => sftp.status(reqId, STATUS_CODE.PERMISSION_DENIED, 'not allowed: upload to in/, read from out/');
    for (const request of ['REMOVE', 'RMDIR', 'MKDIR', 'RENAME', 'READLINK', 'SYMLINK'] as const) sftp.on(request, denied);
    // A connection lost before its uploads were closed: they are incomplete, and nothing of them is kept.
    sftp.on('close', () => {
      for (const h of this.handles.values()) if (h.type === 'upload') this.discard(h);
      this.o.accountHandles.give(this.o.account, this.handles.size);
      this.handles.clear();
    });
  }

  private stat(reqId: number, raw: string): void | Promise<void> {
    const p = place(raw);
    if (!p) return void this.sftp.status(reqId, STATUS_CODE.NO_SUCH_FILE, 'outside your folders: only in/ and out/');
    if (p.at === 'root' || p.name === undefined) return void this.sftp.attrs(reqId, attrs(DIR_MODE, 0));
    if (p.at === 'in') return void this.sftp.status(reqId, STATUS_CODE.NO_SUCH_FILE, 'in/ holds nothing to read');
    if (ORDER_NAME.test(p.name))
      return this.order(p.name).then((order) => {
        if (!order) return void this.sftp.status(reqId, STATUS_CODE.NO_SUCH_FILE, 'no such order file (one read whole leaves out/)');
        this.sftp.attrs(reqId, attrs(FILE_MODE, order.content.byteLength, order.prepared));
      });
    return readReport(this.o.files, this.o.account, p.name).then((report) => {
      if (!report) return void this.sftp.status(reqId, STATUS_CODE.NO_SUCH_FILE, 'no such report');
      this.sftp.attrs(reqId, attrs(FILE_MODE, report.content.length, new Date(report.file.processedDate ?? report.file.receivedDate)));
    });
  }

  private vendorOf(): Promise<string | null> {
    this.vendor ??= this.o.accounts.vendorOf(this.o.account);
    return this.vendor;
  }

  /** An interchange waiting for the account's vendor to collect it, by its file name. */
  private async order(name: string): Promise<{ id: string; content: Uint8Array; prepared: Date } | undefined> {
    const vendor = this.o.orders && (await this.vendorOf());
    return vendor ? this.o.orders!.waitingOrder(vendor, name) : undefined;
  }

  private newHandle(h: Handle): Buffer | undefined {
    if (this.handles.size >= MAX_HANDLES || !this.o.accountHandles.take(this.o.account)) return undefined;
    const id = crypto.randomBytes(8);
    this.handles.set(id.toString('hex'), h);
    return id;
  }

  private async openDir(reqId: number, raw: string): Promise<void> {
    const p = place(raw);
    if (!p || ('name' in p && p.name !== undefined)) return void this.sftp.status(reqId, STATUS_CODE.NO_SUCH_FILE, 'no such folder');
    const entries: ssh2.FileEntry[] = [];
    const add = (filename: string, a: ssh2.Attributes) => entries.push({ filename, longname: longname(filename, a), attrs: a });
    if (p.at === 'root') {
      add('in', attrs(DIR_MODE, 0));
      add('out', attrs(DIR_MODE, 0));
    } else if (p.at === 'out') {
      const vendor = this.o.orders && (await this.vendorOf());
      if (vendor)
        for (const order of await this.o.orders!.waitingOrders(vendor)) add(order.name, attrs(FILE_MODE, order.size, order.prepared));
      for (const file of await listReports(this.o.files, this.o.account)) add(reportName(file), attrs(FILE_MODE, reportSize(file)));
    }
    const handle = this.newHandle({ type: 'dir', entries, sent: false });
    if (!handle) return void this.sftp.status(reqId, STATUS_CODE.FAILURE, TOO_MANY);
    this.sftp.handle(reqId, handle);
  }

  private readDir(reqId: number, handle: Buffer): void {
    const h = this.handles.get(handle.toString('hex'));
    if (h?.type !== 'dir') return void this.sftp.status(reqId, STATUS_CODE.FAILURE, 'not an open folder');
    if (h.entries.length === 0) return void this.sftp.status(reqId, STATUS_CODE.EOF);
    this.sftp.name(reqId, h.entries.splice(0, PER_READDIR));
  }

  private async open(reqId: number, raw: string, flags: number): Promise<void> {
    const p = place(raw);
    if (!p || p.at === 'root' || p.name === undefined)
      return void this.sftp.status(reqId, STATUS_CODE.PERMISSION_DENIED, 'not a file in in/ or out/');
    const writing = (flags & (OPEN_MODE.WRITE | OPEN_MODE.APPEND | OPEN_MODE.CREAT | OPEN_MODE.TRUNC)) !== 0;
    if (writing) {
      if (p.at !== 'in') return void this.sftp.status(reqId, STATUS_CODE.PERMISSION_DENIED, 'uploads go to in/');
      return this.openUpload(reqId, p.name);
    }
    if (p.at !== 'out')
      return void this.sftp.status(reqId, STATUS_CODE.PERMISSION_DENIED, 'in/ holds nothing to read; reports are in out/');
    if (ORDER_NAME.test(p.name)) {
      const order = await this.order(p.name);
      if (!order) return void this.sftp.status(reqId, STATUS_CODE.NO_SUCH_FILE, 'no such order file (one read whole leaves out/)');
      const content = Buffer.from(order.content);
      const collecting = { id: order.id, read: new Uint8Array(content.length), unread: content.length };
      const handle = this.newHandle({ type: 'read', content, order: collecting });
      if (!handle) return void this.sftp.status(reqId, STATUS_CODE.FAILURE, TOO_MANY);
      return void this.sftp.handle(reqId, handle);
    }
    const report = await readReport(this.o.files, this.o.account, p.name);
    if (!report) return void this.sftp.status(reqId, STATUS_CODE.NO_SUCH_FILE, 'no such report');
    const handle = this.newHandle({ type: 'read', content: report.content });
    if (!handle) return void this.sftp.status(reqId, STATUS_CODE.FAILURE, TOO_MANY);
    this.sftp.handle(reqId, handle);
  }

  private async openUpload(reqId: number, name: string): Promise<void> {
    const room = await quotaRoom(this.o.files, this.o.account, this.o.quotaBytes);
    if (room <= 0) return void this.sftp.status(reqId, STATUS_CODE.FAILURE, overQuota(this.o.quotaBytes));
    const spoolFile = path.join(this.o.spool, crypto.randomUUID());
    const upload: Handle = { type: 'upload', name, spoolFile, fd: -1, size: 0, room };
    const handle = this.newHandle(upload);
    if (!handle) return void this.sftp.status(reqId, STATUS_CODE.FAILURE, TOO_MANY);
    upload.fd = fs.openSync(spoolFile, 'w+', 0o600);
    this.sftp.handle(reqId, handle);
  }

  private write(reqId: number, handle: Buffer, offset: number, data: Buffer): void {
    const h = this.handles.get(handle.toString('hex'));
    if (h?.type !== 'upload') return void this.sftp.status(reqId, STATUS_CODE.FAILURE, 'not a file open for writing');
    if (h.failed) return void this.sftp.status(reqId, STATUS_CODE.FAILURE, h.failed);
    // Only writes that carry on where the file ends: a write further on would leave a hole that
    // storing reads as zeros, so a few bytes sent could make a file of any size in memory.
    if (offset !== h.size) {
      h.failed = `writes must follow one another (this one is at byte ${offset}, the file has ${h.size}): nothing of this file is kept`;
      this.discard(h);
      return void this.sftp.status(reqId, STATUS_CODE.FAILURE, h.failed);
    }
    if (h.size + data.length > this.o.maxFileBytes) {
      h.failed = `a file is at most ${this.o.maxFileBytes / 1024 / 1024} MB: nothing of this one is kept`;
      this.discard(h);
      return void this.sftp.status(reqId, STATUS_CODE.FAILURE, h.failed);
    }
    if (h.size + data.length > h.room) {
      h.failed = overQuota(this.o.quotaBytes);
      this.discard(h);
      return void this.sftp.status(reqId, STATUS_CODE.FAILURE, h.failed);
    }
    fs.writeSync(h.fd, data, 0, data.length, offset);
    h.size += data.length;
    this.sftp.status(reqId, STATUS_CODE.OK);
  }

  private read(reqId: number, handle: Buffer, offset: number, length: number): void {
    const h = this.handles.get(handle.toString('hex'));
    if (h?.type !== 'read') return void this.sftp.status(reqId, STATUS_CODE.FAILURE, 'not a file open for reading');
    if (offset >= h.content.length) return void this.sftp.status(reqId, STATUS_CODE.EOF);
    const end = Math.min(h.content.length, offset + length);
    this.sftp.data(reqId, h.content.subarray(offset, end));
    if (h.order) markRead(h.order, offset, end);
  }

  private async close(reqId: number, handle: Buffer): Promise<void> {
    const key = handle.toString('hex');
    const h = this.handles.get(key);
    if (!h) return void this.sftp.status(reqId, STATUS_CODE.FAILURE, 'no such handle');
    this.handles.delete(key);
    this.o.accountHandles.give(this.o.account);
    // An order file closed after every byte of it was sent: the vendor has it, and it is sent.
    // Closed after a part only, it stays waiting, to be read again whole.
    if (h.type === 'read' && h.order?.unread === 0) await this.o.orders!.ordersCollected(h.order.id, this.o.account);
    if (h.type !== 'upload') return void this.sftp.status(reqId, STATUS_CODE.OK);
    if (h.failed) return void this.sftp.status(reqId, STATUS_CODE.FAILURE, h.failed);
    try {
      const outcome = await takeUpload({
        files: this.o.files,
        stores: this.o.stores,
        account: this.o.account,
        name: h.name,
        spoolFile: h.spoolFile,
        quotaBytes: this.o.quotaBytes,
        allowed: async () => (await this.o.accounts.active([this.o.account])).has(this.o.account),
        log: this.o.log,
        door: 'SFTP',
      });
      if ('taken' in outcome) return void this.sftp.status(reqId, STATUS_CODE.OK);
      if (outcome.refused === 'revoked') return void this.sftp.status(reqId, STATUS_CODE.PERMISSION_DENIED, 'this account was revoked');
      // Other uploads of the account, stored while this one was written, may have taken its room.
      if (outcome.refused === 'quota') return void this.sftp.status(reqId, STATUS_CODE.FAILURE, overQuota(this.o.quotaBytes));
      this.sftp.status(reqId, STATUS_CODE.FAILURE, 'the server is busy storing other files: send this one again later');
    } finally {
      this.discard(h);
    }
  }

  /** Closes and deletes an upload's spool file. */
  private discard(h: Handle & { type: 'upload' }): void {
    if (h.fd >= 0) fs.closeSync(h.fd);
    h.fd = -1;
    fs.rmSync(h.spoolFile, { force: true });
  }
}
