// Forward-only numbered SQL migrations (src/db/migrations/NNNN_name.sql), each applied in its own
// transaction. A transaction-scoped advisory lock makes processes that start together take turns:
// the second one finds the migration recorded and skips it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCK_KEYS } from './lock-keys.ts';
import type { Db } from './types.ts';

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

/** Applies what is missing; answers the migrations this call applied. */
export async function migrate(db: Db, migrations = listMigrations()): Promise<Migration[]> {
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
