// The SFTP door (CARREL_SFTP_PORT): SSH with SFTP only. An account logs in with its password or its
// public key and sees a root holding in/ and out/ (src/files/paths.ts). A file written to in/ is
// taken when the client closes it: kept, recognised and processed once (src/files); a connection
// lost before the close keeps nothing. out/ holds a report per file the account sent that has
// been processed, NAME.ID.report.json, and, for an account tied to a vendor that collects its
// orders, the ORDERS interchanges waiting for it (ordNNN.CEP), each until it has been read whole.
//
// What a connection is allowed (README, "SFTP door and files"): connections are capped per client
// address and in all; a client logs in within loginTimeoutMs of connecting and is closed when idle
// past idleTimeoutMs; failed logins (a wrong password, a public key's signature that fails) are
// limited per address and account (src/auth/logins.ts);
// an upload is at most maxFileBytes (past it the write fails and nothing of it is kept); a session
// has at most MAX_HANDLES files and directories open. A revoked account's sessions end within
// REVOKED_CHECK_MS.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import ssh2 from 'ssh2';
import { SFTP_LIMITS, type SftpLimits } from '../config.ts';
import { StoreQueue, type FileService } from '../files/index.ts';
import { ConnectionGate, RefusalLog } from '../shared/connection-gate.ts';
import type { SftpAccountService } from './accounts.ts';
import { AccountHandles } from './account-handles.ts';
import { watchRevoked } from './revoked-watch.ts';
import { SftpSession, type OrderPickup } from './session.ts';
import { listen } from '../shared/listen.ts';

export interface SftpDoor {
  port: number;
  close(): Promise<void>;
}

/**
 * Login attempts a connection may make (any method, a public key's query included), as OpenSSH's
 * MaxAuthTries: past them it is closed, so that trying keys or passwords costs a new connection.
 */
const MAX_AUTH_ATTEMPTS = 6;

export async function openSftpDoor(o: {
  accounts: SftpAccountService;
  files: FileService;
  /** The orders vendors collect from out/; none: out/ holds reports only. */
  orders?: OrderPickup;
  host: string;
  port: number;
  log: FastifyBaseLogger;
  limits?: Partial<SftpLimits>;
}): Promise<SftpDoor> {
  const limits = { ...SFTP_LIMITS, ...o.limits };
  const refusals = new RefusalLog(o.log);
  // Uploads in progress are written here, one file each, until they are closed and taken.
  const spool = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-sftp-'));
  const stores = new StoreQueue();
  const accountHandles = new AccountHandles();
  const sessions = new Map<ssh2.Connection, string>();
  /** Connections not yet logged in, by client address and port, with the timer that closes them. */
  const waiting = new Map<string, { socket: net.Socket; timer: NodeJS.Timeout }>();
  // Key exchange on elliptic curves only: the finite-field Diffie-Hellman groups cost the server
  // far more work per connection, for a client that has not logged in. OpenSSH since 6.5 offers these.
  const kex: ssh2.KexAlgorithm[] = ['curve25519-sha256', 'curve25519-sha256@libssh.org', 'ecdh-sha2-nistp256'];
  const ssh = new ssh2.Server({ hostKeys: [await o.accounts.hostKey()], algorithms: { kex } }, (client, info) => {
    const address = info.ip;
    const arrival = `${info.ip}|${info.port}`;
    let account: string | undefined;
    client.on('error', () => undefined);
    client.on('close', () => sessions.delete(client));
    let attempts = 0;
    client.on('authentication', (ctx) => {
      const methods: ('password' | 'publickey')[] = ['password', 'publickey'];
      if (++attempts > MAX_AUTH_ATTEMPTS) {
        refusals.note('SFTP connection closed: too many login attempts', { remote: address });
        ctx.reject();
        return void client.end();
      }
      const decide = async (): Promise<boolean> => {
        if (ctx.method === 'password') return o.accounts.passwordLogin(ctx.username, ctx.password, address);
        if (ctx.method !== 'publickey') return false;
        const key = { algo: ctx.key.algo, data: ctx.key.data };
        // Without a signature the client only asks whether the key would do.
        if (!ctx.signature || !ctx.blob) return o.accounts.publicKeyWouldDo(ctx.username, key, address);
        return o.accounts.publicKeyLogin(
          ctx.username,
          { ...key, blob: ctx.blob, signature: ctx.signature, hashAlgo: ctx.hashAlgo },
          address,
        );
      };
      decide().then(
        (ok) => {
          if (!ok) return ctx.reject(methods);
          if (ctx.method === 'publickey' && !ctx.signature) return ctx.accept();
          account = ctx.username;
          ctx.accept();
        },
        (error: unknown) => {
          // Over a limit of failed logins (or the bound on scrypt work is full): refused, unchecked.
          refusals.note('SFTP login refused', { remote: address, reason: error instanceof Error ? error.message : String(error) });
          ctx.reject(methods);
        },
      );
    });
    client.on('ready', () => {
      const arrived = waiting.get(arrival);
      if (arrived) clearTimeout(arrived.timer);
      waiting.delete(arrival);
      const name = account!;
      sessions.set(client, name);
      o.log.info({ remote: address, account: name }, 'SFTP login');
      // One session channel and one SFTP subsystem per connection: more would multiply what a
      // session may hold (its open files, its requests in flight) for nothing a client needs.
      let sessionOpen = false;
      client.on('session', (accept, reject) => {
        if (sessionOpen) return reject();
        sessionOpen = true;
        const session = accept();
        let sftpOpen = false;
        // SFTP only: no shell, no commands, no forwarding.
        session.on('exec', (_accept, reject) => reject());
        session.on('shell', (_accept, reject) => reject());
        session.on('pty', (_accept, reject) => reject?.());
        session.on('sftp', (acceptSftp, rejectSftp) => {
          if (sftpOpen) return rejectSftp();
          sftpOpen = true;
          new SftpSession(acceptSftp(), {
            account: name,
            files: o.files,
            accounts: o.accounts,
            orders: o.orders,
            spool,
            maxFileBytes: limits.maxFileBytes,
            quotaBytes: limits.quotaBytes,
            stores,
            accountHandles,
            log: o.log.child({ sftpAccount: name, remote: address }),
          }).start();
        });
      });
    });
  });
  ssh.on('error', (error: Error) => o.log.warn({ err: error }, 'SFTP door error'));

  const gate = new ConnectionGate(limits, (socket, why, address) => {
    refusals.note(`SFTP connection refused: ${why}`, { remote: address });
    socket.destroy();
  });
  // Connections not logged in yet are half the connections at most, so that clients that only
  // connect cannot keep out those that log in.
  const maxWaiting = Math.max(1, Math.floor(limits.maxConnections / 2));
  const server = net.createServer((socket) => {
    if (waiting.size >= maxWaiting) {
      refusals.note('SFTP connection refused: too many connections not logged in', { remote: socket.remoteAddress });
      return void socket.destroy();
    }
    const arrival = `${socket.remoteAddress}|${socket.remotePort}`;
    const timer = setTimeout(() => {
      refusals.note('SFTP connection closed: no login within CARREL_SFTP_LOGIN_TIMEOUT_MS', { remote: socket.remoteAddress });
      socket.destroy();
    }, limits.loginTimeoutMs);
    waiting.set(arrival, { socket, timer });
    socket.once('close', () => {
      clearTimeout(timer);
      if (waiting.get(arrival)?.socket === socket) waiting.delete(arrival);
    });
    socket.setTimeout(limits.idleTimeoutMs, () => {
      refusals.note('SFTP connection closed: idle past CARREL_SFTP_IDLE_TIMEOUT_MS', { remote: socket.remoteAddress });
      socket.destroy();
    });
    ssh.injectSocket(socket);
  });
  gate.guard(server);
  const port = await listen(server, o.port, o.host);
  server.on('error', (error) => o.log.warn({ err: error }, 'SFTP door error'));

  const stopRevokedCheck = watchRevoked(o.accounts, sessions, (client, name) => {
    o.log.info({ account: name }, 'SFTP session ended: its account was revoked');
    client.end();
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
