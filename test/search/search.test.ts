// GET /v6/bibs/search on a small catalogue made for it: ranking, folding, the query language,
// indexes, visibility and paging.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BibService } from '../../src/bibs/service.ts';
import { ItemService } from '../../src/items/service.ts';
import type { MarcRecord } from '../../src/marc/record.ts';
import { drainQueue } from '../../src/search/indexer.ts';
import { ENGINE } from '../helpers/db.ts';
import { openSearchCatalogue, type SearchCatalogue } from '../helpers/search-catalogue.ts';
import { bearer } from '../helpers/tokens.ts';
import { df, bib } from '../helpers/written-marc.ts';

const CATALOGUE: Record<string, MarcRecord> = {
  warAndPeace: bib('War and peace', df('100', ['a', 'Tolstoy, Leo,']), df('650', ['a', 'Russia'], ['x', 'History'])),
  warSubject: bib('Soldiers of fortune', df('650', ['a', 'War'], ['v', 'Fiction.'])),
  warNote: bib('A quiet village', df('500', ['a', 'Set in the years after the war.'])),
  zola: bib('Germinal', df('100', ['a', 'Zola, Émile,'])),
  strasse: bib('Die Straße', df('100', ['a', 'Müller, Hans'])),
  history: bib('History of Rome'),
  histories: bib('The histories of Herodotus'),
  pride: bib('Pride and prejudice', df('020', ['a', '9780141439518']), df('100', ['a', 'Austen, Jane'])),
  prejudice: bib('Prejudice and pride in old towns'),
  theWho: bib('The Who : a biography'),
  hamlet: bib('To be or not to be', df('500', ['a', 'On Hamlet.'])),
  voina: bib('Война и мир', df('100', ['a', 'Толстой, Лев'])),
  emma: bib('Emma'),
  emmaDiary: bib("Emma's secret diary and other tales of Emma"),
};

describe(`search on ${ENGINE}`, () => {
  let c: SearchCatalogue;
  before(async () => {
    c = await openSearchCatalogue(CATALOGUE);
  });
  after(() => c.t.close());
  const search = (query: string) => c.search(query);
  const found = (query: string) => c.found(query);

  it('ranks a title above a subject above a note', async () => {
    assert.deepEqual(await found('text=war'), ['warAndPeace', 'warSubject', 'warNote']);
    const answer = await search('text=war');
    assert.equal(answer.total, 3);
    assert.equal(answer.count, 3);
    assert.ok(answer.entries[0]!.relevance > answer.entries[1]!.relevance);
  });

  it('folds case and diacritics, and keeps Cyrillic searchable', async () => {
    assert.deepEqual(await found('text=emile%20zola'), ['zola']);
    assert.deepEqual(await found('text=STRASSE'), ['strasse']);
    assert.deepEqual(await found('text=muller'), ['strasse']);
    assert.deepEqual(await found(`text=${encodeURIComponent('война')}`), ['voina']);
    assert.deepEqual(await found(`text=${encodeURIComponent('толстой')}`), ['voina']);
  });

  it('ranks the exact word form above a stemmed one, and finds both', async () => {
    assert.deepEqual(await found('text=history'), ['history', 'histories', 'warAndPeace']);
    assert.deepEqual((await found('text=histories')).slice(0, 2), ['histories', 'history']);
  });

  it('ranks an exact title, then a leading title match, above scattered words', async () => {
    assert.deepEqual(await found('text=emma'), ['emma', 'emmaDiary']);
    assert.deepEqual(await found('text=pride%20prejudice'), ['pride', 'prejudice']);
  });

  it('reads phrases, exclusions and OR', async () => {
    assert.deepEqual(await found(`text=${encodeURIComponent('"pride and prejudice"')}`), ['pride']);
    assert.deepEqual(await found(`text=${encodeURIComponent('"prejudice pride"')}`), [], 'the pair is there, the phrase is not');
    assert.deepEqual(await found(`text=${encodeURIComponent('"war and peace" tolstoy')}`), ['warAndPeace']);
    assert.deepEqual(
      await found(`text=${encodeURIComponent('"peace tolstoy"')}`),
      ['warAndPeace'],
      'a phrase runs on from one field into the next',
    );
    assert.deepEqual(await found(`text=${encodeURIComponent('"war peace"')}`), [], 'the stop word between them is part of the text');
    assert.deepEqual(await found('text=war%20-peace'), ['warSubject', 'warNote']);
    assert.deepEqual(await found(`text=${encodeURIComponent('war -"and peace"')}`), ['warSubject', 'warNote']);
    assert.deepEqual((await found('text=zola%20OR%20austen')).sort(), ['pride', 'zola']);
  });

  it('does not fail on stop words', async () => {
    assert.deepEqual(await found('text=the%20who'), ['theWho']);
    assert.deepEqual((await found('text=to%20be%20or%20not%20to%20be'))[0], 'hamlet');
  });

  it('narrows to one index, and matches ISBN-10 and ISBN-13 forms with or without hyphens', async () => {
    assert.deepEqual(await found('text=war&index=author'), []);
    assert.deepEqual(await found('text=tolstoy&index=author'), ['warAndPeace']);
    assert.deepEqual(await found('text=war&index=subject'), ['warSubject']);
    assert.deepEqual(await found('text=0-14-143951-3&index=isbn'), ['pride']);
    assert.deepEqual(await found('text=978-0-14-143951-8'), ['pride']);
    assert.deepEqual(await found('text=9780141439518&index=standardNumber'), ['pride']);
  });

  it('pages without overlap or gap, in a stable order', async () => {
    const all = (await search('text=war%20OR%20emma%20OR%20history&limit=50')).entries.map((e) => e.bib.id);
    const paged: string[] = [];
    for (let offset = 0; offset < all.length + 2; offset += 2)
      paged.push(...(await search(`text=war%20OR%20emma%20OR%20history&limit=2&offset=${offset}`)).entries.map((e) => e.bib.id));
    assert.deepEqual(paged, all);
    const beyond = await search('text=war&limit=2&offset=10');
    assert.deepEqual([beyond.count, beyond.total, beyond.start], [0, 3, 10]);
  });

  it('never shows suppressed or deleted bibs, and sees changes once they are indexed', async () => {
    const service = new BibService(c.t.testDb.db, new ItemService(c.t.testDb.db));
    await service.replace(c.ids.warSubject!, { marc: CATALOGUE.warSubject!, suppressed: true });
    await service.delete(c.ids.warNote!);
    await service.replace(c.ids.emma!, { marc: bib('Emma at war') });
    await drainQueue(c.t.testDb.db);
    assert.deepEqual(await found('text=war'), ['warAndPeace', 'emma']);
  });

  it('answers each bib as GET /bibs/{id} does, in the fields asked for, however the search was ranked', async () => {
    // One word, one ISBN, words, and a sort by title.
    for (const text of ['war', '9780141439518', 'pride prejudice', 'war&sort=title']) {
      for (const fields of ['', '&fields=id,title,varFields,fixedFields,items']) {
        const { entries } = await search(`text=${text}${fields}`);
        assert.ok(entries.length > 0, text);
        for (const { bib } of entries) {
          const one = await c.t.app.inject({
            method: 'GET',
            url: `/v6/bibs/${bib.id}?${fields.slice(1)}`,
            headers: { authorization: c.reader },
          });
          assert.deepEqual(bib, one.json(), `${text}${fields}: ${c.name(bib.id)}`);
        }
      }
    }
  });

  it('refuses a key without Bibs_Read, and a missing text', async () => {
    const other = await bearer(c.t, ['Invoices_Read']);
    assert.equal(
      (await c.t.app.inject({ method: 'GET', url: '/v6/bibs/search?text=war', headers: { authorization: other } })).statusCode,
      403,
    );
    const missing = await c.t.app.inject({ method: 'GET', url: '/v6/bibs/search', headers: { authorization: c.reader } });
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.json().code, 105);
  });
});
