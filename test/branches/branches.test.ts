// Branches over REST (src/branches): the list and one branch in Sierra's shapes, with fields and
// both API versions' prefixes; pickup locations; the refusals of a bad id or field. The library
// profile that sets them up is tested in test/library/profile.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BranchService } from '../../src/branches/service.ts';
import type { Db } from '../../src/db/types.ts';
import { insertItem } from '../../src/items/repository.ts';
import { parseProfile } from '../../src/library/profile.ts';
import { caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { eventually } from '../helpers/eventually.ts';
import { LIBRARY } from '../helpers/library-profile.ts';
import { bearer } from '../helpers/tokens.ts';

describe(`branches on ${ENGINE}`, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await t.services.library.apply(parseProfile(LIBRARY));
    const bib = await addBib(t.testDb.db, 'A branch test');
    await insertItem(t.testDb.db, { bibIds: [bib], location: 'hunt-audio', status: '-', itemType: 'dvd', barcode: 'B-AUDIO' }, new Date());
    await insertItem(t.testDb.db, { bibIds: [bib], location: 'cen', status: '-', itemType: 'book', barcode: 'B-BOOK' }, new Date());
  });
  after(() => t.close());

  it('serves branches, a branch, pickup locations and item metadata in Sierra shapes', async () => {
    const reader = caller(t, await bearer(t, ['Bibs_Read']));
    const list = (await reader.get('/v6/branches')).json();
    assert.deepEqual(
      list.entries.map((b: { id: string; locations: { code: string }[] }) => [b.id, b.locations.map((l) => l.code)]),
      [
        ['1', ['cen', 'hunt-audio']],
        ['7', ['riv']],
      ],
    );
    assert.deepEqual((await reader.get('/v6/branches/7?fields=name,address')).json(), {
      id: '7',
      name: 'Riverside',
      address: '2 River Rd',
    });
    // One branch with its locations, in code order, read with it.
    const central = (await reader.get('/v6/branches/1?fields=locations')).json();
    assert.deepEqual(
      central.locations.map((l: { code: string }) => l.code),
      ['cen', 'hunt-audio'],
    );
    assert.deepEqual(Object.keys(central.locations[0]).sort(), ['code', 'name']);
    assert.deepEqual(list.entries[1].locations, [{ code: 'riv', name: 'Riverside' }]);
    assert.deepEqual((await reader.get('/iii/sierra-api/v5/branches?fields=name&limit=1')).json(), {
      total: 1,
      start: 0,
      entries: [{ id: '1', name: 'Central' }],
    });
    assert.equal((await reader.get('/v6/branches/99')).json().code, 107);
    assert.equal((await reader.get('/v6/branches/12345678901')).statusCode, 404);
    assert.equal((await reader.get('/v6/branches/x1')).statusCode, 400);
    assert.equal((await reader.get('/v6/branches?fields=colour')).json().code, 108);
    assert.deepEqual((await reader.get('/v6/branches/pickupLocations')).json(), [
      { code: 'cen', name: 'Central', holdShelfDays: 5 },
      { code: 'riv', name: 'Riverside', holdShelfDays: 7 },
    ]);
    assert.deepEqual((await reader.get('/v6/items/metadata?fields=itemType')).json(), [
      {
        field: 'itemType',
        values: [
          { code: 'book', desc: 'Book' },
          { code: 'dvd', desc: 'DVD' },
          { code: 'reference-only-items', desc: 'Reference' },
        ],
      },
    ]);
    const all = (await reader.get('/v6/items/metadata')).json();
    assert.deepEqual(
      all.map((m: { field: string }) => m.field),
      ['itemType', 'location', 'status'],
    );
    assert.equal((await reader.get('/v6/items/metadata?fields=shelf')).statusCode, 400);
    // Items by the library's longer codes, whole or by their start ('_' is itself, not any character).
    const at = async (q: string) =>
      ((await reader.get(`/v6/items?location=${q}&fields=location`)).json().entries as { location: { code: string } }[]).map(
        (e) => e.location.code,
      );
    assert.ok((await at('hunt-audio')).length > 0);
    assert.deepEqual(new Set(await at('hunt*')), new Set(['hunt-audio']));
    assert.deepEqual(await at('hun_*'), []);
    assert.equal((await reader.get('/v6/items?location=no%20such')).json().code, 108);
  });

  it(
    ENGINE === 'postgres'
      ? 'keeps the branches while it hears of changes, and reads them anew after one'
      : 'reads the branches on each request (no notifications to keep them by)',
    async () => {
      const db = t.testDb.db;
      let reads = 0;
      const counted: Db = {
        ...db,
        query: (text, params, options) => {
          if (text.includes('from branches b')) reads++;
          return db.query(text, params, options);
        },
      };
      const service = new BranchService(counted);
      const riverside = async () => (await service.get('7')).locations.map((l) => l.name);
      if (ENGINE === 'pglite') {
        for (let i = 1; i <= 3; i++) {
          await service.list(50, 0);
          assert.equal(reads, i);
        }
        return;
      }
      // Kept once the process hears of changes (its LISTEN is up a moment after the first read).
      const kept = async () => {
        const before = reads;
        await service.list(50, 0);
        await service.get('1');
        return reads === before;
      };
      assert.ok(await eventually(kept), 'read from memory');
      assert.deepEqual(await riverside(), ['Riverside']);
      // A change by another connection (as `carrel library apply` makes one) is announced at its commit.
      await db.query(`update locations set name = 'Riverside Annex' where code = 'riv'`);
      try {
        assert.ok(await eventually(async () => (await riverside())[0] === 'Riverside Annex'), 'read anew after the change');
        assert.deepEqual(
          (await service.list(50, 0)).map((b) => b.id),
          [1, 7],
        );
        assert.ok(await eventually(kept), 'and kept again');
      } finally {
        await db.query(`update locations set name = 'Riverside' where code = 'riv'`);
      }
    },
  );
});
