// Chooses the storage engine from config: PostgreSQL when DATABASE_URL is set, else embedded PGlite.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { Config } from '../config.ts';
import { acquireLock, DataDirBusyError, readLock } from './embedded-lock.ts';
import { sharePGlite } from './embedded-share.ts';
import { openPostgres } from './postgres.ts';
import { ReplicaSet, type ReplicaState } from './replicas.ts';
import type { Db } from './types.ts';

function socketPathFor(dataDir: string): string {
  const inDir = path.join(dataDir, '.s.carrel');
  // Unix socket paths are limited to about 100 bytes; a deep data directory gets one in the temp dir.
  if (Buffer.byteLength(inDir) < 100) return inDir;
  const hash = crypto.createHash('sha256').update(dataDir).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `carrel-${hash}.sock`);
}

// The embedded engine's modules are loaded only when it is used: they cost tens of MB of memory
// that a PostgreSQL deployment should not pay.
const loadPGlite = () => import('./pglite.ts');
const loadPGliteThread = () => import('./pglite-thread.ts');

// SQL logins' temporary tables live in the server's one session too (src/sql/wire): they come after
// Carrel's own tables on its search path, so one named like a table of Carrel's is never Carrel's.
const SESSION_SETUP = ['set search_path = public, pg_temp'];

/** A day: in effect, no bound. */
const COMMAND_POOL_WAIT_SEC = 86_400;

function postgresOptions(config: Config) {
  return { max: config.dbPoolMax, planOnceMax: config.dbSearchPoolMax, connectTimeoutSec: config.dbConnectTimeoutSec };
}

/**
 * The server's database. On the embedded engine the server owns the data directory and shares it
 * through a Unix socket, so `carrel` commands work while it runs; the two take turns, a command's
 * transaction at a time.
 */
export async function openServerDb(config: Config): Promise<Db> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, postgresOptions(config));
  const socketPath = socketPathFor(config.dataDir);
  const release = acquireLock(config.dataDir, socketPath);
  try {
    const [{ withEngine }, { PGliteThread }, { PGLiteSocketServer }] = await Promise.all([
      loadPGlite(),
      loadPGliteThread(),
      import('@electric-sql/pglite-socket'),
    ]);
    const engine = new PGliteThread(path.join(config.dataDir, 'pglite'), SESSION_SETUP);
    const db = await withEngine(engine);
    fs.rmSync(socketPath, { force: true });
    // One PGlite session serves both sides: each takes turns through the gate (embedded-share.ts).
    const shared = sharePGlite(db.pglite);
    // pglite-socket uses only the part of PGlite the thread's object has (embedded-share.ts).
    const socket = new PGLiteSocketServer({ db: shared.forSocket as unknown as PGlite, path: socketPath, maxConnections: 8 });
    await socket.start();
    return {
      ...db,
      query: (text, params) => shared.exclusive(() => db.query(text, params)),
      queryTable: (text, params) => shared.exclusive(() => db.queryTable(text, params)),
      exec: (text) => shared.exclusive(() => db.exec(text)),
      copyFrom: (table, columns, text) => shared.exclusive(() => db.copyFrom!(table, columns, text)),
      transaction: (fn) => shared.exclusive(() => db.transaction(fn)),
      rawSession: {
        turn: (fn) => shared.exclusive(() => db.pglite.runExclusive(() => fn((message) => db.pglite.execProtocolRaw(message)))),
        // The engine cannot cancel a statement: its thread is ended and the engine started again.
        cancel: () => engine.restart('it ran past its time-out'),
        generation: () => engine.generation,
      },
      interrupt: (why) => engine.restart(why),
      async close() {
        await socket.stop();
        await db.close();
        fs.rmSync(socketPath, { force: true });
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** A replica's connections wait at most this long: a read that cannot have one goes to the primary. */
const REPLICA_CONNECT_TIMEOUT_SEC = 1;

/** The server's read replicas (DATABASE_READ_URLS), checked once and then four times a second; undefined when there are none. */
export async function openReadReplicas(
  config: Config,
  primary: Db,
  onChange?: (state: ReplicaState) => void,
): Promise<ReplicaSet | undefined> {
  if (config.databaseReadUrls.length === 0) return undefined;
  const options = { ...postgresOptions(config), connectTimeoutSec: REPLICA_CONNECT_TIMEOUT_SEC };
  const replicas = config.databaseReadUrls.map((url) => ({ url, db: openPostgres(url, options) }));
  const set = new ReplicaSet(primary, replicas, { maxLagMs: config.replicaMaxLagMs, ...(onChange && { onChange }) });
  await set.start();
  return set;
}

/**
 * A command-line tool's database: PostgreSQL, the running server's embedded database through its
 * socket, or the embedded data directory opened directly when no server holds it.
 */
export async function openClientDb(config: Config): Promise<Db> {
  // Five: an import writes two batches side by side while it plans the next with two queries side
  // by side, and holds its turn (an advisory lock) on a session of its own.
  // A command's statements wait their turn on its few connections for as long as it takes (a
  // server's requests may not: CARREL_DB_CONNECT_TIMEOUT).
  const poolWaitSec = COMMAND_POOL_WAIT_SEC;
  if (config.databaseUrl) return openPostgres(config.databaseUrl, { ...postgresOptions(config), max: 5, poolWaitSec });
  const owner = readLock(config.dataDir);
  if (owner?.socket) return openPostgres({ socketPath: owner.socket }, { max: 1, connectTimeoutSec: 10, poolWaitSec });
  if (owner) throw new DataDirBusyError(config.dataDir, owner);
  const release = acquireLock(config.dataDir);
  try {
    const { openPGlite } = await loadPGlite();
    const db = await openPGlite({ dataDir: path.join(config.dataDir, 'pglite') });
    return {
      ...db,
      async close() {
        await db.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}
