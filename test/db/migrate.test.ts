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

  /**
   * Bibs written by `write` on a database migrated to just before `version`, then the queue emptied
   * (but for the bibs `write` answers, still waiting for the indexer) and the migrations up to
   * `version` applied: the ids queued after the upgrade, in order.
   */
  const queuedByUpgrade = async (
    version: number,
    write: (bib: (fields: object[], deleted?: boolean) => Promise<string>) => Promise<string[] | void>,
  ) => {
    const empty = PG_URL ? await createEmptyPgDatabase() : undefined;
    const db = empty ? openPostgres(empty.url, { max: 2, connectTimeoutSec: 5 }) : await openPGlite({});
    try {
      const all = listMigrations();
      await migrate(
        db,
        all.filter((m) => m.version < version),
      );
      const waiting = await write(async (fields, deleted = false) => {
        const marc = JSON.stringify({ leader: '00000nam a2200000 a 4500', fields });
        const [row] = await db.query<{ id: string }>(
          `insert into bibs (marc, created_date, updated_date, deleted_date) values ($1::text::json, now(), now(), $2) returning id::text`,
          [marc, deleted ? new Date() : null],
        );
        return row!.id;
      });
      await db.exec('delete from search_queue');
      for (const id of waiting ?? []) await db.query('insert into search_queue (bib_id) values ($1)', [id]);
      await migrate(
        db,
        all.filter((m) => m.version <= version),
      );
      const queued = await db.query<{ id: string }>('select bib_id::text as id from search_queue order by bib_id');
      return queued.map((r) => r.id);
    } finally {
      await db.close();
      await empty?.drop();
    }
  };
  const title = (text: string) => ({ '245': { ind1: '0', ind2: '0', subfields: [{ a: text }] } });

  it('upgrading to 0065 queues again the bibs whose words search now reads differently, and only those', async () => {
    const expected: string[] = [];
    const queued = await queuedByUpgrade(65, async (bib) => {
      expected.push(await bib([title('Agora'), { '880': { ind1: '0', ind2: '0', subfields: [{ '6': '245-01' }, { a: 'Αγορά' }] } }]));
      expected.push(await bib([title('中国历史')]));
      expected.push(await bib([title('한국의 역사')]));
      expected.push(await bib([title('تـاريخ')]));
      await bib([title('Война и мир')]); // Cyrillic reads as before
      await bib([title('Plain English')]);
      await bib([title('日本')], true); // deleted: nothing to index
    });
    assert.deepEqual(queued, expected);
  });

  it('upgrading to 0067 queues again the bibs with Arabic or Han text, whose letters search now folds, and only those', async () => {
    const expected: string[] = [];
    const queued = await queuedByUpgrade(67, async (bib) => {
      expected.push(await bib([title('المدرسة')]));
      expected.push(await bib([title('Ketab'), { '880': { ind1: '0', ind2: '0', subfields: [{ '6': '245-01' }, { a: 'کتاب فارسی' }] } }]));
      expected.push(await bib([title('傲慢與偏見')]));
      expected.push(await bib([title('日本の歴史')]));
      expected.push(await bib([title('𨋢')])); // beyond the Basic Multilingual Plane: 䢂 in simplified
      await bib([title('ガイドブック')]); // kana alone reads as before
      await bib([title('한국의 역사')]);
      await bib([title('ספר התולדות')]);
      await bib([title('Plain English')]);
      await bib([title('中國')], true); // deleted: nothing to index
    });
    assert.deepEqual(queued, expected);
  });

  it('upgrading to 0069 queues again every bib not deleted, once', async () => {
    const expected: string[] = [];
    const queued = await queuedByUpgrade(69, async (bib) => {
      expected.push(await bib([title('Learning Python')]));
      const waiting = await bib([title('War and peace')]);
      expected.push(waiting);
      await bib([title('Gone')], true); // deleted: nothing to index
      return [waiting]; // queued already: stays queued once
    });
    assert.deepEqual(queued, expected);
  });
});
