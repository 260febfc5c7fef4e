// The FTP door (CARREL_FTP_PORT): plain FTP with explicit TLS (FTPS, AUTH TLS), for vendors whose
// systems speak FTP but not SFTP. Same accounts (`carrel sftp accounts`), same folders and the
// same hand-off as the SFTP door: a root holding in/ and out/ (src/files/paths.ts); a file sent to
// in/ is taken once its data connection ends in order, then processed once (src/files); an
// upload aborted, cut off, or past the size cap keeps nothing.
//
// A small server of our own on node:net and node:tls rather than a library: the one maintained
// FTP server package (ftp-srv 4.6.3, ~37k downloads a month, last released December 2024) serves a real
// file system, knows no cap on an upload's size, and brings bunyan, moment, lodash, bluebird,
// yargs and `ip` (whose isPublic check has an unfixed advisory, CVE-2024-29415) for what is here
// a few hundred lines: the commands a vendor's client uses, each written to Carrel's limits.
//
// What a connection is allowed (README, "SFTP door and files"): logins in clear are refused
// unless CARREL_FTP_ALLOW_PLAIN (USER before AUTH TLS, data connections without PROT P); passive
// data connections only, on a bounded range of ports, and only from the control connection's
// address (PORT and EPRT, the bounce attack's way in, are refused); connections capped per address
// and in all, at most half of them not logged in; a login within loginTimeoutMs, a control
// connection idle past idleTimeoutMs closed, a data connection past dataTimeoutMs; failed logins
// limited per address and account with the SFTP door's limiter; an upload at most
// CARREL_SFTP_MAX_FILE_MB, and only while the account's files hold less than its quota
// (CARREL_SFTP_QUOTA_MB, one quota whichever door a file came through). A revoked account's sessions end within REVOKED_CHECK_MS.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import type { FastifyBaseLogger } from 'fastify';
import { FTP_LIMITS, SFTP_LIMITS, type FtpLimits } from '../config.ts';
import { StoreQueue, type FileService } from '../files/index.ts';
import { ConnectionGate, RefusalLog } from '../shared/connection-gate.ts';
import { watchRevoked, type SftpAccountService } from '../sftp/index.ts';
import { FtpSession } from './session.ts';
import { listen } from '../shared/listen.ts';

export interface FtpDoor {
  port: number;
  close(): Promise<void>;
}

export async function openFtpDoor(o: {
  accounts: SftpAccountService;
  files: FileService;
  host: string;
  port: number;
  log: FastifyBaseLogger;
  limits?: Partial<FtpLimits>;
  /** The SFTP door's cap, shared: a file is stored the same way whichever door it came by. */
  maxFileBytes?: number;
  /** The SFTP door's quota per account, shared: an account's files count against it whichever door they came by. */
  quotaBytes?: number;
  /** A certificate and key (PEM) the library gives; without them, the one made once and kept in the database. */
  tls?: { cert: string | Buffer; key: string | Buffer };
}): Promise<FtpDoor> {
  const limits = { ...FTP_LIMITS, ...o.limits };
  const refusals = new RefusalLog(o.log);
  const pair = o.tls ?? (await o.accounts.ftpsCertificate());
  const secureContext = tls.createSecureContext({ ...pair, minVersion: 'TLSv1.2' });
  // Data connections at TLS 1.2: a TLS 1.3 server sends its session tickets after the handshake,
  // and a client whose OpenSSL reads one with the end of a short transfer cannot shut TLS down
  // (Python's ftplib fails "shutdown while in init", bpo-34391); 1.2 sends them within it.
  const dataContext = tls.createSecureContext({ ...pair, minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' });
  // Uploads in progress are written here, one file each, until they end and are taken.
  const spool = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-ftp-'));
  const stores = new StoreQueue();
  const sessions = new Map<FtpSession, string>();
  let waiting = 0;
  const maxWaiting = Math.max(1, Math.floor(limits.maxConnections / 2));

  const gate = new ConnectionGate(limits, (socket, why, address) => {
    refusals.note(`FTP connection refused: ${why}`, { remote: address });
    socket.end(`421 ${why === 'too many' ? 'too many connections' : 'too many connections from your address'}\r\n`);
    setTimeout(() => socket.destroy(), 1000).unref();
  });
  const server = net.createServer((socket) => {
    if (waiting >= maxWaiting) {
      refusals.note('FTP connection refused: too many connections not logged in', { remote: socket.remoteAddress });
      return void socket.destroy();
    }
    waiting++;
    let counted = true;
    const loggedIn = () => {
      if (counted) waiting--;
      counted = false;
      clearTimeout(loginTimer);
    };
    const session = new FtpSession(socket, {
      accounts: o.accounts,
      files: o.files,
      stores,
      spool,
      maxFileBytes: o.maxFileBytes ?? SFTP_LIMITS.maxFileBytes,
      quotaBytes: o.quotaBytes ?? SFTP_LIMITS.quotaBytes,
      limits,
      secureContext,
      dataContext,
      log: o.log,
      refused: (message) => refusals.note(message, { remote: socket.remoteAddress }),
      loggedIn: (s) => {
        loggedIn();
        sessions.set(s, s.account!);
      },
    });
    const loginTimer = setTimeout(() => {
      refusals.note('FTP connection closed: no login within CARREL_FTP_LOGIN_TIMEOUT_MS', { remote: socket.remoteAddress });
      session.end('no login in time: goodbye');
    }, limits.loginTimeoutMs);
    socket.once('close', () => {
      loggedIn();
      sessions.delete(session);
    });
    socket.setTimeout(limits.idleTimeoutMs, () => {
      refusals.note('FTP connection closed: idle past CARREL_FTP_IDLE_TIMEOUT_MS', { remote: socket.remoteAddress });
      session.end('idle too long: goodbye');
    });
    session.start();
  });
  gate.guard(server);
  const port = await listen(server, o.port, o.host);
  server.on('error', (error) => o.log.warn({ err: error }, 'FTP door error'));

  const stopRevokedCheck = watchRevoked(o.accounts, sessions, (session, name) => {
    o.log.info({ account: name }, 'FTP session ended: its account was revoked');
    sessions.delete(session);
    session.end('this account was revoked');
  });

  return {
    port,
    async close() {
      stopRevokedCheck();
      gate.destroyAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(spool, { recursive: true, force: true });
    },
  };
}
