// One FTP control connection (RFC 959, with RFC 2228 and RFC 4217 for TLS, RFC 2428 for EPSV):
// the strict subset a vendor's client needs to drop a file into in/ and fetch a report from out/.
// Commands are read one line at a time and answered in order; only ABOR is looked at while a
// transfer runs. What a connection may do, and why, is in src/ftp/server.ts.
import crypto from 'node:crypto';
import fs from 'node:fs';
import type net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import type { FastifyBaseLogger } from 'fastify';
import type { FtpLimits } from '../config.ts';
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
  type Place,
  type StoreQueue,
} from '../files/index.ts';
import type { SftpAccountService } from '../sftp/index.ts';
import { PassiveListener, plainAddress } from './passive.ts';

/** Bytes a command line may have, its end included: a path is at most a few hundred. */
const MAX_LINE = 2048;
/** Lines a client may send ahead of the answers; past them it is closed. */
const MAX_QUEUED = 16;
/** Wrong passwords one connection may give before it is closed. */
const MAX_FAILED_LOGINS = 3;

type Transfer = 'complete' | 'too big' | 'over quota' | 'aborted' | 'lost';

/** A reply line's text: never a line break, whatever a name held. */
const oneLine = (text: string) => text.replace(/[\r\n]/g, ' ');

/** A folder's entry as LIST shows it (the format every client parses). */
function listLine(name: string, dir: boolean, size: number): string {
  return `${dir ? 'drwxr-xr-x' : '-rw-r--r--'} 1 carrel carrel ${String(size).padStart(10)} Jan  1 00:00 ${name}`;
}

/** YYYYMMDDHHMMSS, as MLSD's modify fact (RFC 3659). */
const factTime = (iso: string) => iso.replace(/[-:T]/g, '').slice(0, 14);

interface Entry {
  name: string;
  dir: boolean;
  size: number;
  modified: string;
}

export class FtpSession {
  /** The stream commands are read from and answered on: the TCP socket, then its TLS once AUTH TLS. */
  private control: net.Socket | tls.TLSSocket;
  private pending: Buffer = Buffer.alloc(0);
  private readonly queue: string[] = [];
  private working = false;
  private closed = false;
  private user: string | undefined;
  account: string | undefined;
  private cwd: Place = { at: 'root' };
  private protect = false;
  private epsvAll = false;
  private failures = 0;
  private passive: PassiveListener | undefined;
  /** The transfer running: ABOR ends it. */
  private abort: (() => void) | undefined;

  constructor(
    private readonly raw: net.Socket,
    private readonly o: {
      accounts: SftpAccountService;
      files: FileService;
      stores: StoreQueue;
      spool: string;
      maxFileBytes: number;
      /** Bytes an account's files may hold (SftpLimits.quotaBytes). */
      quotaBytes: number;
      limits: FtpLimits;
      secureContext: tls.SecureContext;
      /** Data connections' (PROT P): TLS 1.2 (server.ts says why). */
      dataContext: tls.SecureContext;
      log: FastifyBaseLogger;
      /** A refusal worth logging (sampled): a fixed text, never a client's input. */
      refused: (message: string) => void;
      loggedIn: (session: FtpSession) => void;
    },
  ) {
    this.control = raw;
  }

  private get address(): string {
    return plainAddress(this.raw.remoteAddress);
  }

  start(): void {
    this.raw.on('data', this.onData);
    this.raw.once('close', () => this.gone());
    this.reply(220, 'Carrel FTP door: AUTH TLS, then log in');
  }

  /** Ends the session with a last reply (421): its account was revoked, or a time-out. */
  end(why: string): void {
    if (this.closed) return;
    this.reply(421, why);
    this.closed = true;
    this.control.end();
    this.raw.destroySoon();
    // A client that does not read is not waited for.
    setTimeout(() => this.raw.destroy(), 2000).unref();
  }

  private gone(): void {
    this.closed = true;
    this.abort?.();
    this.passive?.close();
    this.passive = undefined;
  }

  private reply(code: number, text: string | string[]): void {
    if (this.closed || this.control.destroyed) return;
    if (typeof text === 'string') return void this.control.write(`${code} ${oneLine(text)}\r\n`);
    const [first = '', ...rest] = text;
    this.control.write(`${code}-${oneLine(first)}\r\n${rest.map((line) => ` ${oneLine(line)}\r\n`).join('')}${code} End\r\n`);
  }

  private readonly onData = (chunk: Buffer): void => {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    let start = 0;
    for (let i = 0; i < this.pending.length; i++) {
      const byte = this.pending[i];
      // A line ends at LF or CR: a client sending ABOR as urgent data loses its last byte (the LF).
      if (byte !== 0x0a && byte !== 0x0d) continue;
      const line = this.pending.subarray(start, i);
      start = i + 1;
      if (line.length) this.take(line);
      if (this.closed) return;
    }
    this.pending = this.pending.subarray(start);
    if (this.pending.length > MAX_LINE) {
      this.o.refused('FTP connection closed: a command line too long');
      this.end(`a command line is at most ${MAX_LINE} bytes`);
    }
  };

  private take(bytes: Buffer): void {
    // Telnet commands (IAC and the byte after it, as IP and Synch before ABOR) are dropped: 0xFF is never in UTF-8.
    const clean: number[] = [];
    for (let i = 0; i < bytes.length; i++)
      if (bytes[i] === 0xff) i++;
      else clean.push(bytes[i]!);
    const line = Buffer.from(clean).toString('utf8');
    if (this.abort && /^abor$/i.test(line.trim())) {
      this.abort();
      this.queue.unshift(line);
      return;
    }
    if (this.queue.length >= MAX_QUEUED) {
      this.o.refused('FTP connection closed: too many commands ahead of their answers');
      return this.end(`at most ${MAX_QUEUED} commands ahead of their answers`);
    }
    this.queue.push(line);
    void this.work();
  }

  private async work(): Promise<void> {
    if (this.working) return;
    this.working = true;
    try {
      while (!this.closed && this.queue.length) {
        const line = this.queue.shift()!;
        const space = line.indexOf(' ');
        const verb = (space < 0 ? line : line.slice(0, space)).toUpperCase();
        const arg = space < 0 ? '' : line.slice(space + 1);
        try {
          await this.command(verb, arg);
        } catch (error) {
          this.o.log.error({ err: error, command: verb }, 'FTP command failed');
          this.reply(451, 'the command failed on the server');
        }
      }
    } finally {
      this.working = false;
    }
  }

  private async command(verb: string, arg: string): Promise<void> {
    switch (verb) {
      case 'AUTH':
        return this.auth(arg);
      case 'PBSZ':
        if (this.control === this.raw) return this.reply(503, 'PBSZ comes after AUTH TLS');
        return this.reply(200, 'PBSZ=0');
      case 'PROT':
        return this.prot(arg);
      case 'USER':
        return this.userCommand(arg);
      case 'PASS':
        return this.pass(arg);
      case 'FEAT':
        return this.reply(211, ['Features:', 'AUTH TLS', 'PBSZ', 'PROT', 'EPSV', 'PASV', 'SIZE', 'MLST type*;size*;modify*;', 'UTF8']);
      case 'SYST':
        return this.reply(215, 'UNIX Type: L8');
      case 'NOOP':
        return this.reply(200, 'OK');
      case 'OPTS':
        return /^utf8 on$/i.test(arg.trim()) ? this.reply(200, 'UTF-8 always') : this.reply(501, 'only OPTS UTF8 ON');
      case 'QUIT':
        this.reply(221, 'goodbye');
        this.closed = true;
        this.control.end();
        return void setTimeout(() => this.raw.destroy(), 2000).unref();
    }
    if (!this.account) return this.reply(530, 'log in first (USER, PASS)');
    switch (verb) {
      case 'PWD':
      case 'XPWD':
        return this.reply(257, `"${pathOf(this.cwd).replace(/"/g, '""')}" is the folder`);
      case 'CWD':
      case 'XCWD':
        return this.cwdCommand(arg);
      case 'CDUP':
      case 'XCUP':
        this.cwd = { at: 'root' };
        return this.reply(250, 'the folder is /');
      case 'TYPE':
        // Every transfer is byte for byte: reports are JSON lines ending in LF, and files are kept as sent.
        return /^(a|a n|i|l 8)$/i.test(arg.trim()) ? this.reply(200, 'type set') : this.reply(504, 'only TYPE A, I or L 8');
      case 'MODE':
        return /^s$/i.test(arg.trim()) ? this.reply(200, 'stream mode') : this.reply(504, 'only MODE S');
      case 'STRU':
        return /^f$/i.test(arg.trim()) ? this.reply(200, 'file structure') : this.reply(504, 'only STRU F');
      case 'PASV':
        return this.pasv(false, arg);
      case 'EPSV':
        return this.pasv(true, arg);
      case 'PORT':
      case 'EPRT':
        // The server connecting where a client says is the FTP bounce attack: passive only.
        this.o.refused('FTP active mode refused');
        return this.reply(502, 'active mode (PORT, EPRT) is not served: use passive mode (EPSV or PASV)');
      case 'LIST':
      case 'NLST':
      case 'MLSD':
        return this.list(verb, arg);
      case 'MLST':
        return this.mlst(arg);
      case 'SIZE':
        return this.size(arg);
      case 'RETR':
        return this.retr(arg);
      case 'STOR':
        return this.stor(arg);
      case 'ABOR':
        return this.reply(226, 'no transfer to abort');
      case 'DELE':
      case 'RMD':
      case 'XRMD':
      case 'MKD':
      case 'XMKD':
      case 'RNFR':
      case 'RNTO':
      case 'APPE':
      case 'STOU':
        return this.reply(550, 'not allowed: upload to in/, read from out/');
      case 'REST':
        return this.reply(502, 'restarts are not served: send the whole file again');
    }
    return this.reply(502, `${verb.slice(0, 16)} is not served`);
  }

  private auth(arg: string): void {
    if (!/^(tls|tls-c|ssl)$/i.test(arg.trim())) return this.reply(504, 'only AUTH TLS');
    if (this.control !== this.raw) return this.reply(503, 'TLS is on already');
    if (this.user || this.account) return this.reply(503, 'AUTH TLS comes before USER');
    // Anything sent after AUTH and before the handshake was sent in clear, where anyone on the way
    // could have put it: dropped unread (the STARTTLS injection).
    this.queue.length = 0;
    this.pending = Buffer.alloc(0);
    this.reply(234, 'AUTH TLS: start the handshake');
    this.raw.removeListener('data', this.onData);
    const secure = new tls.TLSSocket(this.raw, { isServer: true, secureContext: this.o.secureContext });
    secure.on('error', () => this.raw.destroy());
    secure.on('data', this.onData);
    this.control = secure;
  }

  private prot(arg: string): void {
    if (this.control === this.raw) return this.reply(503, 'PROT comes after AUTH TLS');
    const level = arg.trim().toUpperCase();
    if (level === 'P') {
      this.protect = true;
      return this.reply(200, 'data connections use TLS');
    }
    if (level === 'C') {
      if (!this.o.limits.allowPlain) return this.reply(536, 'data connections must use TLS here: PROT P');
      this.protect = false;
      return this.reply(200, 'data connections in clear');
    }
    this.reply(504, 'only PROT P or C');
  }

  private userCommand(arg: string): void {
    if (this.account) return this.reply(503, 'logged in already');
    if (this.control === this.raw && !this.o.limits.allowPlain) {
      this.o.refused('FTP login refused: not over TLS');
      return this.reply(530, 'log in over TLS: send AUTH TLS first (logins in clear are refused)');
    }
    this.user = arg;
    this.reply(331, 'password?');
  }

  private async pass(password: string): Promise<void> {
    if (this.account) return this.reply(503, 'logged in already');
    const name = this.user;
    if (name === undefined) return this.reply(503, 'USER first');
    this.user = undefined;
    let ok: boolean;
    try {
      ok = await this.o.accounts.passwordLogin(name, password, this.address);
    } catch {
      this.o.refused('FTP login refused: too many failed logins');
      return this.reply(530, 'too many failed logins from your address or for this account: try again later');
    }
    if (this.closed) return;
    if (!ok) {
      if (++this.failures >= MAX_FAILED_LOGINS) {
        this.o.refused('FTP connection closed: too many failed logins');
        return this.end(`login incorrect, ${MAX_FAILED_LOGINS} times: goodbye`);
      }
      return this.reply(530, 'login incorrect');
    }
    this.account = name;
    this.o.loggedIn(this);
    this.o.log.info({ remote: this.address, account: name, tls: this.control !== this.raw }, 'FTP login');
    this.reply(230, 'logged in: upload to in/, read reports from out/');
  }

  /** The place a client's path names, relative to the current folder. */
  private resolve(arg: string): Place | undefined {
    return place(arg.startsWith('/') ? arg : `${pathOf(this.cwd)}/${arg}`);
  }

  private cwdCommand(arg: string): void {
    const p = this.resolve(arg);
    if (!p || (p.at !== 'root' && p.name !== undefined)) return this.reply(550, 'no such folder: only /, in/ and out/');
    this.cwd = p;
    this.reply(250, `the folder is ${pathOf(p)}`);
  }

  private async pasv(extended: boolean, arg: string): Promise<void> {
    if (extended && /^all$/i.test(arg.trim())) {
      this.epsvAll = true;
      return this.reply(200, 'EPSV only from now on');
    }
    if (!extended && this.epsvAll) return this.reply(503, 'EPSV ALL was sent: EPSV only');
    const local = plainAddress(this.raw.localAddress);
    if (!extended && !/^\d+\.\d+\.\d+\.\d+$/.test(local)) return this.reply(425, 'PASV speaks IPv4 only: use EPSV');
    this.passive?.close();
    this.passive = await PassiveListener.open({
      host: local,
      ports: this.o.limits.passivePorts,
      client: this.address,
      timeoutMs: this.o.limits.dataTimeoutMs,
      tls: this.protect ? this.o.dataContext : undefined,
      onStranger: () => this.o.refused('FTP data connection refused: not from the control connection’s address'),
    });
    if (this.closed) return this.passive?.close();
    if (!this.passive) return this.reply(425, 'no passive port free: try again later');
    const { port } = this.passive;
    if (extended) return this.reply(229, `Entering Extended Passive Mode (|||${port}|)`);
    this.reply(227, `Entering Passive Mode (${local.replace(/\./g, ',')},${port >> 8},${port & 0xff})`);
  }

  /**
   * Runs a transfer on the passive connection the client opened: 150 once it is there, then
   * `work` once it is usable (TLS under PROT P). Without PROT P, and logins in clear refused, none.
   */
  private async transfer(what: string, work: (data: net.Socket | tls.TLSSocket) => Promise<void>): Promise<void> {
    const passive = this.passive;
    this.passive = undefined;
    if (!passive) return this.reply(425, 'open a data connection first: EPSV or PASV');
    if (!this.protect && !this.o.limits.allowPlain) {
      passive.close();
      return this.reply(521, 'data connections must use TLS here: PBSZ 0, PROT P, then EPSV again');
    }
    // A long transfer leaves the control connection quiet: it is not idle meanwhile.
    this.raw.setTimeout(0);
    try {
      if (!(await passive.connected()))
        return this.reply(425, `no data connection from your address within ${this.o.limits.dataTimeoutMs / 1000} s`);
      this.reply(150, what);
      const data = await passive.secure();
      if (!data) return this.reply(425, 'the data connection closed before it was ready (its TLS handshake failed?)');
      await work(data);
    } finally {
      passive.close();
      if (!this.closed) this.raw.setTimeout(this.o.limits.idleTimeoutMs);
    }
  }

  private async entries(p: Place): Promise<Entry[]> {
    const now = new Date().toISOString();
    if (p.at === 'root')
      return [
        { name: 'in', dir: true, size: 0, modified: now },
        { name: 'out', dir: true, size: 0, modified: now },
      ];
    if (p.at === 'in') return [];
    return (await listReports(this.o.files, this.account!)).map((file) => ({
      name: reportName(file),
      dir: false,
      size: reportSize(file),
      modified: file.processedDate ?? file.receivedDate,
    }));
  }

  private async list(verb: string, arg: string): Promise<void> {
    // Options a client puts first (LIST -a, LIST -la) say nothing here.
    const target = arg.replace(/^(-[A-Za-z]+\s*)+/, '').trim();
    const p = target ? this.resolve(target) : this.cwd;
    if (!p || (p.at !== 'root' && p.name !== undefined)) return this.reply(550, 'no such folder: only /, in/ and out/');
    const entries = await this.entries(p);
    const lines = entries.map((e) =>
      verb === 'NLST'
        ? e.name
        : verb === 'MLSD'
          ? `type=${e.dir ? 'dir' : 'file'};size=${e.size};modify=${factTime(e.modified)}; ${e.name}`
          : listLine(e.name, e.dir, e.size),
    );
    const text = Buffer.from(lines.map((line) => `${line}\r\n`).join(''));
    await this.transfer(`listing ${pathOf(p)}`, (data) => this.send(data, text));
  }

  private async mlst(arg: string): Promise<void> {
    const p = arg.trim() ? this.resolve(arg.trim()) : this.cwd;
    if (!p) return this.reply(550, 'outside your folders: only in/ and out/');
    if (p.at === 'root' || p.name === undefined) return this.reply(250, ['facts', `type=dir; ${pathOf(p)}`]);
    const report = p.at === 'out' ? await readReport(this.o.files, this.account!, p.name) : undefined;
    if (!report) return this.reply(550, 'no such report');
    const modified = factTime(report.file.processedDate ?? report.file.receivedDate);
    this.reply(250, ['facts', `type=file;size=${report.content.length};modify=${modified}; ${pathOf(p)}`]);
  }

  private async size(arg: string): Promise<void> {
    const p = this.resolve(arg);
    const report = p?.at === 'out' && p.name !== undefined ? await readReport(this.o.files, this.account!, p.name) : undefined;
    if (!report) return this.reply(550, 'no such report: only the reports in out/ have a size');
    this.reply(213, String(report.content.length));
  }

  private async retr(arg: string): Promise<void> {
    const p = this.resolve(arg);
    if (!p || p.at !== 'out' || p.name === undefined) return this.reply(550, 'in/ holds nothing to read; reports are in out/');
    const report = await readReport(this.o.files, this.account!, p.name);
    if (!report) return this.reply(550, 'no such report');
    await this.transfer(`sending ${p.name} (${report.content.length} bytes)`, (data) => this.send(data, report.content));
  }

  /**
   * Sends `content` and ends the data connection: 226 once all of it has left, 426 otherwise. The
   * connection then closes when the client closes its side, or at the data time-out.
   */
  private async send(data: net.Socket | tls.TLSSocket, content: Buffer): Promise<void> {
    const sent = await new Promise<boolean>((resolve) => {
      this.abort = () => {
        data.destroy();
        resolve(false);
      };
      data.once('close', () => resolve(false));
      data.end(content, () => resolve(true));
    });
    this.abort = undefined;
    this.reply(sent ? 226 : 426, sent ? 'sent' : 'the transfer was cut short');
  }

  private async stor(arg: string): Promise<void> {
    const p = this.resolve(arg);
    if (!p || p.at !== 'in' || p.name === undefined) return this.reply(553, 'uploads go to in/, as a name without / or control characters');
    const name = p.name;
    // The room the account's quota has left now bounds what the data connection may bring.
    const room = await quotaRoom(this.o.files, this.account!, this.o.quotaBytes);
    if (room <= 0) return this.reply(552, overQuota(this.o.quotaBytes));
    const spoolFile = path.join(this.o.spool, crypto.randomUUID());
    let fd = -1;
    try {
      await this.transfer(`receiving ${name}`, async (data) => {
        fd = fs.openSync(spoolFile, 'w', 0o600);
        const outcome = await this.receive(data, fd, room);
        if (outcome === 'too big')
          return this.reply(552, `a file is at most ${this.o.maxFileBytes / 1024 / 1024} MB: nothing of this one is kept`);
        if (outcome === 'over quota') return this.reply(552, overQuota(this.o.quotaBytes));
        if (outcome === 'aborted') return this.reply(426, 'the transfer was aborted: nothing of the file is kept');
        if (outcome === 'lost')
          return this.reply(426, 'the data connection failed before the file ended: nothing of it is kept; send it again');
        // The file ended (its data connection closed in order); the client must still be there.
        if (this.closed) return;
        const taken = await takeUpload({
          files: this.o.files,
          stores: this.o.stores,
          account: this.account!,
          name,
          spoolFile,
          quotaBytes: this.o.quotaBytes,
          allowed: async () => (await this.o.accounts.active([this.account!])).has(this.account!),
          log: this.o.log,
          door: 'FTP',
        });
        if ('taken' in taken) return this.reply(226, `received ${name}: its report will be in out/ once it is processed`);
        if (taken.refused === 'revoked') return this.reply(550, 'this account was revoked');
        // Other uploads of the account, stored while this one came, may have taken its room.
        if (taken.refused === 'quota') return this.reply(552, overQuota(this.o.quotaBytes));
        this.reply(452, 'the server is busy storing other files: send this one again later');
      });
    } finally {
      if (fd >= 0) fs.closeSync(fd);
      fs.rmSync(spoolFile, { force: true });
    }
  }

  /**
   * Writes what the data connection brings to the spool file, until it ends in order (complete),
   * fails (lost), passes the size cap (too big) or the `room` left in the account's quota (over
   * quota), or is aborted (ABOR, or the control connection lost).
   */
  private receive(data: net.Socket | tls.TLSSocket, fd: number, room: number): Promise<Transfer> {
    let size = 0;
    let ended = false;
    return new Promise<Transfer>((resolve) => {
      let settled = false;
      const settle = (outcome: Transfer) => {
        if (settled) return;
        settled = true;
        this.abort = undefined;
        if (outcome !== 'complete') data.destroy();
        resolve(outcome);
      };
      this.abort = () => settle('aborted');
      data.on('data', (chunk: Buffer) => {
        if (settled) return;
        if (size + chunk.length > this.o.maxFileBytes) return settle('too big');
        if (size + chunk.length > room) return settle('over quota');
        fs.writeSync(fd, chunk);
        size += chunk.length;
      });
      data.once('end', () => (ended = true));
      data.once('error', () => settle('lost'));
      data.once('close', () => settle(ended ? 'complete' : 'lost'));
    });
  }
}
