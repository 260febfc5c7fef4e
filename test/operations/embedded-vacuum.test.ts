// The embedded engine runs no autovacuum, so a server on it vacuums the tables autovacuum would
// choose (src/operations/embedded-vacuum.ts): the whole database on its first pass, then the tables
// whose dead rows pass 50 and a fifth of their live rows. The dead rows are read from the engine's
// own statistics (pg_stat_user_tables), which PostgreSQL updates from another process when it
// will: only the embedded engine, whose counts are its own, is tested.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { embeddedVacuum } from '../../src/operations/embedded-vacuum.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';

describe('the embedded engine vacuumed by the server', { skip: ENGINE === 'postgres' && 'PostgreSQL runs its own autovacuum' }, () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb();
    await t.db.exec(`create table vacuum_probe (id int primary key, n int not null);
      insert into vacuum_probe select g, 0 from generate_series(1, 2000) g;
      create table vacuum_quiet (id int primary key, n int not null);
      insert into vacuum_quiet select g, 0 from generate_series(1, 2000) g;`);
  });
  after(() => t.drop());

  /** The table's dead rows, as the engine counts them (its counts made visible at once). */
  const dead = async (table: string) => {
    await t.db.query('select pg_stat_force_next_flush()');
    return Number(
      (await t.db.query<{ n: string }>('select n_dead_tup::text as n from pg_stat_user_tables where relname = $1', [table]))[0]!.n,
    );
  };

  it('vacuums every table first, then those whose dead rows pass the threshold, and no other', async () => {
    const pass = embeddedVacuum(t.db);
    await t.db.exec('update vacuum_probe set n = n + 1; update vacuum_quiet set n = n + 1 where id <= 10');
    assert.ok((await dead('vacuum_quiet')) > 0, 'ten rows of it updated, too few for the threshold');
    assert.equal(await pass(), 'all');
    assert.equal(await dead('vacuum_probe'), 0);
    assert.equal(await dead('vacuum_quiet'), 0, 'the first pass vacuums every table, with dead rows counted or not');

    // 2,000 dead rows of 2,000 live ones: past 50 + 400. Ten of 2,000: not.
    await t.db.exec('update vacuum_probe set n = n + 1; update vacuum_quiet set n = n + 1 where id <= 10');
    assert.ok((await dead('vacuum_probe')) > 450);
    const vacuumed = await pass();
    assert.ok(Array.isArray(vacuumed) && vacuumed.includes('public.vacuum_probe'), `vacuumed ${String(vacuumed)}`);
    assert.ok(!vacuumed.includes('public.vacuum_quiet'));
    assert.equal(await dead('vacuum_probe'), 0);
    assert.ok((await dead('vacuum_quiet')) > 0, 'left for a later pass');
  });

  it('lets the space of rows updated since be used again', async () => {
    const pass = embeddedVacuum(t.db);
    await pass();
    const size = async () => Number((await t.db.query<{ n: string }>("select pg_relation_size('vacuum_probe')::text as n"))[0]!.n);
    const before = await size();
    // Each full update leaves 2,000 dead rows; vacuumed after each, the next reuses their space.
    for (let i = 0; i < 5; i++) {
      await t.db.exec('update vacuum_probe set n = n + 1');
      await t.db.query('select pg_stat_force_next_flush()');
      await pass();
    }
    assert.ok((await size()) <= 2 * before, `${before} bytes before, ${await size()} after five full updates`);
  });
});
