// A real, migrated, private database per test file. PostgreSQL when TEST_DATABASE_URL or
// DATABASE_URL is set (each file gets a database copied from a migrated template), else PGlite
// (each file loads a migrated template dump, built once and cached under node_modules/.cache).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import postgres from 'postgres';
import { LOCK_KEYS } from '../../src/db/lock-keys.ts';
import { listMigrations, migrate } from '../../src/db/migrate.ts';
import { openPGlite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import type { Db } from '../../src/db/types.ts';

export const PG_URL = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;
export const ENGINE: 'postgres' | 'pglite' = PG_URL ? 'postgres' : 'pglite';

const schemaHash = crypto
  .createHash('sha256')
  .update(
    listMigrations()
      .map((m) => `${m.version}:${m.sql}`)
      .join('\n'),
  )
  .digest('hex')
  .slice(0, 12);

export interface TestDb {
  db: Db;
  /** postgres:// URL of this file's own database (PostgreSQL only). */
  url?: string;
  /** Closes the connection and removes the database. */
  drop(): Promise<void>;
}

/** The server URL with another database name (and optionally another user). */
export function withDatabase(url: string, database: string, user?: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  if (user !== undefined) {
    u.username = user;
    u.password = '';
  }
  return u.toString();
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
}

/** A connection to the server's maintenance database for CREATE/DROP DATABASE and roles. */
export function adminSql(): postgres.Sql {
  if (!PG_URL) throw new Error('adminSql needs TEST_DATABASE_URL or DATABASE_URL');
  return postgres(PG_URL, { max: 1, onnotice: () => {} });
}

async function dropDatabase(name: string): Promise<void> {
  const sql = adminSql();
  try {
    await sql.unsafe(`drop database if exists ${name} with (force)`);
    // The role its SQL readers act as (src/sql/roles-repository.ts) belongs to the server: gone with it.
    const reader = `carrel_reader_${crypto.createHash('md5').update(name).digest('hex').slice(0, 12)}`;
    await sql.unsafe(`drop role if exists ${reader}`);
  } finally {
    await sql.end();
  }
}

/** An empty database (no migrations), for tests of migration and start-up. */
export async function createEmptyPgDatabase(): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const admin = adminSql();
  const name = uniqueName('carrel_empty');
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: withDatabase(PG_URL!, name),
    drop: () => dropDatabase(name),
  };
}

async function pgTestDb(): Promise<TestDb> {
  const admin = adminSql();
  const name = uniqueName('carrel_test');
  try {
    const template = `carrel_tpl_${schemaHash}`;
    await admin`select pg_advisory_lock(${LOCK_KEYS.testTemplate})`;
    try {
      const found = await admin`select 1 from pg_database where datname = ${template}`;
      if (found.length === 0) {
        const building = `${template}_build_${process.pid}`;
        await admin.unsafe(`create database ${building}`);
        const db = openPostgres(withDatabase(PG_URL!, building), { max: 1, connectTimeoutSec: 10 });
        try {
          await migrate(db);
        } finally {
          await db.close();
        }
        await admin.unsafe(`alter database ${building} rename to ${template}`);
      }
    } finally {
      await admin`select pg_advisory_unlock(${LOCK_KEYS.testTemplate})`;
    }
    await admin.unsafe(`create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(PG_URL!, name);
  // Tests race hundreds of requests on these five connections, on a machine running other test
  // files at once: they may wait their turn longer than a server would let a request wait.
  const db = openPostgres(url, { max: 5, connectTimeoutSec: 10, poolWaitSec: 120 });
  return {
    db,
    url,
    async drop() {
      await db.close();
      await dropDatabase(name);
    },
  };
}

const CACHE_DIR = path.resolve('node_modules/.cache/carrel-test');

/** A migrated PGlite dump, built on first use: initdb in WebAssembly takes seconds, loading a dump one. */
async function pgliteTemplate(): Promise<Blob> {
  const file = path.join(CACHE_DIR, `pglite-${schemaHash}.tar.gz`);
  if (!fs.existsSync(file)) {
    const db = await openPGlite({});
    try {
      await migrate(db);
      const dump = await db.pglite.dumpDataDir('gzip');
      fs.mkdirSync(CACHE_DIR, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
      fs.renameSync(tmp, file); // atomic: files racing to build it each write a whole one
    } finally {
      await db.close();
    }
  }
  return new Blob([fs.readFileSync(file)]);
}

export async function createTestDb(): Promise<TestDb> {
  if (PG_URL) return pgTestDb();
  const db = await openPGlite({ loadFrom: await pgliteTemplate() });
  return { db, drop: () => db.close() };
}

/** A data directory for a Carrel server process on the embedded engine, seeded from the template. */
export async function seedPgliteDataDir(dataDir: string): Promise<void> {
  const db = await openPGlite({ dataDir: path.join(dataDir, 'pglite'), loadFrom: await pgliteTemplate() });
  await db.close();
}

/**
 * Database settings for a child process (server or CLI) on the engine under test: a fresh
 * migrated PostgreSQL database, or a seeded embedded data directory. remove() deletes it.
 */
export async function childDatabase(): Promise<{ env: Record<string, string>; remove(): Promise<void> }> {
  if (PG_URL) {
    const testDb = await createTestDb();
    return { env: { DATABASE_URL: testDb.url! }, remove: () => testDb.drop() };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-child-'));
  await seedPgliteDataDir(dataDir);
  return { env: { CARREL_DATA_DIR: dataDir }, remove: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}

/**
 * For a describe block that runs commands: a child database (childDatabase) and a scratch folder,
 * made before its tests and removed after. Read `env` and `dir` inside tests, not at definition.
 */
export function commandWorkspace(prefix: string): {
  readonly env: Record<string, string>;
  readonly dir: string;
  file(name: string, text: string): string;
} {
  let database: Awaited<ReturnType<typeof childDatabase>> | undefined;
  let dir = '';
  before(async () => {
    database = await childDatabase();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `carrel-${prefix}-`));
  });
  after(async () => {
    await database?.remove();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    get env() {
      if (!database) throw new Error('commandWorkspace: read env inside a test');
      return database.env;
    },
    get dir() {
      return dir;
    },
    file(name, text) {
      const p = path.join(dir, name);
      fs.writeFileSync(p, text);
      return p;
    },
  };
}
