// A database and the code's migrations must agree: commands that only read never migrate (and
// refuse a database not yet migrated); every command and the server refuse a database that a
// newer Carrel has migrated further than this code knows.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { listMigrations } from '../../src/db/migrate.ts';
import { openPGlite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import type { Db } from '../../src/db/types.ts';
import { childDatabase, createEmptyPgDatabase, ENGINE, PG_URL } from '../helpers/db.ts';
import { carrel, startServer } from '../helpers/process.ts';
import { freePort } from '../helpers/tcp.ts';

/** Opens the child's database here (the embedded one only while no child has it open). */
async function openChildDb(env: Record<string, string>): Promise<Db> {
  if (env.DATABASE_URL) return openPostgres(env.DATABASE_URL, { max: 1, connectTimeoutSec: 5 });
  return openPGlite({ dataDir: path.join(env.CARREL_DATA_DIR!, 'pglite') });
}

async function onChildDb<T>(env: Record<string, string>, fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await openChildDb(env);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

const appliedVersions = (env: Record<string, string>) =>
  onChildDb(env, async (db) => {
    const table = await db.query<{ present: boolean }>("select to_regclass('carrel_migrations') is not null as present");
    if (!table[0]!.present) return [];
    return (await db.query<{ version: number }>('select version from carrel_migrations order by version')).map((r) => r.version);
  });

describe(`the schema's version on ${ENGINE}`, () => {
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('refuses a database migrated by a newer Carrel, in every command and in the server', async () => {
    const database = await childDatabase();
    cleanups.push(() => database.remove());
    assert.equal((await carrel(['keys', 'list', '--json'], database.env)).code, 0);
    await onChildDb(database.env, (db) => db.query("insert into carrel_migrations (version, name) values (9999, 'from_a_newer_carrel')"));
    for (const args of [['keys', 'list'], ['keys', 'create', '--name', 'x', '--roles', 'all'], ['migrate'], ['maintenance', 'status']]) {
      const run = await carrel(args, database.env);
      assert.equal(run.code, 1, args.join(' '));
      assert.match(run.stderr, /the database is at migration 9999, newer than this Carrel knows/, args.join(' '));
      assert.doesNotMatch(run.stderr, /\n\s+at /, 'one line, no stack trace');
    }
    await assert.rejects(startServer(database.env, await freePort()), /newer than this Carrel knows/);
  });

  it('reads without migrating: a command that only reads refuses a database behind the code, and changes nothing', async () => {
    let env: Record<string, string>;
    if (PG_URL) {
      const empty = await createEmptyPgDatabase();
      cleanups.push(() => empty.drop());
      env = { DATABASE_URL: empty.url };
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-unmigrated-'));
      cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
      env = { CARREL_DATA_DIR: dir };
    }
    for (const args of [
      ['keys', 'list'],
      ['patrons', 'list'],
      ['maintenance', 'status'],
      ['funds', 'list'],
    ]) {
      const run = await carrel(args, env);
      assert.equal(run.code, 1, args.join(' '));
      assert.match(run.stderr, /the database is at migration 0 and this Carrel needs \d+: run `carrel migrate`/, args.join(' '));
      assert.deepEqual(await appliedVersions(env), [], `${args.join(' ')} migrated nothing`);
    }
    const migrated = await carrel(['migrate', '--json'], env);
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.equal((JSON.parse(migrated.stdout) as { applied: string[] }).applied.length, listMigrations().length);
    assert.equal((await carrel(['keys', 'list', '--json'], env)).code, 0);
  });
});
