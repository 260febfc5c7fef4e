// A bib's fixed fields, items and country name, as the established platform shows them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadDemoIfEmpty } from '../../src/demo/load.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

describe(`bib fixedFields and items on ${ENGINE}`, () => {
  let t: TestApp;
  let reader: string;
  before(async () => {
    t = await createTestApp();
    await loadDemoIfEmpty(t.testDb.db);
    reader = await bearer(t, ['Bibs_Read']);
  });
  after(() => t.close());

  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { authorization: reader } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };

  it('shows the fixed fields, consistent with the items the bib has', async () => {
    const page = await get('/v6/bibs?limit=32&fields=id,title,country,fixedFields,items');
    assert.equal(page.entries.length, 32);
    for (const bib of page.entries) {
      const ff = bib.fixedFields;
      assert.equal(ff['27'].value, bib.items.length, `COPIES of ${bib.title}`);
      const locations = [...new Set(bib.items.map((i: any) => i.location.code))];
      assert.equal(ff['26'].value, locations.length === 1 ? locations[0] : 'multi');
      assert.equal(ff['81'].value, bib.id);
      assert.equal(ff['80'].value, 'b');
      assert.equal(ff['31'].value, '-');
      assert.ok(bib.items.every((i: any) => i.bibIds.includes(bib.id) && i.barcode && i.status.code));
    }
    const pride = page.entries.find((b: any) => b.title === 'Pride and prejudice');
    assert.deepEqual(pride.country, { code: 'enk', name: 'England' });
    assert.deepEqual(pride.fixedFields['24'], { label: 'Language', value: 'eng', display: 'English' });
    assert.deepEqual(pride.fixedFields['89'], { label: 'Country', value: 'enk', display: 'England' });
    assert.deepEqual(pride.fixedFields['30'], { label: 'Material Type', value: 'a', display: 'Books' });
    assert.equal(pride.fixedFields['29'].value, 'm');
  });

  it('marks a suppressed bib in Bib Code 3 and reads one bib with its items', async () => {
    const [first] = (await get('/v6/bibs?limit=1&fields=id')).entries;
    await t.testDb.db.query('update bibs set suppressed = true where id = $1', [first.id]);
    const bib = await get(`/v6/bibs/${first.id}?fields=fixedFields,items`);
    assert.equal(bib.fixedFields['31'].value, 'n');
    assert.ok(bib.items.length >= 1);
    assert.equal(bib.fixedFields['27'].value, bib.items.length);
  });

  it('answers country names in the metadata', async () => {
    const [country] = await get('/v6/bibs/metadata?fields=country');
    assert.ok(country.values.some((v: any) => v.code === 'fr' && v.desc === 'France'));
    assert.ok(country.values.some((v: any) => v.code === 'nyu' && v.desc === 'New York (State)'));
  });

  it('says whether an item is on the shelf the same way in a list, a harvest with fixed fields and a read', async () => {
    const bibs = (await get('/v6/bibs?limit=50&fields=id,items')).entries;
    const bib = bibs.find((b: any) => b.items.length >= 2);
    const [first, ...others] = bib.items.map((i: any) => i.id);
    const db = t.testDb.db;
    await db.query(`update items set status = 'm', due_date = null, suppressed = false where id = any($1::bigint[])`, [others]);
    const states: [string, string, boolean][] = [
      ['on the shelf', `status = '-', due_date = null, suppressed = false, deleted_date = null`, true],
      ['suppressed', `suppressed = true`, false],
      ['checked out', `suppressed = false, due_date = now() + interval '7 days'`, false],
      ['deleted', `due_date = null, deleted_date = now()`, false],
      ['missing', `deleted_date = null, status = 'm'`, false],
      ['back on the shelf', `status = '-'`, true],
    ];
    for (const [state, set, expected] of states) {
      await db.query(`update items set ${set} where id = $1`, [first]);
      const reads = {
        list: (await get(`/v6/bibs?id=${bib.id}`)).entries[0].available,
        harvest: (await get(`/v6/bibs?id=${bib.id}&fields=default,fixedFields,varFields`)).entries[0].available,
        read: (await get(`/v6/bibs/${bib.id}`)).available,
      };
      assert.deepEqual(reads, { list: expected, harvest: expected, read: expected }, state);
    }
  });
});
