// /v6/items and /v6/branches over the demo catalogue.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadDemoIfEmpty } from '../../src/demo/load.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

describe(`items and branches on ${ENGINE}`, () => {
  let t: TestApp;
  let token: string;
  before(async () => {
    t = await createTestApp();
    await loadDemoIfEmpty(t.testDb.db);
    token = await bearer(t, ['Bibs_Read']);
  });
  after(() => t.close());

  const get = (url: string, auth = token) => t.app.inject({ method: 'GET', url, headers: { authorization: auth } });

  it('lists branches with their locations, and the pickup locations with their hold-shelf days', async () => {
    const branches = (await get('/v6/branches')).json();
    assert.equal(branches.total, 2);
    assert.deepEqual(
      branches.entries[0].locations.map((l: any) => l.code),
      ['mn', 'mnref'],
    );
    const pickup = (await get('/v6/branches/pickupLocations')).json();
    assert.deepEqual(pickup, [
      { code: 'ea', name: 'East Branch', holdShelfDays: 10 },
      { code: 'mn', name: 'Main Library', holdShelfDays: 7 },
    ]);
  });

  it('lists the items of a bib, and reads one', async () => {
    const bibs = (await get('/v6/bibs?limit=3&fields=id')).json().entries.map((e: any) => e.id);
    const items = (await get(`/v6/items?bibIds=${bibs[2]}`)).json();
    assert.equal(items.total, 3);
    for (const item of items.entries) {
      assert.deepEqual(item.bibIds, [bibs[2]]);
      assert.match(item.barcode, /^\d{14}$/);
      assert.ok(item.location.code && item.location.name);
      assert.ok(item.status.code && item.status.display);
    }
    const bib = (await get(`/v6/bibs/${bibs[2]}`)).json();
    assert.equal(
      bib.available,
      items.entries.some((e: any) => e.status.code === '-'),
    );
    const one = (await get(`/v6/items/${items.entries[0].id}`)).json();
    assert.deepEqual(one, items.entries[0]);
    assert.equal((await get('/v6/items/9999999')).statusCode, 404);
  });

  it('filters by status, by location (exact or prefix) and by id, in ascending id', async () => {
    const all = (await get('/v6/items?limit=2000')).json().entries;
    assert.ok(all.length > 32);
    assert.deepEqual(
      all.map((e: any) => Number(e.id)),
      all.map((e: any) => Number(e.id)).sort((a: number, b: number) => a - b),
    );
    const useOnly = (await get('/v6/items?limit=2000&status=o')).json().entries;
    assert.ok(useOnly.length > 0 && useOnly.every((e: any) => e.status.code === 'o' && e.status.display === 'LIB USE ONLY'));
    const main = (await get('/v6/items?limit=2000&location=mn*')).json().entries;
    assert.deepEqual(new Set(main.map((e: any) => e.location.code)), new Set(['mn', 'mnref']));
    const exact = (await get('/v6/items?limit=2000&location=mn')).json().entries;
    assert.ok(exact.every((e: any) => e.location.code === 'mn'));
    const range = (await get(`/v6/items?id=[${all[0].id},${all[4].id}]`)).json().entries;
    assert.equal(range.length, 5);
    assert.equal((await get('/v6/items?location=MAIN!')).json().code, 108);
    assert.equal((await get('/v6/items?bibIds=x')).json().code, 101);
    const fields = (await get(`/v6/items?id=${all[0].id}&fields=barcode`)).json().entries[0];
    assert.deepEqual(Object.keys(fields).sort(), ['barcode', 'id']);
  });

  it('needs Items_Read and Branches_Read', async () => {
    const patrons = await bearer(t, ['Patrons_Read']);
    assert.equal((await get('/v6/items', patrons)).statusCode, 403);
    assert.equal((await get('/v6/branches', patrons)).statusCode, 403);
    assert.equal((await get('/v6/branches/pickupLocations', '')).statusCode, 401);
  });
});
