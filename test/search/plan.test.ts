// What a search reads and runs, with no database: its keys, and the clauses, boosts, lists and
// conditions searchSql makes of them, from statistics made up for the purpose.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { EXACT_FACTOR, STEM_FACTOR } from '../../src/search/document.ts';
import { KEY } from '../../src/search/keys.ts';
import { listsOf, readSearch, searchSql, type Search } from '../../src/search/plan.ts';
import type { SearchOptions } from '../../src/search/request.ts';
import type { SearchSql, Term, TermStats } from '../../src/search/types.ts';

/** A request for the first page of ten, with these options. */
const ask = (text: string, options: Partial<SearchOptions> = {}): SearchOptions => ({ text, limit: 10, offset: 0, ...options });

const read = (request: SearchOptions): Search => {
  const search = readSearch(request);
  assert.ok(search, `"${request.text}" is a search`);
  return search;
};

/** Keys' statistics: each key's id and df. */
type Keys = Record<string, readonly [id: number, df: number]>;

/** Statistics of these keys, each at version 10 + its id. */
function stats(keys: Keys): TermStats {
  return {
    terms: new Map<string, Term>(Object.entries(keys).map(([key, [id, df]]) => [key, { id, df, version: 10 + id }])),
  };
}

const sqlOf = (request: SearchOptions, keys: Keys): SearchSql | undefined => searchSql(read(request), request, stats(keys));

function found(request: SearchOptions, keys: Keys): SearchSql {
  const sql = sqlOf(request, keys);
  assert.ok(sql, `"${request.text}" can match`);
  return sql;
}

/** The one pair key of two words. */
const pair = (first: string, second: string): string => KEY.pairs([first, second])[0]!;

/** "war" (its own stem) in every field, in 500 bibs, and its title key. */
const WAR = { '*~war': [1, 500], '*^war': [2, 20], '*!war': [3, 40] } as const;

/** "war", "peace" (its own stem) and "army" with its form "armies". */
const WORDS = { ...WAR, '*~peace': [4, 90], '*^peace': [5, 1], '*~army': [6, 60], '*:armies': [7, 10] } as const;

/** "war" and "peace" in titles (ids after WORDS'), and their pair. */
const TITLES = { 't~war': [8, 50], 't~peace': [9, 20], [pair('war', 'peace')]: [10, 6] } as const;

describe('search plan', () => {
  it('reads nothing to search from an empty text, or from words in a number index', () => {
    assert.equal(readSearch(ask('')), undefined);
    assert.equal(readSearch(ask(' -- ')), undefined);
    assert.equal(readSearch(ask('war', { index: 'isbn' })), undefined);
  });

  it('reads an ISBN, with or without hyphens, in 10 or 13 digits, as its one key; an ISSN too', () => {
    for (const text of ['978-0-14-143951-8', '9780141439518', '0-14-143951-3'])
      assert.deepEqual(read(ask(text)).keys, ['i:9780141439518'], text);
    assert.deepEqual(read(ask('0378-5955', { index: 'issn' })).keys, ['i:03785955']);
    assert.equal(read(ask('9780141439518', { index: 'title' })).kind, 'words', 'a title index reads digits as a word');
  });

  it('looks a word up by its stem key and its exact form, and one word in every field by its title key too', () => {
    const war = read(ask('war'));
    assert.deepEqual(war.keys, ['*~war', '*^war', '*!war']);
    const histories = read(ask('histories'));
    assert.deepEqual(histories.keys, ['*~history', '*:histories', '*!histories']);
    assert.deepEqual(read(ask('war', { index: 'subject' })).keys, ['s~war', 's^war']);
    assert.deepEqual(
      read(ask('war peace')).keys,
      ['*~war', '*^war', '*~peace', '*^peace', 't~war', 't~peace', '*=war peace', pair('war', 'peace')],
      'no leading word key for two words: their title stem keys, the key of titles starting with them, and their pair',
    );
  });

  it('finds nothing for a word found nowhere, or one of several words found nowhere', () => {
    assert.equal(sqlOf(ask('qwxzjv'), {}), undefined);
    assert.equal(sqlOf(ask('war qwxzjv'), WAR), undefined);
    assert.equal(sqlOf(ask('9780000000002'), {}), undefined);
  });

  it('reads a number found as one clause', () => {
    assert.deepEqual(found(ask('9780141439518', { limit: 5, offset: 200 }), { 'i:9780141439518': [7, 2] }), {
      required: [{ termIds: [7], boosts: [1] }],
      optional: [],
      excluded: [],
      excludedStems: [],
      phrases: [],
      phrasePairs: [],
      excludedPhrases: [],
      title: null,
      titleLists: [],
      titlePairs: [],
      filters: {},
      sort: 'relevance',
      limit: 5,
      offset: 200,
    });
  });

  it('ranks stop words with the other words, requiring them only when there is nothing else', () => {
    const the = { '*~the': [8, 5000], '*^the': [9, 1] } as const;
    const sql = found(ask('the war'), { ...WAR, ...the });
    assert.deepEqual(sql.optional, [{ termIds: [8, 9], boosts: [1, -EXACT_FACTOR], cover: 0 }]);
    assert.deepEqual(
      sql.required.map((c) => c.termIds),
      [[1, 2]],
    );
    assert.equal(found(ask('the the'), the).required.length, 2);
  });

  it('searches one field by its keys, comparing the title in the title index', () => {
    const keys = { 't~war': [1, 50], 't^war': [2, 1], 't~peace': [3, 20], 't^peace': [4, 1], [pair('war', 'peace')]: [5, 9] } as const;
    const sql = found(ask('war peace', { index: 'title' }), keys);
    assert.equal(sql.title, ' war peace ');
    assert.deepEqual(sql.titleLists, [1, 3]);
    assert.deepEqual(sql.titlePairs, [5]);
    assert.deepEqual(sql.titleStart, { list: null }, 'no title starts with the words');
    assert.deepEqual(found(ask('war peace', { index: 'title' }), { ...keys, '*=war peace': [6, 2] }).titleStart, { list: 6 });
    assert.deepEqual(
      found(ask('war', { index: 'title' }), { ...keys, '*!war': [7, 4] }).titleStart,
      { list: 7 },
      'one word: its leading key',
    );
    assert.equal(found(ask('war', { index: 'subject' }), { 's~war': [1, 300], 's^war': [2, 1] }).title, null);
  });

  it("requires a phrase's pairs, and compares a title only where its pairs are in some text", () => {
    const keys = {
      ...WORDS,
      ...TITLES,
      '*~civil': [11, 70],
      '*~and': [12, 900],
      [pair('war', 'and')]: [13, 60],
      [pair('and', 'peace')]: [14, 30],
    } as const;
    const phrase = found(ask('"war and peace" civil'), keys);
    assert.deepEqual(phrase.phrases, [' war and peace ']);
    assert.deepEqual(phrase.phrasePairs, [13, 14], 'its stop word in its pairs');
    assert.equal(sqlOf(ask('"peace war" civil'), keys), undefined, 'a phrase whose pair no text has');
    assert.deepEqual(found(ask('"war" civil'), keys).phrasePairs, [], 'no pair in one word');
    assert.deepEqual(found(ask('war peace'), keys).titlePairs, [10]);
    assert.equal(found(ask('peace war'), { ...keys, '*~war': [1, 500] }).title, null, 'a title whose pair no text has: none compared');
    assert.ok(
      listsOf(phrase, stats(keys)).some((l) => l.id === 13),
      'the pair lists are read',
    );
  });

  it('says which titles start with the first two words, or that none does, searching every field', () => {
    const keys = { ...WORDS, ...TITLES } as const;
    assert.deepEqual(found(ask('war peace'), { ...keys, '*=war peace': [11, 3] }).titleStart, { list: 11 });
    assert.deepEqual(found(ask('war peace'), keys).titleStart, { list: null });
    const noPeaceTitle = Object.fromEntries(Object.entries(keys).filter(([key]) => key !== 't~peace'));
    assert.equal(found(ask('war peace'), noPeaceTitle).title, null, 'a title word in no title: no title compared');
  });

  it('takes filters and the sort as asked', () => {
    const asked: Partial<SearchOptions>[] = [
      { filters: { language: ['eng'] } },
      { filters: { decade: [1990] } },
      { sort: 'title' },
      { sort: 'year' },
    ];
    for (const options of asked) {
      const sql = found(ask('war', options), WAR);
      assert.deepEqual(sql.filters, options.filters ?? {});
      assert.equal(sql.sort, options.sort ?? 'relevance');
      assert.deepEqual(sql.required, [{ termIds: [1, 2, 3], boosts: [1, -EXACT_FACTOR, 1], cover: 0 }]);
    }
  });

  it('excludes an excluded word by its exact form, and takes either word of an OR', () => {
    const keys = WORDS;
    assert.deepEqual(found(ask('war -peace'), keys).excludedStems, [{ stem: 4, others: 5 }]);
    assert.deepEqual(found(ask('war -armies'), keys).excluded, [7]);
    assert.deepEqual(found(ask('war -"and peace"'), keys).excludedPhrases, [' and peace ']);
    // Either word: no one list holds the clause's bibs.
    assert.deepEqual(found(ask('war OR peace'), keys).required, [{ termIds: [1, 2, 4, 5], boosts: [1, -EXACT_FACTOR, 1, -EXACT_FACTOR] }]);
    assert.deepEqual(found(ask('war OR armies'), keys).required, [
      { termIds: [1, 2, 6, 7], boosts: [1, -EXACT_FACTOR, STEM_FACTOR, EXACT_FACTOR] },
    ]);
  });

  it('names the stem list as a one-word clause’s cover, and no list where it is not known', () => {
    assert.deepEqual(found(ask('armies'), WORDS).required, [{ termIds: [6, 7], boosts: [STEM_FACTOR, EXACT_FACTOR], cover: 0 }]);
    assert.deepEqual(
      found(ask('war armies'), WORDS).required.map((c) => c.cover),
      [0, 0],
    );
    // The form's key without its stem's (never so in an index the indexer wrote): nothing covers it.
    assert.deepEqual(found(ask('armies'), { '*:armies': [7, 10] }).required, [{ termIds: [7], boosts: [EXACT_FACTOR] }]);
  });

  it('reads the lists of every clause, exclusion and title key at the versions read, and no other', () => {
    const keys = { ...WORDS, ...TITLES, '*=war peace': [11, 3], '*~unread': [12, 1] } as const;
    const lists = (text: string) => {
      const request = ask(text);
      return listsOf(found(request, keys), stats(keys)).sort((a, b) => a.id - b.id);
    };
    assert.deepEqual(
      lists('war peace -armies'),
      [1, 2, 4, 5, 7, 8, 9, 10, 11].map((id) => ({ id, key: Object.entries(keys).find(([, [kid]]) => kid === id)![0], version: 10 + id })),
    );
    assert.deepEqual(
      lists('war -peace').map((l) => l.id),
      [1, 2, 3, 4, 5],
    );
  });

  it('reads nothing of the database: its modules import none of db/ or a repository', () => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = fs.readFileSync(file, 'utf8');
      for (const [, what] of source.matchAll(/^import (?!type )[^;]*? from '(\.[^']+)'/gm)) visit(path.resolve(path.dirname(file), what!));
    };
    visit(path.resolve('src/search/plan.ts'));
    const modules = [...seen].map((f) => path.relative('src', f));
    assert.ok(modules.includes('search/text.ts'), modules.join(', '));
    assert.deepEqual(
      modules.filter((m) => m.startsWith('db/') || m.includes('repository')),
      [],
    );
  });
});
