// Each ranking rule, by the order (and the relevance) it gives on records made to show it alone:
// field weights, repeats, exact forms and stems, the title's boosts, stop words, phrases,
// numbers, and the sorts. Each word belongs to one rule's
// records. Records whose order a tie would decide are loaded in the opposite order, so a rule
// that stops telling them apart fails here (ties go by bib id).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importRecords } from '../../src/bibs/import.ts';
import { ensureDemoLocations } from '../../src/demo/load.ts';
import { DEFAULT_ITEM_MAP } from '../../src/items/from-marc.ts';
import type { DataField, MarcRecord } from '../../src/marc/record.ts';
import { drainQueue } from '../../src/search/indexer.ts';
import { ListCache } from '../../src/search/list-cache.ts';
import { SearchService, type SearchRequest } from '../../src/search/service.ts';
import { statement } from '../helpers/search-statement.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';
import { df } from '../helpers/written-marc.ts';

/** A record named by its 001, with this title, published in `year` when given (008). */
const record = (name: string, title: string, fields: DataField[] = [], year?: number): MarcRecord => ({
  leader: '00000nam a2200000 i 4500',
  fields: [
    { tag: '001', value: name },
    ...(year ? [{ tag: '008', value: `260101s${year}    xxu           000 0 eng d` }] : []),
    df('245', ['a', title]),
    ...fields,
  ],
});

// In load order: lower ids first.
const RECORDS: MarcRecord[] = [
  // Field weights ("quokka"), lightest first.
  record('q-imprint', 'Marsupial notes', [df('260', ['a', 'Perth :'], ['b', 'Quokka Press'])]),
  record('q-call', 'Shelf list', [df('949', ['a', 'QL737 QUOKKA'], ['l', 'mn'], ['s', '-'], ['t', 'book'])]),
  record('q-note', 'Island fauna', [df('500', ['a', 'Mentions the quokka.'])]),
  record('q-series', 'Small mammals', [df('490', ['a', 'Quokka series'])]),
  record('q-added', 'Field studies', [df('700', ['a', 'Quokka, Ann'])]),
  record('q-other-title', 'Rottnest diaries', [df('246', ['a', 'Quokka diaries'])]),
  record('q-subject', 'Animals of Rottnest', [df('650', ['a', 'Quokka'])]),
  record('q-author', 'Letters home', [df('100', ['a', 'Quokka, Jim'])]),
  record('q-title', 'Life of the quokka'),
  // Repeats ("wallaby").
  record('w-once', 'Bush walks', [df('100', ['a', 'Wallaby, Tom'])]),
  record('w-twice', 'Kangaroo kin', [df('650', ['a', 'Wallaby']), df('651', ['a', 'Wallaby Creek'])]),
  // Exact forms and stems ("echidna", "echidnas").
  record('e-subject', 'Spiny anteaters', [df('650', ['a', 'Echidna'])]),
  record('e-plural', 'Outback echidnas'),
  record('e-singular', 'Dusk echidna'),
  // The title's first word, for one word ("bilby").
  record('b-subject', 'Desert life', [df('650', ['a', 'Bilby'])]),
  record('b-within', 'Desert bilby'),
  record('b-leading', 'Bilby tracks'),
  record('b-whole', 'Bilby'),
  // The whole title, for several words or the title index ("numbat forest").
  record('n-apart', 'Forest of the numbat'),
  record('n-within', 'Tales of numbat forest'),
  record('n-leading', 'Numbat forest tales'),
  record('n-exact', 'Numbat forest'),
  record('n-whole', 'Numbat'),
  // Stop words ("the koala").
  record('k-plain', 'Koala life'),
  record('k-the', 'The life of a koala'),
  // Pairs ("wombat burrow"): the pair's weight is its heavier place's.
  record('p-note', 'Burrow and wombat', [df('500', ['a', 'A wombat burrow.'])]),
  record('p-subject', 'Digging', [df('650', ['a', 'Wombat burrow'])]),
  record('p-title-note', 'Tales of the wombat', [df('500', ['a', 'Burrow stories'])]),
  record('p-none', 'Wombat tales', [df('650', ['a', 'Burrow'])]),
  // Numbers.
  record('i-isbn', 'Marsupial atlas', [df('020', ['a', '9780306406157'])]),
  // Sorts ("dingo").
  record('d-aardvark', 'The aardvark and the dingo', [], 1990),
  record('d-ballads', 'Dingo ballads', [], 2005),
  record('d-zebra', 'A zebra and a dingo'),
  record('d-country', 'Dingo country', [], 1990),
];

describe(`search ranking rules on ${ENGINE}`, () => {
  let testDb: TestDb;
  let service: SearchService;
  const names = new Map<string, string>();
  before(async () => {
    testDb = await createTestDb();
    await testDb.db.transaction((tx) => ensureDemoLocations(tx));
    const summary = await importRecords(
      testDb.db,
      [{ name: 'ranking', records: RECORDS.map((r, i) => ({ position: `record ${i + 1}`, record: r })) }],
      { itemMap: DEFAULT_ITEM_MAP },
    );
    assert.deepEqual(summary.failed, []);
    await drainQueue(testDb.db);
    const rows = await testDb.db.query<{ id: string; name: string }>('select id::text, control_number as name from bibs order by id');
    for (const row of rows) names.set(row.id, row.name);
    assert.deepEqual(
      rows.map((r) => r.name),
      RECORDS.map((r) => (r.fields[0] as { value: string }).value),
      'ids in load order',
    );
    service = new SearchService(testDb.db, new ListCache(64 << 20));
  });
  after(() => testDb.drop());

  /** A search's hits as [record, relevance], the same from the service as from the ranking statement. */
  const ranked = async (text: string, options: Partial<SearchRequest> = {}, search = service) => {
    const request = { text, limit: 50, offset: 0, ...options };
    const answer = await search.search(request);
    assert.deepEqual(answer, await statement(testDb.db, request), `${text}: the ranking statement`);
    return answer.hits.map((h) => [names.get(h.id), h.relevance]);
  };
  const order = async (text: string, options: Partial<SearchRequest> = {}) => (await ranked(text, options)).map(([name]) => name);

  it('weighs a word by its field: title 10, author 6, subject 5, other titles and added authors 4, series 2, notes and call numbers 1, imprint 0.5', async () => {
    assert.deepEqual(await ranked('quokka'), [
      ['q-title', 10],
      ['q-author', 6],
      ['q-subject', 5],
      ['q-added', 4],
      ['q-other-title', 4],
      ['q-series', 2],
      ['q-call', 1],
      ['q-note', 1],
      ['q-imprint', 0.5],
    ]);
  });

  it("adds a third of its place's weight for each repeat", async () => {
    assert.deepEqual(await ranked('wallaby'), [
      ['w-twice', 6.5],
      ['w-once', 6],
    ]);
  });

  it('counts the exact form fully and another form with the same stem 0.6 of it', async () => {
    // A stemmed match in the title (6) still outranks the exact word in a subject (5).
    assert.deepEqual(await ranked('echidna'), [
      ['e-singular', 10],
      ['e-plural', 6],
      ['e-subject', 5],
    ]);
    assert.deepEqual(await ranked('echidnas'), [
      ['e-plural', 10],
      ['e-singular', 6],
      ['e-subject', 3],
    ]);
  });

  it('adds 60 to one word that is the whole title, 25 when the title starts with it', async () => {
    assert.deepEqual(await ranked('bilby'), [
      ['b-whole', 70],
      ['b-leading', 35],
      ['b-within', 10],
      ['b-subject', 5],
    ]);
  });

  it('adds 60 for an exact title, 25 for a title starting with the words, 10 for one with them in order', async () => {
    assert.deepEqual(await ranked('numbat forest'), [
      ['n-exact', 80],
      ['n-leading', 45],
      ['n-within', 30],
      ['n-apart', 20],
    ]);
    // One word in the title index is compared with the whole title too.
    assert.deepEqual(await ranked('numbat', { index: 'title' }), [
      ['n-whole', 70],
      ['n-leading', 35],
      ['n-exact', 35],
      ['n-apart', 20],
      ['n-within', 20],
    ]);
  });

  it('ranks by stop words without requiring them', async () => {
    assert.deepEqual(await ranked('the koala'), [
      ['k-the', 20],
      ['k-plain', 10],
    ]);
  });

  it('ranks a phrase by its words', async () => {
    assert.deepEqual(await ranked('"wombat burrow"'), [
      ['p-note', 20.6],
      ['p-title-note', 11],
      ['p-subject', 10],
    ]);
  });

  it('weighs a standard number 8', async () => {
    assert.deepEqual(await ranked('978-0-306-40615-7'), [['i-isbn', 8]]);
    assert.deepEqual(await ranked('0306406152', { index: 'isbn' }), [['i-isbn', 8]]);
  });

  it('sorts by title without its leading article, and by year newest first with no year last, ties by bib id', async () => {
    assert.deepEqual(await order('dingo', { sort: 'title' }), ['d-aardvark', 'd-ballads', 'd-country', 'd-zebra']);
    assert.deepEqual(await order('dingo', { sort: 'year' }), ['d-ballads', 'd-aardvark', 'd-country', 'd-zebra']);
  });
});
