// Language names wherever a code turns into one: the search API's language facets and bibs, the
// catalogue's facets, filter chips and record page, and GET /v6/bibs/metadata. Records still carrying
// a discontinued MARC code (tag, esk, scr) show the list's name; a code the list lacks shows as itself.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BibService } from '../../src/bibs/service.ts';
import { ItemService } from '../../src/items/service.ts';
import type { MarcRecord } from '../../src/marc/record.ts';
import { drainQueue } from '../../src/search/indexer.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

const record = (title: string, lang: string): MarcRecord => ({
  leader: '00000nam a2200000 i 4500',
  fields: [
    { tag: '008', value: `260101s1970    xxu           000 0 ${lang} d` },
    { tag: '245', ind1: '0', ind2: '0', subfields: [{ code: 'a', value: title }] },
  ],
});

const CATALOGUE: Record<string, MarcRecord> = {
  tagalog: record('Kundiman lullabies', 'tag'),
  filipino: record('Kundiman songbook', 'tgl'),
  eskimo: record('Kundiman far north', 'esk'),
  croatian: record('Kundiman in Zagreb', 'scr'),
  english: record('Kundiman explained', 'eng'),
  unknown: record('Kundiman elsewhere', 'xyz'),
};

describe(`language names on ${ENGINE}`, () => {
  let t: TestApp;
  let reader: string;
  const ids: Record<string, string> = {};
  before(async () => {
    t = await createTestApp();
    reader = await bearer(t, ['Bibs_Read']);
    const service = new BibService(t.testDb.db, new ItemService(t.testDb.db));
    for (const [key, marc] of Object.entries(CATALOGUE)) ids[key] = await service.create({ marc });
    await drainQueue(t.testDb.db);
  });
  after(() => t.close());

  const api = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { authorization: reader } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  const page = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url });
    assert.equal(res.statusCode, 200, url);
    return res.body;
  };

  it("names the search API's language facets and bibs from the MARC list, discontinued codes included", async () => {
    const answer = await api('/v6/bibs/search?text=kundiman&facets=true&limit=10&fields=title,lang');
    const names = Object.fromEntries(answer.facets.language.map((f: { value: string; name: string }) => [f.value, f.name]));
    assert.deepEqual(names, {
      tag: 'Tagalog',
      tgl: 'Tagalog',
      esk: 'Eskimo languages',
      scr: 'Croatian',
      eng: 'English',
      xyz: 'xyz',
    });
    const byTitle = Object.fromEntries(answer.entries.map((e: any) => [e.bib.title, e.bib.lang]));
    assert.deepEqual(byTitle['Kundiman lullabies'], { code: 'tag', name: 'Tagalog' });
    assert.deepEqual(byTitle['Kundiman elsewhere'], { code: 'xyz', name: 'xyz' });
  });

  it("labels the catalogue's facets, filter chips and record page from the MARC list", async () => {
    const results = await page('/catalog?text=kundiman');
    for (const [code, name] of [
      ['tag', 'Tagalog'],
      ['esk', 'Eskimo languages'],
      ['scr', 'Croatian'],
      ['eng', 'English'],
      ['xyz', 'xyz'],
    ])
      assert.match(results, new RegExp(`data-facet="language" data-value="${code}" data-count="1"><span>${name}</span>`), code);
    assert.match(results, /<li>Eskimo languages<\/li>/, "the hit's language");
    const chip = await page('/catalog?text=kundiman&language=esk');
    assert.match(chip, /Language: Eskimo languages<span class="visually-hidden"> \(remove this filter\)/);
    const gone = await page('/catalog?text=kundiman&language=sho');
    assert.match(gone, /Language: Shona<span class="visually-hidden"> \(remove this filter\)/, 'a filter no match has');
    const record = await page(`/catalog/record/${ids.tagalog}`);
    assert.match(record, /Tagalog/);
    assert.doesNotMatch(record, />tag</);
  });

  it('lists the languages in use in the metadata, discontinued codes by their MARC names', async () => {
    const [language] = await api('/v6/bibs/metadata?fields=language');
    const desc = Object.fromEntries(language.values.map((v: { code: string; desc: string }) => [v.code, v.desc]));
    assert.deepEqual(desc, { eng: 'English', esk: 'Eskimo languages', scr: 'Croatian', tag: 'Tagalog', tgl: 'Tagalog', xyz: 'xyz' });
    const [french] = await api('/v6/bibs/metadata?fields=language&language=fr');
    const fr = Object.fromEntries(french.values.map((v: { code: string; desc: string }) => [v.code, v.desc]));
    assert.equal(fr.eng, 'anglais');
    assert.equal(fr.scr, 'croate');
    assert.equal(fr.esk, 'Eskimo languages');
  });
});
