// Clients nobody wrote for Carrel against its FTP door: Python's standard ftplib, run as a child
// process with a small script, and the npm basic-ftp client in this process.
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { Client } from 'basic-ftp';
import { pino } from 'pino';
import type { FtpLimits } from '../../src/config.ts';
import { openFtpDoor, type FtpDoor } from '../../src/ftp/index.ts';
import type { TestApp } from './app.ts';
import { runPython, type PyRun } from './python.ts';

/**
 * What every script starts with: `A`, the arguments (host, port, user, password, tls, cwd), and
 * `connect()`, a logged in ftplib client (FTP_TLS with PROT P when A['tls']), the certificate not
 * checked (the door's own, self-signed).
 */
const PREAMBLE = `
import ftplib, json, os, socket, ssl, struct, sys
A = json.loads(sys.argv[1])
os.chdir(A['cwd'])
def connect(tls=None, login=True, prot=True):
    tls = A['tls'] if tls is None else tls
    if tls:
        ctx = ssl.create_default_context()
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        f = ftplib.FTP_TLS(context=ctx, timeout=20)
    else:
        f = ftplib.FTP(timeout=20)
    f.connect(A['host'], A['port'])
    if login:
        f.login(A['user'], A['password'])
        if tls and prot:
            f.prot_p()
    return f
def out(**kw):
    print(json.dumps(kw), flush=True)
`;

export type { PyRun } from './python.ts';

/** Runs `body` (Python, after PREAMBLE) against the door; never throws on the script's failure. */
export function ftplib(
  port: number,
  login: { name: string; password: string },
  o: { tls: boolean; cwd: string },
  body: string,
): Promise<PyRun> {
  const args = JSON.stringify({ host: '127.0.0.1', port, user: login.name, password: login.password, tls: o.tls, cwd: o.cwd });
  return runPython('python3', `${PREAMBLE}\n${body}`, args, 60_000);
}

/**
 * Starts `body` as ftplib() does, for a test that acts while it runs: `next()` is the next JSON
 * line it prints (undefined once it has ended), `done` its exit code and standard error.
 */
export function ftplibLive(
  port: number,
  login: { name: string; password: string },
  o: { tls: boolean; cwd: string },
  body: string,
): { next: () => Promise<Record<string, unknown> | undefined>; done: Promise<{ code: number | null; stderr: string }> } {
  const args = JSON.stringify({ host: '127.0.0.1', port, user: login.name, password: login.password, tls: o.tls, cwd: o.cwd });
  const child = spawn('python3', ['-c', `${PREAMBLE}\n${body}`, args], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stderr })));
  return {
    next: async () => {
      for (let r = await lines.next(); !r.done; r = await lines.next())
        if (r.value.startsWith('{')) return JSON.parse(r.value) as Record<string, unknown>;
      return undefined;
    },
    done,
  };
}

/** A basic-ftp client logged in to the door, over FTPS (its certificate not checked) or plain. */
export async function basicFtp(port: number, login: { name: string; password: string }, secure: boolean): Promise<Client> {
  const client = new Client(20_000);
  await client.access({
    host: '127.0.0.1',
    port,
    user: login.name,
    password: login.password,
    secure,
    secureOptions: { rejectUnauthorized: false },
  });
  return client;
}

/** The FTP door of a test app on a free port of 127.0.0.1, logging nothing. */
export function openTestFtpDoor(
  t: TestApp,
  limits: Partial<FtpLimits>,
  caps: { maxFileBytes?: number; quotaBytes?: number } = {},
): Promise<FtpDoor> {
  return openFtpDoor({
    accounts: t.services.sftpAccounts,
    files: t.services.files,
    host: '127.0.0.1',
    port: 0,
    log: pino({ level: 'silent' }),
    limits: { passivePorts: { min: 40_000, max: 49_999 }, ...limits },
    ...caps,
  });
}
