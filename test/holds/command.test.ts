// `carrel locations closed …` and `carrel holds expire` through the real command.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { insertBranch, insertLocation } from '../../src/branches/repository.ts';
import { loadConfig } from '../../src/config.ts';
import { openClientDb } from '../../src/db/open.ts';
import { childDatabase, ENGINE } from '../helpers/db.ts';
import { carrel } from '../helpers/process.ts';

describe(`carrel holds and locations on ${ENGINE}`, () => {
  let database: Awaited<ReturnType<typeof childDatabase>>;
  before(async () => {
    database = await childDatabase();
    const db = await openClientDb(loadConfig(database.env));
    try {
      await db.transaction(async (tx) =>
        insertLocation(tx, { code: 'mn', name: 'Main', pickup: true, hold_shelf_days: 7 }, await insertBranch(tx, 'Main', null)),
      );
    } finally {
      await db.close();
    }
  });
  after(() => database?.remove());

  it('closes and reopens a location on weekdays and dates', async () => {
    const added = await carrel(['locations', 'closed', 'add', 'mn', 'sun', 'mon', '2026-12-25'], database.env);
    assert.equal(added.code, 0, added.stderr);
    const list = await carrel(['locations', 'closed', 'list', 'mn', '--json'], database.env);
    assert.deepEqual(JSON.parse(list.stdout), { weekdays: [0, 1], dates: ['2026-12-25'] });
    assert.equal((await carrel(['locations', 'closed', 'remove', 'mn', '0'], database.env)).code, 0);
    assert.deepEqual(JSON.parse((await carrel(['locations', 'closed', 'list', 'mn', '--json'], database.env)).stdout).weekdays, [1]);
    const bad = await carrel(['locations', 'closed', 'add', 'mn', 'someday'], database.env);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /neither a weekday/);
    const unknown = await carrel(['locations', 'closed', 'add', 'zz', 'mon'], database.env);
    assert.match(unknown.stderr, /^carrel: no location zz\n$/);
  });

  it('expires holds on demand', async () => {
    const run = await carrel(['holds', 'expire', '--today', '2026-12-01', '--json'], database.env);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), { unfilled: 0, uncollected: 0 });
    const text = await carrel(['holds', 'expire'], database.env);
    assert.match(text.stdout, /^expired 0 unfilled hold\(s\) and 0 uncollected hold\(s\)\n$/);
  });
});
