// The demo catalogue: well-formed MARC 21, a spread of languages and material types, loaded once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deriveBib } from '../../src/bibs/derive.ts';
import { demoRecords } from '../../src/demo/catalogue.ts';
import { loadDemoIfEmpty } from '../../src/demo/load.ts';
import { readIso2709, writeIso2709 } from '../../src/marc/iso2709.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';

describe('demo catalogue', () => {
  it('is well-formed MARC 21 that survives ISO 2709 both ways', () => {
    for (const record of demoRecords()) {
      assert.equal(record.leader.length, 24);
      const f008 = record.fields.find((f) => f.tag === '008');
      assert.ok(f008 && 'value' in f008 && f008.value.length === 40, `008 is 40 characters in ${JSON.stringify(record.fields[0])}`);
      const again = readIso2709(writeIso2709(record));
      assert.deepEqual(again.fields, record.fields);
    }
  });

  it('spreads over languages, scripts and material types', () => {
    const derived = demoRecords().map(deriveBib);
    assert.ok(derived.every((d) => d.title && d.author && d.publishYear));
    const types = new Set(derived.map((d) => d.materialType));
    for (const type of ['a', 'i', 'j', 'c', 'g', 'm']) assert.ok(types.has(type), `material type ${type}`);
    const langs = new Set(derived.map((d) => d.lang));
    for (const lang of ['eng', 'fre', 'ger', 'spa', 'rus', 'grc']) assert.ok(langs.has(lang), lang);
    assert.ok(
      derived.some((d) => /[\u0400-\u04ff]/.test(d.title!)),
      'Cyrillic',
    );
    assert.ok(
      derived.some((d) => /[\u0370-\u03ff\u1f00-\u1fff]/.test(d.title!)),
      'Greek',
    );
  });
});

describe(`demo catalogue loading on ${ENGINE}`, () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb();
  });
  after(() => t.drop());

  it('loads into an empty database once, never over existing records', async () => {
    const loaded = await loadDemoIfEmpty(t.db);
    assert.equal(loaded, demoRecords().length);
    assert.equal(await loadDemoIfEmpty(t.db), 0);
    const [row] = await t.db.query<{ n: number }>('select count(*)::int as n from bibs');
    assert.equal(row!.n, loaded);
  });
});
