// GET /v6/bibs/search by the titles of works a bib holds or is related to, besides its own title:
// name-title added entries (7XX $t, in the original script too), uniform and related titles
// (730, 740) and contents notes (505 $t), each ranked below a bib whose main title the word is;
// and words found by their other inflected forms ("learning" and "learn").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DataField, MarcRecord } from '../../src/marc/record.ts';
import { ENGINE } from '../helpers/db.ts';
import { openSearchCatalogue, type SearchCatalogue } from '../helpers/search-catalogue.ts';

/** A field with second indicator `ind2`: for a 7XX, "2" says the bib contains the work. */
const df = (tag: string, ind2: string, ...subfields: [string, string][]): DataField => ({
  tag,
  ind1: '1',
  ind2,
  subfields: subfields.map(([code, value]) => ({ code, value })),
});
const bib = (title: string, ...fields: DataField[]): MarcRecord => ({
  leader: '00000nam a2200000 i 4500',
  fields: [df('245', '0', ['a', title]), ...fields],
});

const CATALOGUE: Record<string, MarcRecord> = {
  // "Quillwort" as the main title, a work the bib contains, a piece in its contents, a related work.
  edition: bib('Quillwort', df('100', ' ', ['a', 'Marsh, Ada.'])),
  collected: bib('Collected novels', df('700', '2', ['a', 'Marsh, Ada.'], ['t', 'Quillwort.'])),
  contents: bib('Four tales', df('505', '0', ['t', 'Bramble --'], ['t', 'Quillwort /'], ['r', 'Ada Marsh.'])),
  retold: bib('Quillwort', df('100', ' ', ['a', 'Reed, Tom.']), df('700', ' ', ['a', 'Marsh, Ada.'], ['t', 'Quillwort.'])),
  film: bib('Fen light', df('700', ' ', ['a', 'Marsh, Ada.'], ['t', 'Quillwort.'])),
  noted: bib('Marsh plants', df('500', ' ', ['a', 'Mentions quillwort.'])),
  // A work's number, part and form belong to its title; a meeting's number before $t to its name.
  parts: bib(
    'Songs',
    df('711', '2', ['a', 'Fenland Congress'], ['n', '(9th)'], ['t', 'Proceedings.'], ['p', 'Tidewater'], ['k', 'Selections.']),
  ),
  uniform: bib('Stories', df('730', '2', ['a', 'Sedgemoor chronicle.']), df('740', '2', ['a', 'Reedbed and rush.'])),
  // The same name-title entry in its original script, linked by $6.
  cyrillic: bib(
    'Sobranie',
    df('700', '2', ['6', '880-01'], ['a', 'Gogolʹ, Nikolaĭ.'], ['t', 'Shinelʹ.']),
    df('880', '2', ['6', '700-01/(N'], ['a', 'Гоголь, Николай.'], ['t', 'Шинель.']),
  ),
  // Inflections: "learning" and "learn" find each other, below the exact form.
  learning: bib('Learning to sail'),
  learn: bib('Learn to sail'),
  hoping: bib('Hoping for rain'),
  stopped: bib('Stopped clocks'),
};

describe(`search by the titles of works and by inflected forms on ${ENGINE}`, () => {
  let c: SearchCatalogue;
  before(async () => {
    c = await openSearchCatalogue(CATALOGUE);
  });
  after(() => c.t.close());
  const search = async (query: string) => (await c.search(query)).entries.map((e) => ({ name: c.name(e.bib.id), relevance: e.relevance }));
  const found = (query: string) => c.found(query);

  it('finds a work by its title in an added entry and in contents, below a main title and above a note', async () => {
    const ranked = await search('text=quillwort');
    // The edition and the retelling have the same main title; the retelling's added entry for the
    // novel it retells names it again and adds nothing.
    assert.deepEqual(
      ranked
        .slice(0, 2)
        .map((e) => e.name)
        .sort(),
      ['edition', 'retold'],
    );
    assert.equal(ranked[0]!.relevance, ranked[1]!.relevance);
    assert.deepEqual(
      ranked.slice(2, 4).map((e) => e.name),
      ['collected', 'contents'],
    );
    assert.ok(ranked[1]!.relevance > ranked[2]!.relevance && ranked[2]!.relevance > ranked[3]!.relevance);
    assert.ok(ranked[3]!.relevance > ranked[4]!.relevance);
    // A related work's title weighs as a note's word does.
    assert.deepEqual(
      ranked
        .slice(4)
        .map((e) => e.name)
        .sort(),
      ['film', 'noted'],
    );
    assert.equal(ranked[4]!.relevance, ranked[5]!.relevance);
    assert.deepEqual((await found('text=quillwort&index=title')).slice(2), ['collected', 'contents', 'film']);
  });

  it("keeps an added entry's name an author and a contents note's names a note", async () => {
    assert.deepEqual(await found('text=quillwort&index=author'), []);
    assert.deepEqual((await found('text=marsh%20ada&index=author')).sort(), ['collected', 'edition', 'film', 'retold']);
    assert.deepEqual(await found('text=bramble&index=title'), ['contents']);
    assert.deepEqual(await found('text=marsh&index=note'), ['contents']);
  });

  it("reads a name-title entry's number, part and form as the work's, a meeting's number as the name's", async () => {
    assert.deepEqual(await found('text=proceedings%20tidewater%20selections&index=title'), ['parts']);
    assert.deepEqual(await found('text=9th&index=title'), []);
    assert.deepEqual(await found('text=fenland&index=author'), ['parts']);
  });

  it('finds uniform and related titles (730, 740) by title', async () => {
    assert.deepEqual(await found('text=sedgemoor&index=title'), ['uniform']);
    assert.deepEqual(await found('text=reedbed&index=title'), ['uniform']);
  });

  it("finds a name-title entry's work by its original script, as by its romanisation", async () => {
    assert.deepEqual(await found(`text=${encodeURIComponent('шинель')}&index=title`), ['cyrillic']);
    assert.deepEqual(await found('text=shinel&index=title'), ['cyrillic']);
    assert.deepEqual(await found(`text=${encodeURIComponent('гоголь')}&index=author`), ['cyrillic']);
  });

  it('finds -ing and -ed forms and their verb by each other, the exact form first', async () => {
    assert.deepEqual(await found('text=learning'), ['learning', 'learn']);
    assert.deepEqual(await found('text=learn'), ['learn', 'learning']);
    assert.deepEqual(await found('text=hope'), ['hoping']);
    assert.deepEqual(await found('text=stop'), ['stopped']);
  });
});
