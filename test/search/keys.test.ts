// The index's keys as a bib is indexed (document.ts) and as a search looks them up (plan.ts): a
// search for a bib's own words must plan keys the bib was indexed under, for every kind of key,
// and the keys must stay spelt as the stored index holds them. No database: the real functions
// on one bib's text.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { searchDocument } from '../../src/search/document.ts';
import { ANY_FIELD, COUNTED_KEY_LIKE, FIELD_KEYS, KEY, KIND } from '../../src/search/keys.ts';
import { readSearch, searchSql, type Search } from '../../src/search/plan.ts';
import type { SearchOptions } from '../../src/search/request.ts';
import type { Term } from '../../src/search/types.ts';

const field = (tag: string, subfields: Record<string, string>[]) => ({ [tag]: { ind1: ' ', ind2: ' ', subfields } });

/** One bib with a word of another form than its stem in every field a search can be narrowed to. */
const DOC = searchDocument({
  id: '1',
  marc: {
    leader: '00000nam a2200000 i 4500',
    fields: [
      { '001': 'k1' },
      field('100', [{ a: 'Smithers, Jane.' }]),
      field('245', [{ a: 'Histories of civil wars :' }, { b: 'battles, sieges and maps /' }, { c: 'Jane Smithers.' }]),
      field('264', [{ a: 'London :' }, { b: 'Penguin Books,' }, { c: '2001.' }]),
      field('490', [{ a: 'Studies in war ;' }, { v: '3' }]),
      field('500', [{ a: 'Includes indexes.' }]),
      field('650', [{ a: 'Civil wars' }, { x: 'History.' }]),
    ],
  },
  isbns: ['0-14-143951-3'],
  issns: ['0378-5955'],
  callNumbers: ['FIC SMITHERS'],
  title: 'Histories of civil wars',
  publishYear: 2001,
  materialType: 'book',
  lang: 'eng',
});
const INDEXED = new Set(DOC.keys.keys());

const ask = (text: string, options: Partial<SearchOptions> = {}): SearchOptions => ({ text, limit: 10, offset: 0, ...options });

function read(request: SearchOptions): Search {
  const search = readSearch(request);
  assert.ok(search, `"${request.text}" is a search`);
  return search;
}

/** Every key a search plans to look up. */
function planned(request: SearchOptions): string[] {
  return read(request).keys;
}

/**
 * A search of the bib's words for each kind of key, and a key of that kind it must share with the
 * bib. The words are chosen so that every key the search plans is one the bib has (a stem's
 * other-forms key needs another form of the word in the bib; the title's first word is searched
 * alone).
 */
const CASES: { kind: string; request: SearchOptions; shares: string }[] = [
  { kind: 'stem, every field', request: ask('battle siege'), shares: KEY.stem(ANY_FIELD, 'battle') },
  { kind: 'other forms, every field', request: ask('battle siege'), shares: KEY.otherForms(ANY_FIELD, 'siege') },
  { kind: 'exact form, every field', request: ask('histories'), shares: KEY.exact(ANY_FIELD, 'histories') },
  { kind: 'leading title word', request: ask('histories'), shares: KEY.leading('histories') },
  { kind: 'stem, title', request: ask('battles', { index: 'title' }), shares: KEY.stem(FIELD_KEYS.title, 'battle') },
  { kind: 'exact form, author', request: ask('Smithers', { index: 'author' }), shares: KEY.exact(FIELD_KEYS.author, 'smithers') },
  { kind: 'other forms, subject', request: ask('war', { index: 'subject' }), shares: KEY.otherForms(FIELD_KEYS.subject, 'war') },
  { kind: 'exact form, series', request: ask('studies', { index: 'series' }), shares: KEY.exact(FIELD_KEYS.series, 'studies') },
  { kind: 'exact form, note', request: ask('indexes', { index: 'note' }), shares: KEY.exact(FIELD_KEYS.note, 'indexes') },
  { kind: 'stem, call number', request: ask('smithers', { index: 'callNumber' }), shares: KEY.stem(FIELD_KEYS.callNumber, 'smither') },
  { kind: 'ISBN', request: ask('978-0-14-143951-8'), shares: KEY.number('9780141439518') },
  { kind: 'ISSN', request: ask('0378-5955', { index: 'issn' }), shares: KEY.number('03785955') },
];

describe('search index keys', () => {
  for (const { kind, request, shares } of CASES) {
    it(`plans only keys the bib was indexed under: ${kind} (${JSON.stringify(request.text)}${request.index ? ` in ${request.index}` : ''})`, () => {
      // (Words the bib's title does not start with look up the start they would be: the first two
      // words' key, or a title search's one word's leading key; words it does not hold in order,
      // the pairs they would be.)
      const starts = (key: string) =>
        key[1] === KIND.titleStart || key[1] === KIND.pair || (request.index === 'title' && key[1] === KIND.leading);
      const keys = planned(request).filter((key) => !starts(key));
      assert.deepEqual(
        keys.filter((key) => !INDEXED.has(key)),
        [],
        `planned ${keys.join(', ')}; indexed ${[...INDEXED].join(', ')}`,
      );
      assert.ok(keys.includes(shares), `planned ${keys.join(', ')}, not ${shares}`);
    });
  }

  it("plans the key of the title's first two words for a search of words the title starts with", () => {
    assert.ok(INDEXED.has(KEY.titleStart('histories', 'of')));
    assert.ok(planned(ask('histories of civil')).includes(KEY.titleStart('histories', 'of')));
    assert.ok(planned(ask('Histories, of')).includes(KEY.titleStart('histories', 'of')), 'folded as the title is');
    assert.ok(!planned(ask('histories')).some((key) => key[1] === KIND.titleStart), 'not for one word: its leading key says it');
    assert.ok(
      !planned(ask('histories of', { index: 'subject' })).some((key) => key[1] === KIND.titleStart),
      'not in a field other than the title',
    );
    assert.ok(planned(ask('histories of', { index: 'title' })).includes(KEY.titleStart('histories', 'of')), 'in the title field');
    assert.ok(
      planned(ask('Histories', { index: 'title' })).includes(KEY.leading('histories')),
      'its leading key, for one word in the title field',
    );
  });

  it('finds every word, and every excluded form, of searches of the bib in its keys', () => {
    let id = 0;
    const terms = new Map<string, Term>([...INDEXED].map((key) => [key, { id: ++id, df: 1, version: 1 }]));
    const plan = (text: string) => {
      const request = ask(text);
      const search = read(request);
      return searchSql(search, request, { terms: new Map(search.keys.flatMap((k) => (terms.has(k) ? [[k, terms.get(k)!]] : []))) });
    };
    for (const text of ['battle siege', 'histories civil wars', '"battles sieges" maps', 'smithers OR jones'])
      assert.notEqual(plan(text), undefined, text);
    // An excluded word that is not its own stem is excluded by its exact form; one that is, by its stem and other forms.
    const exact = plan('civil -wars');
    assert.ok(exact?.excluded.length === 1, JSON.stringify(exact));
    const own = plan('civil -war');
    assert.ok(own?.excludedStems.length === 1 && own.excludedStems[0]!.others !== null, JSON.stringify(own));
  });

  it('counts the stem lists, and no other kind', () => {
    const like = new RegExp(
      `^${COUNTED_KEY_LIKE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        .replace(/_/g, '.')
        .replace(/%/g, '.*')}$`,
      's',
    );
    for (const key of INDEXED) assert.equal(KEY.isCounted(key), like.test(key), `${key}: KEY.isCounted and COUNTED_KEY_LIKE agree`);
    for (const key of [KEY.stem(ANY_FIELD, 'battle'), KEY.stem(ANY_FIELD, 'war')]) {
      assert.ok(INDEXED.has(key), key);
      assert.ok(KEY.isCounted(key), `${key} is counted`);
    }
    const uncounted = [
      KEY.exact(ANY_FIELD, 'histories'),
      KEY.otherForms(ANY_FIELD, 'war'),
      KEY.leading('histories'),
      KEY.titleStart('histories', 'of'),
      KEY.number('9780141439518'),
    ];
    for (const key of uncounted) {
      assert.ok(INDEXED.has(key), key);
      assert.ok(!KEY.isCounted(key), `${key} is not counted`);
    }
  });

  it('builds and recognises keys nowhere else in src/search', () => {
    // What building a key by hand looks like: a field then a kind's mark in a template or a
    // string ("${field}~", `i:…`, '*!…'), or a key's mark read by position, in JS or SQL.
    const byHand = /\$\{(?:field|ANY_FIELD|FIELD_KEYS\.\w+)\}[~:^!=]|['"`][tasenoic*][~:^!=][^'"`]|key\[[01]\]|_~%/g;
    const code = (text: string) =>
      text
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '')
        .replace(/ \/\/ .*$/gm, '');
    const dir = path.resolve('src/search');
    const found = fs
      .readdirSync(dir)
      .filter((file) => file.endsWith('.ts') && file !== 'keys.ts')
      .flatMap((file) => [...code(fs.readFileSync(path.join(dir, file), 'utf8')).matchAll(byHand)].map((m) => `${file}: ${m[0]}`));
    assert.deepEqual(found, []);
  });

  it('spells every kind of key as the stored index holds it', () => {
    // Changing any of these means indexing every bib again: the index in use would match nothing.
    assert.deepEqual(
      [
        KEY.stem('t', 'histori'),
        KEY.exact('*', 'histories'),
        KEY.otherForms('s', 'war'),
        KEY.leading('war'),
        KEY.titleStart('world', 'history'),
        KEY.number('9780141439518'),
        ...KEY.pairs(['civil', 'war']),
      ],
      ['t~histori', '*:histories', 's^war', '*!war', '*=world history', 'i:9780141439518', '*"bwy'],
    );
    assert.deepEqual(FIELD_KEYS, {
      title: 't',
      author: 'a',
      subject: 's',
      series: 'e',
      note: 'n',
      other: 'o',
      number: 'i',
      callNumber: 'c',
    });
    assert.equal(ANY_FIELD, '*');
    assert.deepEqual(KIND, { stem: '~', exact: ':', otherForms: '^', leading: '!', titleStart: '=', pair: '"' });
  });

  it('makes one pair key of each two words one after the other, in order, each once', () => {
    assert.equal(KEY.pairs(['civil', 'war']).length, 1);
    assert.equal(KEY.pairs(['civil', 'and', 'war']).length, 2);
    assert.ok(!KEY.pairs(['civil', 'and', 'war']).includes(KEY.pairs(['civil', 'war'])[0]!), 'a stop word between two words parts them');
    assert.notDeepEqual(KEY.pairs(['war', 'peace']), KEY.pairs(['peace', 'war']), 'in order');
    assert.deepEqual(KEY.pairs(['war', 'peace', 'war', 'peace']).length, 2, 'each once');
    assert.deepEqual(KEY.pairs(['war']), []);
    // The document's words hold every phrase of them: a phrase's pairs are among the bib's keys.
    assert.ok(KEY.pairs(['civil', 'wars']).every((key) => INDEXED.has(key)));
    assert.ok(
      KEY.pairs(['histories', 'of', 'civil', 'wars', 'battles']).every((key) => INDEXED.has(key)),
      'across subfields',
    );
    assert.ok(!KEY.pairs(['histories', 'civil']).every((key) => INDEXED.has(key)), 'not two words the text parts');
    assert.ok(
      KEY.pairs(['maps', 'london']).every((key) => INDEXED.has(key)),
      'across fields, as the text runs on',
    );
    assert.equal(COUNTED_KEY_LIKE, '_~%');
  });
});
