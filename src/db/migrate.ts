// Forward-only numbered SQL migrations (src/db/migrations/NNNN_name.sql), each applied in its own
// transaction. A transaction-scoped advisory lock makes processes that start together take turns:
// the second one finds the migration recorded and skips it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCK_KEYS } from './lock-keys.ts';
import type { Db, Queryable } from './types.ts';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      sql: fs.readFileSync(path.join(dir, file), 'utf8'),
    }));
}

/** A database another (newer) Carrel has migrated further than this code knows: refuse to touch it. */
export class DatabaseTooNewError extends Error {
  constructor(
    readonly found: number,
    readonly known: number,
  ) {
    super(
      `the database is at migration ${found}, newer than this Carrel knows (${known}): run the Carrel that migrated it, or a newer one`,
    );
  }
}

/** A database not yet migrated as far as this code needs. */
export class DatabaseTooOldError extends Error {
  constructor(
    readonly found: number,
    readonly known: number,
  ) {
    super(`the database is at migration ${found} and this Carrel needs ${known}: run \`carrel migrate\` (or start the server) first`);
  }
}

/** The highest migration applied (0 for a new database); reads only. */
export async function schemaVersion(db: Queryable): Promise<number> {
  const table = await db.query<{ present: boolean }>("select to_regclass('carrel_migrations') is not null as present");
  if (!table[0]?.present) return 0;
  const rows = await db.query<{ version: number | null }>('select max(version) as version from carrel_migrations');
  return rows[0]?.version ?? 0;
}

/** Refuses a database newer than this code (DatabaseTooNewError) and, unless `older` is allowed, one it must migrate first. */
export async function checkSchema(db: Queryable, { older }: { older: boolean }, migrations = listMigrations()): Promise<number> {
  const known = migrations.at(-1)?.version ?? 0;
  const found = await schemaVersion(db);
  if (found > known) throw new DatabaseTooNewError(found, known);
  if (found < known && !older) throw new DatabaseTooOldError(found, known);
  return found;
}

/** Applies what is missing; answers the migrations this call applied. Refuses a database newer than the code. */
export async function migrate(db: Db, migrations = listMigrations()): Promise<Migration[]> {
  await checkSchema(db, { older: true }, migrations);
  const applied: Migration[] = [];
  for (const migration of migrations) {
    const ran = await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [LOCK_KEYS.migrations]);
      await tx.exec(`create table if not exists carrel_migrations (
        version integer primary key, name text not null, applied_date timestamptz not null default now())`);
      const done = await tx.query('select 1 from carrel_migrations where version = $1', [migration.version]);
      if (done.length > 0) return false;
      await tx.exec(migration.sql);
      await tx.query('insert into carrel_migrations (version, name) values ($1, $2)', [migration.version, migration.name]);
      return true;
    });
    if (ran) applied.push(migration);
  }
  return applied;
}
