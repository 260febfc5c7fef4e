// Migrations: applied once, in order, each in a transaction; safe when processes start together.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { LOCK_KEYS } from '../../src/db/lock-keys.ts';
import { listMigrations, migrate } from '../../src/db/migrate.ts';
import { openPGlite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { createEmptyPgDatabase, ENGINE, PG_URL } from '../helpers/db.ts';

describe('migrations', () => {
  it('are numbered, named, and in ascending order without repeats', () => {
    // Numbers may be reserved for work on other branches (0004 and 0005 are), so gaps are allowed.
    const versions = listMigrations().map((m) => m.version);
    assert.ok(versions.length > 0);
    assert.equal(versions[0], 1);
    assert.deepEqual(
      versions,
      [...new Set(versions)].sort((a, b) => a - b),
    );
  });

  it('take the change clock with the keys src/db/lock-keys.ts lists, and no two uses share a key', () => {
    const clock = listMigrations().find((m) => m.name.includes('change_clock_shared'))!.sql;
    for (const key of [LOCK_KEYS.clock, LOCK_KEYS.writes]) assert.ok(clock.includes(`(${key})`), `migration 0017 takes ${key}`);
    const keys = Object.values(LOCK_KEYS);
    assert.equal(new Set(keys).size, keys.length);
  });

  it('a failing migration leaves nothing half-applied', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-migrations-'));
    fs.writeFileSync(path.join(dir, '0001_ok.sql'), 'create table one (id int);');
    fs.writeFileSync(path.join(dir, '0002_broken.sql'), 'create table two (id int); select no_such_function();');
    const empty = PG_URL ? await createEmptyPgDatabase() : undefined;
    const db = empty ? openPostgres(empty.url, { max: 2, connectTimeoutSec: 5 }) : await openPGlite({});
    try {
      await assert.rejects(migrate(db, listMigrations(dir)), /no_such_function/);
      const tables = await db.query<{ name: string }>("select tablename as name from pg_tables where schemaname = 'public' order by 1");
      assert.deepEqual(
        tables.map((t) => t.name),
        ['carrel_migrations', 'one'],
        'migration 2 rolled back whole',
      );
      const applied = await db.query<{ version: number }>('select version from carrel_migrations');
      assert.deepEqual(
        applied.map((r) => r.version),
        [1],
      );
    } finally {
      await db.close();
      await empty?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it(`apply once when several processes migrate at the same moment (${ENGINE === 'postgres' ? 'five pools' : 'repeated runs'})`, async () => {
    if (!PG_URL) {
      const db = await openPGlite({});
      try {
        assert.equal((await migrate(db)).length, listMigrations().length);
        assert.equal((await migrate(db)).length, 0, 'a second run applies nothing');
      } finally {
        await db.close();
      }
      return;
    }
    const empty = await createEmptyPgDatabase();
    const pools = Array.from({ length: 5 }, () => openPostgres(empty.url, { max: 1, connectTimeoutSec: 5 }));
    try {
      const results = await Promise.all(pools.map((db) => migrate(db)));
      const appliedCounts = results.map((r) => r.length).sort();
      assert.equal(
        appliedCounts.reduce((a, b) => a + b, 0),
        listMigrations().length,
        'each migration applied exactly once',
      );
      const rows = await pools[0]!.query<{ n: number }>('select count(*)::int as n from carrel_migrations');
      assert.equal(rows[0]!.n, listMigrations().length);
    } finally {
      await Promise.all(pools.map((db) => db.close()));
      await empty.drop();
    }
  });
});
