// "Did you mean": a search that found nothing because of a misspelt word answers the search with
// that word corrected against the index's own words, and how many that finds; a search that finds
// something answers none. The candidates and the corrected text are checked without a database,
// the rest through GET /v6/bibs/search on a small catalogue.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { MarcRecord } from '../../src/marc/record.ts';
import { alphabetOf, candidates, correctedSets, correctedText, oneEdit, ranked } from '../../src/search/spelling.ts';
import { ENGINE } from '../helpers/db.ts';
import { openSearchCatalogue, type SearchCatalogue } from '../helpers/search-catalogue.ts';
import { df, bib } from '../helpers/written-marc.ts';

const LATIN = alphabetOf('word')!;

describe('spelling candidates', () => {
  it('makes every word one deletion, swap, change or addition away', () => {
    const near = oneEdit('cat', LATIN);
    for (const w of ['at', 'ct', 'ca', 'act', 'cta', 'bat', 'cut', 'car', 'scat', 'chat', 'cats']) assert.ok(near.has(w), w);
    assert.ok(!near.has('cat'), 'not the word itself');
    assert.ok(!near.has('dog'));
    // 3 deletions, 2 swaps, 3 × 25 changes, 4 × 26 additions, less repeats.
    assert.ok(near.size > 150 && near.size < 3 + 2 + 75 + 104, String(near.size));
    assert.deepEqual([...oneEdit('cat', LATIN, true)].sort(), ['act', 'at', 'ca', 'ct', 'cta']);
  });

  it('at two edits, pairs any edit with a deletion or a swap, and leaves out what one edit makes', () => {
    const far = candidates('tolstoj', LATIN, 2);
    assert.ok(far.has('tolxto'), 'a deletion and a change');
    assert.ok(far.has('otlstoy'), 'a swap and a change');
    assert.ok(far.has('toltsoyj'), 'a swap and an addition');
    assert.ok(!far.has('tolstoy'), 'one edit away: not among the two-edit words');
    assert.ok(!far.has('tolstoj'));
  });

  it('leaves out stop words, and corrects only words of a known alphabet, three letters or more', () => {
    assert.ok(!candidates('teh', LATIN, 1).has('the'));
    assert.ok(candidates('teh', LATIN, 1).has('tech'));
    assert.equal(alphabetOf('ox'), undefined, 'two letters');
    assert.ok(alphabetOf('oxe'));
    assert.equal(alphabetOf('the'), undefined, 'a stop word is never corrected');
    assert.equal(alphabetOf('1984'), undefined);
    assert.equal(alphabetOf('图书'), undefined, 'a CJK pair');
    assert.ok(alphabetOf('толстои')?.includes('й'));
    assert.ok(alphabetOf('ιλιασ')?.includes('σ'));
  });

  it('ranks the nearer first, then the commoner, then alphabetically', () => {
    assert.deepEqual(
      ranked([
        { word: 'b', edits: 2, df: 90 },
        { word: 'd', edits: 1, df: 3 },
        { word: 'c', edits: 1, df: 5 },
        { word: 'a', edits: 1, df: 3 },
        { word: 'z', edits: 1, df: 0 },
      ]),
      ['c', 'a', 'd', 'b'],
    );
  });

  it('tries every best correction first, then the next ones word by word', () => {
    const sets = correctedSets(
      new Map([
        ['x', ['x1', 'x2', 'x3']],
        ['y', ['y1', 'y2']],
      ]),
      4,
    ).map((m) => Object.fromEntries(m));
    assert.deepEqual(sets, [
      { x: 'x1', y: 'y1' },
      { x: 'x2', y: 'y1' },
      { x: 'x1', y: 'y2' },
      { x: 'x3', y: 'y1' },
    ]);
  });

  it("keeps the text's other words, quotes, minus signs, OR and case", () => {
    const fix = new Map([
      ['tolstoj', 'tolstoy'],
      ['peice', 'peace'],
      ['emile', 'zola'],
    ]);
    assert.equal(correctedText('"war and peice" -Tolstoj OR TOLSTOJ tolstoj', fix), '"war and peace" -Tolstoy OR TOLSTOY tolstoy');
    assert.equal(correctedText('Émile', fix), 'Zola', 'a word matched folded');
    assert.equal(correctedText('Jean-Peice', fix), 'Jean-Peace');
  });
});

const CATALOGUE: MarcRecord[] = [
  bib('War and peace', df('100', ['a', 'Tolstoy, Leo,']), df('650', ['a', 'Russia'], ['x', 'History'])),
  bib('Anna Karenina', df('100', ['a', 'Tolstoy, Leo,'])),
  bib('Tolstoy: a life'),
  bib('Germinal', df('100', ['a', 'Zola, Émile,'])),
  bib('Carts of the world'),
  bib('The cart before the horse'),
  bib('A card for every day'),
  bib('Война и мир', df('100', ['a', 'Толстой, Лев'])),
  bib('图书馆的历史'),
  bib('Incomprehensibilities'),
  bib('Internationalization'),
];

interface Answer {
  total: number;
  entries: { bib: { id: string } }[];
  suggestions?: { text: string; total: number }[];
}

describe(`search suggestions on ${ENGINE}`, () => {
  let catalogue: SearchCatalogue;
  before(async () => {
    catalogue = await openSearchCatalogue(Object.fromEntries(CATALOGUE.map((record, i) => [String(i), record])));
  });
  after(() => catalogue.t.close());

  const search = async (text: string, more = ''): Promise<Answer> => await catalogue.search(`text=${encodeURIComponent(text)}${more}`);
  /** The suggestions' texts, each checked to find, searched as it stands, the total it was answered with. */
  const suggested = async (text: string, more = ''): Promise<string[]> => {
    const answer = await search(text, more);
    for (const s of answer.suggestions ?? []) {
      assert.equal(answer.total, 0, `${text}: suggestions only for a search that found nothing`);
      assert.equal((await search(s.text, more)).total, s.total, `${text} → ${s.text}`);
      assert.ok(s.total > 0);
    }
    return (answer.suggestions ?? []).map((s) => s.text);
  };

  it('corrects a misspelt word by one edit, keeping the other words and the operators', async () => {
    assert.deepEqual(await suggested('tolstoj'), ['tolstoy']);
    assert.deepEqual(await suggested('Germinl'), ['Germinal']);
    assert.deepEqual(await suggested('karenina tolstoj'), ['karenina tolstoy']);
    assert.deepEqual(await suggested('"anna karennina"'), ['"anna karenina"']);
    assert.deepEqual(await suggested('tolstoj -peace'), ['tolstoy -peace']);
    assert.deepEqual(await suggested('the tolstoj'), ['the tolstoy'], 'a stop word is kept, not corrected');
    assert.equal((await search('tolstoj')).suggestions?.[0]?.total, 3);
  });

  it('corrects a longer word by two edits when one finds nothing', async () => {
    assert.deepEqual(await suggested('gremnal'), ['germinal']);
    assert.deepEqual(await suggested('tolsty'), ['tolstoy'], 'one deletion: one edit');
    assert.deepEqual(await suggested('tlstyo'), ['tolstoy'], 'a letter added and two swapped');
    assert.deepEqual(await suggested('tulstay'), [], 'two letters changed: not tried');
    assert.deepEqual(await suggested('zloa'), ['zola'], 'a swap');
    assert.deepEqual(await suggested('zlao'), [], 'two swaps in a short word: one edit only');
  });

  it('bounds the work: long words are not corrected, and two edits go to one word at most', async () => {
    assert.ok(alphabetOf('a'.repeat(20)));
    assert.equal(alphabetOf('a'.repeat(21)), undefined, 'longer than MAX_CORRECTED_LENGTH');
    assert.equal((await search('incomprehensibilities')).total, 1);
    assert.deepEqual(await suggested('incomprehensibilitiez'), [], 'one edit off, but 21 letters');
    assert.deepEqual(await suggested('internationalizaton'), ['internationalization'], 'one edit, 20 letters');
    assert.deepEqual(await suggested('intrenationalizaton'), [], 'two edits off, but longer than TWO_EDITS_UP_TO');
    assert.deepEqual(await suggested('kraenna'), ['karenina'], 'two edits');
    assert.equal((await search('tolstoy karenina')).total, 1);
    assert.deepEqual(await suggested('tlstyo kraenna'), [], 'two words each two edits off');
    assert.deepEqual(await suggested('tolstoj kraenna'), ['tolstoy karenina'], 'one edit and two');
  });

  it('offers the commoner of two words as near, then the other', async () => {
    assert.deepEqual(await suggested('carx'), ['cart', 'card']);
  });

  it('offers only words the index has, not another form of one', async () => {
    assert.deepEqual(await suggested('wors'), [], '"wars": "war" is in the index, "wars" is not');
  });

  it('answers no suggestions for a search that finds something, or whose words are all in the index', async () => {
    const found = await search('tolstoy');
    assert.ok(found.total > 0);
    assert.equal('suggestions' in found, false);
    assert.deepEqual(await suggested('germinal karenina'), [], 'both words known, never together');
    assert.deepEqual(await suggested('qqqqqqq'), [], 'nothing near');
    assert.equal('suggestions' in (await search('tolstoy OR zolla')), false, 'found something: an unknown alternative is not corrected');
    assert.deepEqual(await suggested('tolstoj warr peaxe'), ['tolstoy war peace']);
    assert.deepEqual(await suggested('tolstoj warr peaxe leeo'), [], 'more than three unknown words');
  });

  it('corrects against the field searched, with its filters', async () => {
    assert.deepEqual(await suggested('tolstoj', '&index=author'), ['tolstoy']);
    assert.equal((await search('tolstoj', '&index=author')).suggestions?.[0]?.total, 2);
    assert.deepEqual(await suggested('germinl', '&index=author'), [], 'germinal is a title word only');
    assert.deepEqual(await suggested('tolstoj', '&decade=1990'), [], 'the correction finds nothing either');
    assert.deepEqual(await suggested('9780141439519'), [], 'a number is not corrected');
  });

  it('corrects Cyrillic, and leaves Chinese alone', async () => {
    assert.deepEqual(await suggested('толстои'), ['толстой']);
    assert.deepEqual(await suggested('图书馆馆'), []);
    assert.deepEqual(await suggested('图书馆'), []);
    assert.deepEqual(await suggested('كتابب'), [], 'Arabic: not corrected');
  });

  it('documents suggestions as an optional member of the search answer', async () => {
    const doc = (await catalogue.t.app.inject({ method: 'GET', url: '/v6/openapi.json' })).json();
    const answer = doc.paths['/v6/bibs/search'].get.responses['200'].content['application/json'].schema;
    assert.equal(answer.properties.suggestions.type, 'array');
    assert.deepEqual(Object.keys(answer.properties.suggestions.items.properties), ['text', 'total']);
    assert.ok(!answer.required.includes('suggestions'));
  });
});
