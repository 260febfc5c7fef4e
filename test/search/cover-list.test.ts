// A one-word search counted by its stem's list and scored only where a bib can reach the page
// (src/search/cover-list.ts) must answer what the full walk over every match answers: the same
// total, page, scores and matches, over lists in blocks and in segments, with and without filters.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Random } from '../../src/generate/random.ts';
import type { DocReader } from '../../src/search/doc-repository.ts';
import { EXACT_FACTOR, STEM_FACTOR } from '../../src/search/document.ts';
import { evaluate } from '../../src/search/evaluate.ts';
import { BlockPostingList, encodePostings } from '../../src/search/posting-blocks.ts';
import { type PostingCursor, type PostingList } from '../../src/search/posting-list.ts';
import { SegmentedPostingList } from '../../src/search/segmented-list.ts';
import type { SearchSql } from '../../src/search/types.ts';

/** No docs are read: a search with no title and no phrase reads none. */
const NO_DOCS: DocReader = {
  read: () => Promise.reject(new Error('a doc was read')),
  holding: () => Promise.reject(new Error('a doc was checked')),
};

/** Weights as the indexer makes them: a few values, so that scores tie. */
const WEIGHTS = [0.5, 1, 1.3, 2, 4, 5, 10, 10.3, 14.5];

/** A list of these bibs (ascending) with random weights, in blocks, or in segments of 512 postings. */
function listOf(random: Random, bibs: number[], weights: readonly number[], segmented: boolean): PostingList {
  const encoded = (from: number, to: number) =>
    new BlockPostingList(
      encodePostings(
        Int32Array.from(bibs.slice(from, to)),
        Float32Array.from(bibs.slice(from, to), () => random.pick(weights)),
      ),
    );
  if (!segmented || bibs.length === 0) return encoded(0, bibs.length);
  const segments: BlockPostingList[] = [];
  for (let from = 0; from < bibs.length; from += 512) segments.push(encoded(from, from + 512));
  return new SegmentedPostingList(segments);
}

/** The list, its cursors counting the weights they answer. */
function counted(list: PostingList, reads: { n: number }): PostingList {
  return {
    length: list.length,
    maxWeight: list.maxWeight,
    runs: () => list.runs(),
    cursor: (): PostingCursor => {
      const inner = list.cursor();
      return {
        get bib() {
          return inner.bib;
        },
        get weight() {
          reads.n++;
          return inner.weight;
        },
        next: () => inner.next(),
        seek: (target) => inner.seek(target),
        runMax: () => inner.runMax(),
        runLast: () => inner.runLast(),
      };
    },
  };
}

/** A random word's lists: its stem's (ids 1), its other forms' (2, within it), its leading title word's (3, within it). */
function word(random: Random) {
  const universe = random.pick([2_000, 30_000, 120_000]);
  const density = random.pick([0.05, 0.3, 0.9]);
  const stem: number[] = [];
  for (let bib = 1; bib <= universe; bib++) if (random.chance(density)) stem.push(bib);
  const within = (share: number) => stem.filter(() => random.chance(share));
  const segmented = random.chance(0.5);
  // The titles that start with the word: a few of its bibs, or (as no catalogue has) a quarter,
  // which in a large catalogue is too long to score first (bounded by its largest weight instead).
  const leading = random.pick([0.001, 0.02, 0.25]);
  const lists = new Map<number, PostingList>([
    [1, listOf(random, stem, WEIGHTS, segmented)],
    [2, listOf(random, within(random.pick([0, 0.1, 0.5])), WEIGHTS, segmented)],
    [3, listOf(random, within(leading), [25, 60], segmented)],
  ]);
  return { lists, stem, fewLeading: leading < 0.1 };
}

function search(random: Random, cover: boolean): SearchSql {
  // A word that is its own stem (its other forms subtract), or a form of another (its exact key adds).
  const own = random.chance(0.5);
  return {
    required: [
      { termIds: [1, 2, 3], boosts: own ? [1, -EXACT_FACTOR, 1] : [STEM_FACTOR, EXACT_FACTOR, 1], ...(cover ? { cover: 0 } : {}) },
    ],
    // Nothing else decides a match, and no title is compared.
    ...{ optional: [], excluded: [], excludedStems: [], phrases: [], phrasePairs: [], excludedPhrases: [] },
    ...{ title: null, titleLists: [], titlePairs: [] },
    filters: {},
    sort: 'relevance',
    limit: random.pick([1, 20, 50]),
    offset: random.pick([0, 0, 20, 300]),
  };
}

describe('a one-word search counted by its list', () => {
  it('answers what the walk over every match answers, scoring few of them', async (ctx) => {
    const random = new Random(38, 17);
    let scored = 0;
    let matches = 0;
    for (let run = 0; run < 40; run++) {
      const { lists, stem, fewLeading } = word(random);
      const q = search(random, true);
      const walked = { ...q, required: [{ ...q.required[0]!, cover: undefined }] };
      const keep = random.chance(0.3) ? (bib: number) => bib % 3 !== 0 : undefined;
      const label = `run ${run}: ${stem.length} bibs, ${JSON.stringify(q.required)}, limit ${q.limit} offset ${q.offset}, filtered ${!!keep}`;
      const expected = await evaluate(walked, lists, NO_DOCS, keep, { everyMatch: true, oneState: true });
      const reads = { n: 0 };
      const countedLists = new Map([...lists].map(([id, list]) => [id, id === 1 ? counted(list, reads) : list]));
      const got = await evaluate(q, countedLists, NO_DOCS, keep, { everyMatch: false, oneState: true });
      assert.deepStrictEqual({ ...got, matched: [] }, { ...expected, matched: [] }, label);
      const every = await evaluate(q, lists, NO_DOCS, keep, { everyMatch: true, oneState: true });
      assert.deepStrictEqual(
        [...every.matched].sort((a, b) => a - b),
        [...expected.matched].sort((a, b) => a - b),
        `${label}: matches`,
      );
      if (!fewLeading) continue;
      scored += reads.n;
      matches += expected.total;
    }
    // The runs that cannot reach the page are passed over: a fraction of the matches is scored
    // (where few titles start with the word: they are scored first, and the page is theirs).
    ctx.diagnostic(`${scored} of ${matches} matches scored`);
    assert.ok(scored < matches / 4, `${scored} of ${matches} matches scored`);
  });

  it('walks every match of lists of two states, where a title list holds a bib its stem list lacks', async () => {
    // The leading title word's list read after a bib joined it, the stem's list kept from before:
    // only the walk finds that bib (a match of a list the clause has), so lists not of one state
    // are walked.
    const encoded = (bibs: number[], weight: number) =>
      new BlockPostingList(
        encodePostings(
          Int32Array.from(bibs),
          Float32Array.from(bibs, () => weight),
        ),
      );
    const stem = Array.from({ length: 300 }, (_, i) => i + 1);
    const lists = new Map<number, PostingList>([
      [1, encoded(stem, 1)],
      [2, encoded([], 1)],
      [3, encoded([5, 301], 60)],
    ]);
    const q = { ...search(new Random(3), true), limit: 5, offset: 0 };
    const walked = await evaluate({ ...q, required: [{ ...q.required[0]!, cover: undefined }] }, lists, NO_DOCS, undefined, {
      everyMatch: false,
      oneState: true,
    });
    assert.equal(walked.total, 301);
    assert.ok(walked.hits.some((h) => h.id === '301'));
    const mixed = await evaluate(q, lists, NO_DOCS, undefined, { everyMatch: false, oneState: false });
    assert.deepStrictEqual({ ...mixed, matched: [] }, { ...walked, matched: [] });
  });

  it('scores a run whose most ties the k-th best score when its bibs come first', async () => {
    // Ten runs of 128 bibs, every weight 10 but four 14.5s in the last two runs, which are scored
    // first. Their best five are the four 14.5s and a 10 of bib 1025; the first run's bibs, also
    // 10 but before it, rank above that one, so its run (its most 10, the fifth's score) is scored.
    const bibs = Array.from({ length: 1280 }, (_, i) => i + 1);
    const weights = bibs.map((bib) => ([1100, 1150, 1200, 1250].includes(bib) ? 14.5 : 10));
    const lists = new Map<number, PostingList>([
      [1, new BlockPostingList(encodePostings(Int32Array.from(bibs), Float32Array.from(weights)))],
      [2, new BlockPostingList(encodePostings(new Int32Array(0), new Float32Array(0)))],
      [3, new BlockPostingList(encodePostings(new Int32Array(0), new Float32Array(0)))],
    ]);
    const q = { ...search(new Random(1), true), limit: 5, offset: 0 };
    const { hits } = await evaluate(q, lists, NO_DOCS, undefined, { everyMatch: false, oneState: true });
    assert.deepEqual(
      hits.map((h) => h.id),
      ['1100', '1150', '1200', '1250', '1'],
    );
  });
});
