// The search planner's choices, with no database: which way each kind of search is executed, with
// which keys, clauses, boosts, lists and pool sizes, from statistics made up for the purpose.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { EXACT_FACTOR, STEM_FACTOR } from '../../src/search/document.ts';
import {
  ASSEMBLE_BITMAPS_FROM,
  firstPool,
  nextPool,
  planKeyed,
  planSearch,
  POOL_SIZE,
  readSearch,
  type Plan,
  type PlanLimits,
  type PoolPlan,
  type Search,
} from '../../src/search/plan.ts';
import type { SearchOptions } from '../../src/search/request.ts';
import type { CachedCount, Term, TermStats } from '../../src/search/types.ts';

const LIMITS: PlanLimits = { poolSize: 100, assembleBitmapsFrom: 2000 };

/** A request for the first page of ten, with these options. */
const ask = (text: string, options: Partial<SearchOptions> = {}): SearchOptions => ({ text, limit: 10, offset: 0, ...options });

const read = (request: SearchOptions): Search => {
  const search = readSearch(request);
  assert.ok(search, `"${request.text}" is a search`);
  return search;
};

/** Keys' statistics: each key's id, df and whether its list has a bitmap. */
type Keys = Record<string, readonly [id: number, df: number, bitmap?: boolean]>;

/** Statistics of these keys, each at version 1, and a kept count. */
function stats(keys: Keys, count?: CachedCount): TermStats {
  const terms = new Map<string, Term>(
    Object.entries(keys).map(([key, [id, df, bitmap]]) => [key, { id, df, version: 1, bitmap: bitmap ?? false }]),
  );
  return count ? { terms, count } : { terms };
}

const plan = (request: SearchOptions, keys: Keys, count?: CachedCount): Plan =>
  planSearch(read(request), request, stats(keys, count), LIMITS);

function poolPlan(request: SearchOptions, keys: Keys, count?: CachedCount): PoolPlan {
  const p = plan(request, keys, count);
  assert.equal(p.kind, 'pool', `"${request.text}" is ranked from a pool`);
  return p;
}

function exhaustiveSql(request: SearchOptions, keys: Keys) {
  const p = plan(request, keys);
  assert.equal(p.kind, 'exhaustive', `"${request.text}" ranks every match`);
  return p.sql;
}

/** "war" (its own stem) in every field, in 500 bibs, and its title key. */
const WAR = { '*~war': [1, 500], '*^war': [2, 20], '*!war': [3, 40] } as const;

/** A page's worth of hits (only their number counts). */
const hits = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

describe('search planner', () => {
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
      ['*~war', '*^war', '*~peace', '*^peace', 't~war', 't~peace', '*=war peace'],
      'no leading word key for two words: their title stem keys, and the key of titles starting with them',
    );
  });

  describe('one word or number in one statement (keyed)', () => {
    it('takes one rare or common word on a first page by its keys, with their boosts, counted by its stem list', () => {
      const request = ask('war');
      assert.deepEqual(planKeyed(read(request), request, LIMITS), {
        kind: 'keyed',
        counted: true,
        query: { keys: ['*~war', '*^war', '*!war'], boosts: [1, -EXACT_FACTOR, 1], size: 100, title: null, limit: 10, offset: 0 },
      });
      const histories = ask('histories', { offset: 90 });
      assert.deepEqual(
        planKeyed(read(histories), histories, LIMITS)?.query.boosts,
        [STEM_FACTOR, EXACT_FACTOR, 1],
        'the exact form fully, its stem partly',
      );
    });

    it('compares the title with one word searched in the title index', () => {
      const request = ask('war', { index: 'title' });
      assert.deepEqual(planKeyed(read(request), request, LIMITS)?.query, {
        keys: ['t~war', 't^war'],
        boosts: [1, -EXACT_FACTOR],
        size: 100,
        title: ' war ',
        limit: 10,
        offset: 0,
      });
    });

    it('takes an ISBN by its key, uncounted', () => {
      const request = ask('978-0-14-143951-8');
      assert.deepEqual(planKeyed(read(request), request, LIMITS), {
        kind: 'keyed',
        counted: false,
        query: { keys: ['i:9780141439518'], boosts: [1], size: 100, title: null, limit: 10, offset: 0 },
      });
    });

    it('does not when the page lies past the first pool, or facets, filters, a sort or exhaustive are asked for', () => {
      const keyed = (request: SearchOptions) => planKeyed(read(request), request, LIMITS);
      assert.ok(keyed(ask('war', { limit: 50, offset: 50 })), 'the page ends at the pool');
      for (const request of [
        ask('war', { limit: 50, offset: 51 }),
        ask('war', { facets: true }),
        ask('war', { sort: 'title' }),
        ask('war', { sort: 'year' }),
        ask('war', { filters: { language: ['eng'] } }),
        ask('war', { exhaustive: true }),
        ask('9780141439518', { facets: true }),
      ])
        assert.equal(keyed(request), undefined, JSON.stringify(request));
      assert.ok(keyed(ask('war', { filters: { language: [] } })), 'an empty filter filters nothing');
    });

    it('does not for several words, a phrase, an exclusion or OR', () => {
      for (const text of ['war peace', '"war peace"', 'war -peace', 'war OR peace', 'civil-war']) {
        const request = ask(text);
        assert.equal(planKeyed(read(request), request, LIMITS), undefined, text);
      }
    });
  });

  describe('after the keys are read', () => {
    it('finds nothing for a word found nowhere, or one of several words found nowhere', () => {
      assert.deepEqual(plan(ask('qwxzjv'), {}), { kind: 'nothing' });
      assert.deepEqual(plan(ask('war qwxzjv'), WAR), { kind: 'nothing' });
      assert.deepEqual(plan(ask('9780000000002'), {}), { kind: 'nothing' });
    });

    it('ranks every match of a number found, exactly', () => {
      const sql = exhaustiveSql(ask('9780141439518', { limit: 5, offset: 200 }), { 'i:9780141439518': [7, 2] });
      assert.deepEqual(sql, {
        required: [{ termIds: [7], boosts: [1] }],
        optional: [],
        excluded: [],
        excludedStems: [],
        phrases: [],
        excludedPhrases: [],
        title: null,
        titleLists: [],
        filters: {},
        sort: 'relevance',
        limit: 5,
        offset: 200,
      });
    });

    it("ranks one word from a pool of its list, its total the list's length, its facets counted from the list", () => {
      const p = poolPlan(ask('war', { offset: 300 }), WAR);
      assert.equal(p.total, 500);
      assert.equal(p.list, 1);
      assert.deepEqual(p.termIds, [1, 3], 'drawn from the lists with a positive boost: the stem list and the title list');
      assert.deepEqual(p.sql.required, [{ termIds: [1, 2, 3], boosts: [1, -EXACT_FACTOR, 1] }], 'the title key ranks with the word');
      assert.equal(p.sql.title, null);
      assert.deepEqual([p.page.probes, p.page.bitmaps, p.next], [[], [], undefined], 'one list: nothing to check');
      assert.equal(p.base, 100);
      const pool = firstPool(p, 500, LIMITS);
      assert.deepEqual(pool.pool, { termIds: [1, 3], size: 100, tiers: [] });
      assert.equal(pool.whole, undefined);
    });

    it('keeps a pool of one word with facets asked for, so the order is the same', () => {
      const p = poolPlan(ask('war', { facets: true }), WAR);
      assert.equal(p.list, 1);
    });

    it('draws the pool of several words from the rarest word, twice as large, and checks the others by bitmap or probe', () => {
      const keys = {
        ...WAR,
        '*~peace': [4, 90],
        '*^peace': [5, 1],
        '*~army': [6, 3000, true],
        '*~navy': [7, 1000],
        't~war': [8, 40],
        't~peace': [9, 20],
        't~army': [10, 30],
        't~navy': [11, 10],
        '*=war peace': [12, 0],
      } as const;
      const p = poolPlan(ask('war peace army navy'), keys);
      assert.equal(p.rarest.id, 4);
      assert.deepEqual(p.termIds, [4], 'the rarest word\'s stem list (its "^" list only ranks)');
      assert.deepEqual(p.page.bitmaps, [6]);
      assert.deepEqual(p.page.probes, [1, 7], 'shortest first');
      assert.equal(p.list, undefined, 'no one list holds exactly the matches');
      assert.equal(p.sql.title, ' war peace army navy ', 'the title is compared with the words');
      assert.deepEqual(p.sql.titleLists, [8, 9, 10, 11], "a boosted title is in each word's title list");
      assert.deepEqual(p.page.titled, { list: 12, within: 4 }, 'titles starting with the words join the pool, if in its source list');
      const untitled = poolPlan(ask('war peace army navy'), Object.fromEntries(Object.entries(keys).filter(([key]) => key !== 't~navy')));
      assert.equal(untitled.sql.title, null, 'a word in no title: no title is compared');
      assert.deepEqual(untitled.sql.titleLists, []);
      assert.equal(untitled.page.titled, undefined);
      assert.equal(p.base, 200);
      assert.deepEqual(
        p.total,
        {
          termIds: [4, 1, 7, 6],
          bitmaps: [6],
          assembleBitmaps: false,
          phrases: [],
          search: read(ask('war peace army navy')).counted,
          versions: [1, 1, 1, 1],
        },
        'counted, rarest first',
      );
    });

    it("reads a count kept at the lists' current versions, and counts again when one has moved", () => {
      const keys = { ...WAR, '*~peace': [4, 90], '*^peace': [5, 1] } as const;
      assert.equal(poolPlan(ask('war peace'), keys, { total: 12, versions: [1, 1] }).total, 12);
      assert.equal(typeof poolPlan(ask('war peace'), keys, { total: 12, versions: [1, 0] }).total, 'object');
      assert.equal(typeof poolPlan(ask('war peace'), keys, { total: 12, versions: [1] }).total, 'object');
      assert.equal(read(ask('peace war')).counted, read(ask('war peace')).counted, 'kept by its keys, whatever their order');
    });

    it('sizes the first pool of words seldom found together to hold 40 matches, and merges a rare list with the next whole', () => {
      const common = { ...WAR, '*~peace': [4, 4000], '*^peace': [5, 1] } as const;
      const seldom = poolPlan(ask('war peace'), common, { total: 10, versions: [1, 1] });
      assert.equal(firstPool(seldom, 10, LIMITS).pool.size, Math.ceil((0.4 * 100 * 500) / 10));
      assert.equal(firstPool(seldom, 10, LIMITS).whole, undefined, 'the rarest list and the next are long: probes');
      const often = poolPlan(ask('war peace'), common, { total: 400, versions: [1, 1] });
      assert.equal(firstPool(often, 400, LIMITS).pool.size, 200);
      // Reading 500 + 1000 entries costs less than probing the 200 bibs wanted, 8 entries a probe.
      const short = poolPlan(ask('war peace'), { ...WAR, '*~peace': [4, 1000], '*^peace': [5, 1] }, { total: 100, versions: [1, 1] });
      const whole = firstPool(short, 100, LIMITS);
      assert.deepEqual(whole.whole, { list: 1, joined: 4 });
      assert.equal(whole.pool.size, 500, 'the whole rarest list, though 200 were wanted');
    });

    it('assembles the bitmaps of a large pool, and joins the chunks of a small one', () => {
      const keys = { ...WAR, '*~peace': [4, 90_000, true], '*^peace': [5, 1] } as const;
      const p = poolPlan(ask('war peace'), keys, { total: 100, versions: [1, 1] });
      assert.equal(firstPool(p, 100, LIMITS).assembleBitmaps, false);
      assert.equal(firstPool(p, 100, { ...LIMITS, assembleBitmapsFrom: 100 }).assembleBitmaps, true);
    });

    it('grows a pool four times over while it holds too few matches for the page, in tiers, up to the rarest list', () => {
      const p = poolPlan(ask('war', { offset: 130 }), WAR);
      const first = firstPool(p, 500, LIMITS);
      assert.equal(nextPool(p, first, { hits: hits(10), pooled: 140 }, 500, LIMITS), undefined, 'the page is full');
      assert.equal(nextPool(p, first, { hits: hits(0), pooled: 500 }, 500, LIMITS), undefined, 'the pool holds every match');
      const second = nextPool(p, first, { hits: hits(2), pooled: 132 }, 500, LIMITS);
      assert.deepEqual(second?.pool, { termIds: [1, 3], size: 400, tiers: [100] });
      const third = nextPool(p, second, { hits: hits(0), pooled: 420 }, 500, LIMITS);
      assert.deepEqual(third?.pool, { termIds: [1, 3], size: 1600, tiers: [100, 400] });
      assert.equal(nextPool(p, third, { hits: hits(0), pooled: 480 }, 500, LIMITS), undefined, 'the pool reaches past the rarest list');
    });

    it("ranks a phrase from its rarest pair list, one word's size, checked on the text, its words' lists not probed", () => {
      const keys = {
        '*~civil': [1, 800],
        '*^civil': [2, 1],
        '*~war': [3, 500],
        '*^war': [4, 1],
        '*~civil war': [5, 60],
        '*~england': [6, 2000],
        '*^england': [7, 1],
      } as const;
      const p = poolPlan(ask('"civil war" england'), keys);
      assert.deepEqual([p.rarest.id, p.termIds], [5, [5]]);
      assert.deepEqual(p.page.phrases, [' civil war ']);
      assert.deepEqual(p.page.probes, [6], 'the pair and the phrase say a bib has "civil" and "war"');
      assert.equal(p.base, 100);
      assert.equal(read(ask('"civil war" england')).keys.includes('*~civil war'), true);
      // A phrase whose pair no bib has yet goes by its words' lists.
      const unpaired = poolPlan(ask('"civil war"'), { '*~civil': [1, 800], '*^civil': [2, 1], '*~war': [3, 500], '*^war': [4, 1] });
      assert.deepEqual([unpaired.rarest.id, unpaired.page.probes, unpaired.base], [3, [1], 200]);
    });

    it('ranks stop words with the other words, requiring them only when there is nothing else', () => {
      const the = { '*~the': [8, 5000], '*^the': [9, 1] } as const;
      const p = poolPlan(ask('the war'), { ...WAR, ...the });
      assert.deepEqual(p.sql.optional, [{ termIds: [8, 9], boosts: [1, -EXACT_FACTOR] }]);
      assert.deepEqual(
        p.sql.required.map((c) => c.termIds),
        [[1, 2]],
      );
      assert.equal(p.list, 1, 'only "war" is required');
      assert.equal(poolPlan(ask('the the'), the).sql.required.length, 2);
    });

    it('searches one field by its keys, comparing the title in the title index', () => {
      const keys = { 't~war': [1, 50], 't^war': [2, 1], 't~peace': [3, 20], 't^peace': [4, 1] } as const;
      const p = poolPlan(ask('war peace', { index: 'title' }), keys);
      assert.equal(p.sql.title, ' war peace ');
      assert.equal(p.rarest.id, 3);
      const subject = poolPlan(ask('war', { index: 'subject', offset: 200 }), { 's~war': [1, 300], 's^war': [2, 1] });
      assert.deepEqual([subject.sql.title, subject.termIds], [null, [1]]);
    });

    it('ranks every match at once with filters, another sort, or exhaustive asked for', () => {
      const asked: Partial<SearchOptions>[] = [
        { filters: { language: ['eng'] } },
        { filters: { decade: [1990] } },
        { sort: 'title' },
        { sort: 'year' },
        { exhaustive: true },
      ];
      for (const options of asked) {
        const sql = exhaustiveSql(ask('war', options), WAR);
        assert.deepEqual(sql.filters, options.filters ?? {});
        assert.equal(sql.sort, options.sort ?? 'relevance');
        assert.deepEqual(sql.required, [{ termIds: [1, 2, 3], boosts: [1, -EXACT_FACTOR, 1] }]);
      }
    });

    it('ranks every match of exclusions and OR: an excluded word drops its exact form, an OR takes either word', () => {
      const keys = {
        ...WAR,
        '*~peace': [4, 90],
        '*^peace': [5, 1],
        '*~army': [6, 60],
        '*:armies': [7, 10],
        '*~and peace': [8, 1],
      } as const;
      assert.deepEqual(exhaustiveSql(ask('war -peace'), keys).excludedStems, [{ stem: 4, others: 5 }]);
      assert.deepEqual(exhaustiveSql(ask('war -armies'), keys).excluded, [7]);
      assert.deepEqual(exhaustiveSql(ask('war -"and peace"'), keys).excludedPhrases, [' and peace ']);
      assert.deepEqual(exhaustiveSql(ask('war OR peace'), keys).required, [
        { termIds: [1, 2, 4, 5], boosts: [1, -EXACT_FACTOR, 1, -EXACT_FACTOR] },
      ]);
      assert.deepEqual(exhaustiveSql(ask('war OR armies'), keys).required, [
        { termIds: [1, 2, 6, 7], boosts: [1, -EXACT_FACTOR, STEM_FACTOR, EXACT_FACTOR] },
      ]);
    });

    it('draws pools of the sizes README "Search" gives by default: 100 bibs of one word, 200 of several, bitmaps assembled past 2,000', () => {
      const defaults = { poolSize: POOL_SIZE, assembleBitmapsFrom: ASSEMBLE_BITMAPS_FROM };
      const one = planSearch(read(ask('war')), ask('war'), stats(WAR), defaults);
      assert.equal(one.kind, 'pool');
      assert.equal(firstPool(one, 500, defaults).pool.size, 100);
      const keys = { ...WAR, '*~peace': [4, 90_000, true], '*^peace': [5, 1] } as const;
      const two = planSearch(read(ask('war peace')), ask('war peace'), stats(keys, { total: 300, versions: [1, 1] }), defaults);
      assert.equal(two.kind, 'pool');
      assert.equal(firstPool(two, 300, defaults).pool.size, 200);
      assert.equal(firstPool(two, 300, defaults).assembleBitmaps, false);
      assert.equal(firstPool(two, 5, defaults).assembleBitmaps, true, 'a pool of 4,000 for words seldom found together');
    });

    it('plans a page past the first pool of one word from its pool, and of a number from every match', () => {
      assert.equal(plan(ask('war', { offset: 400 }), WAR).kind, 'pool');
      assert.equal(plan(ask('9780141439518', { offset: 400 }), { 'i:9780141439518': [7, 2] }).kind, 'exhaustive');
    });
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
