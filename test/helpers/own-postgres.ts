// A PostgreSQL server of a test's own, in a temporary directory, that the test may stop and start:
// the outage a shared server cannot be put through. Needs PostgreSQL's server programs (the
// Debian package `postgresql`); as root they run as the `postgres` user, since initdb refuses root.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './tcp.ts';

const run = promisify(execFile);

/** The directory of initdb and pg_ctl: PG_BIN, or the newest /usr/lib/postgresql/N/bin. */
export function postgresBin(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] && path.join(root, versions[0], 'bin');
}

export interface OwnPostgres {
  /** postgres:// URL of its `postgres` database. */
  url: string;
  /**
   * A streaming replica of this server (pg_basebackup -R) on a port of its own, started; its
   * remove() stops it and deletes its files.
   */
  startReplica(): Promise<OwnPostgres>;
  start(): Promise<void>;
  /** Stops it as an operator would (`pg_ctl stop -m fast`): sessions are ended, new ones refused. */
  stop(): Promise<void>;
  remove(): Promise<void>;
  /** Its processes now: the postmaster and its children (for reading their CPU time from /proc). */
  processes(): number[];
}

/** The processes whose parent is `parent` (from /proc). */
function childrenOf(parent: number): number[] {
  return fs.readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

async function programs() {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL server programs not found: install the postgresql package or set PG_BIN');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) fs.chownSync(dir, Number((await run('id', ['-u', 'postgres'])).stdout), Number((await run('id', ['-g', 'postgres'])).stdout));
  const pg = (program: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, program), ...args]) : run(path.join(bin, program), args);
  return { dir, pg };
}

type Pg = Awaited<ReturnType<typeof programs>>['pg'];

/** Starts the server whose data directory `make` fills, and answers it. */
async function serve(make: (data: string, pg: Pg) => Promise<unknown>, extra: Record<string, string>): Promise<OwnPostgres> {
  const { dir, pg } = await programs();
  const data = path.join(dir, 'data');
  await make(data, pg);
  const port = await freePort();
  const more = Object.entries(extra).map(([name, value]) => ` -c ${name}=${value}`);
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off${more.join('')}`;
  const start = async () => {
    await pg('pg_ctl', ['-D', data, '-o', settings, '-l', path.join(dir, 'log'), '-w', 'start']);
  };
  const stop = async () => {
    await pg('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    startReplica: () =>
      serve(async (replicaData, replicaPg) => {
        await replicaPg('pg_basebackup', [
          '-D',
          replicaData,
          '-R',
          '-X',
          'stream',
          '--no-sync',
          '-h',
          '127.0.0.1',
          '-p',
          String(port),
          '-U',
          'postgres',
        ]);
      }, extra),
    processes() {
      const postmaster = Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      return [postmaster, ...childrenOf(postmaster)];
    },
    async remove() {
      await pg('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** settings: more server settings (`-c name=value`), its replicas' too. */
export function startOwnPostgres(settings: Record<string, string> = {}): Promise<OwnPostgres> {
  return serve(
    (data, pg) => pg('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']),
    settings,
  );
}
