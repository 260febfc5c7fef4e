// A list read as its segments (src/search/segmented-list.ts): walked and sought as the plain
// arrays' cursor walks the same postings, with runs that bound what they hold, and segments out of
// order refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Random } from '../../src/generate/random.ts';
import { BlockPostingList, encodePostings, PostingFormatError } from '../../src/search/posting-blocks.ts';
import { ArrayPostingList, END } from '../../src/search/posting-list.ts';
import { SegmentedPostingList } from '../../src/search/segmented-list.ts';
import { cutSegments } from '../../src/search/segments.ts';

/** `n` ascending bibs with gaps of 1 to 40, and their weights. */
function randomList(random: Random, n: number): { bibs: Int32Array; weights: Float32Array } {
  const bibs = new Int32Array(n);
  const weights = new Float32Array(n);
  let bib = random.int(1, 1000);
  for (let i = 0; i < n; i++) {
    bib += random.int(1, 40);
    bibs[i] = bib;
    // Larger and smaller by stretches, so that runs have different largest weights.
    weights[i] = Math.fround(random.pick([0.1, 1, 2.5]) * (1 + ((i >> 6) % 5)));
  }
  return { bibs, weights };
}

const segmented = (bibs: Int32Array, weights: Float32Array, size: number) =>
  new SegmentedPostingList(cutSegments(1, bibs, weights, size).map((s) => new BlockPostingList(s.postings)));

describe('segmented posting lists', () => {
  it('walk and seek as the plain arrays do, each run bounding the weights it holds', () => {
    const random = new Random(7);
    for (const n of [0, 1, 5, 300, 3000])
      for (const size of [1, 7, 128, 512]) {
        const { bibs, weights } = randomList(random, n);
        const list = segmented(bibs, weights, size);
        const plain = new ArrayPostingList(bibs, weights);
        assert.equal(list.length, n);
        assert.equal(list.maxWeight, plain.maxWeight);
        let cursor = list.cursor();
        let expected = plain.cursor();
        const last = n > 0 ? bibs[n - 1]! : 0;
        for (let step = 0; step < 4 * n + 20; step++) {
          if (cursor.bib === END && random.next() < 0.5) {
            // Walked to the end: from the start again, so most steps walk inside the list.
            cursor = list.cursor();
            expected = plain.cursor();
          }
          const roll = random.next();
          const at = cursor.bib === END ? n : bibs.indexOf(cursor.bib);
          let action: string;
          if (roll < 0.4) {
            cursor.next();
            expected.next();
            action = 'next';
          } else {
            const target =
              roll < 0.5
                ? random.int(0, Math.min(cursor.bib, last)) // backwards or where it is
                : roll < 0.7
                  ? Math.min(END, cursor.bib + random.int(1, 100)) // a short way on
                  : roll < 0.9
                    ? (bibs[Math.min(n - 1, at + random.int(1, 8))] ?? 0) // a bib a little ahead: often a segment's last
                    : roll < 0.98
                      ? random.int(0, last + 50) // anywhere
                      : END;
            const before = cursor.bib;
            cursor.seek(target);
            expected.seek(target);
            if (target <= before) assert.equal(cursor.bib, before, `seek(${target}) from ${before} moved back`);
            action = `seek(${target}) from ${before}`;
          }
          const where = `n ${n}, segments of ${size}, step ${step}: ${action}`;
          assert.equal(cursor.bib, expected.bib, where);
          assert.equal(cursor.weight, expected.weight, where);
          if (cursor.bib === END) {
            assert.equal(cursor.runMax(), 0, where);
            assert.equal(cursor.runLast(), END, where);
            continue;
          }
          // The run: from the cursor to its last bib, every weight at most its largest.
          const from = bibs.indexOf(cursor.bib);
          const runLast = cursor.runLast();
          assert.ok(runLast >= cursor.bib && bibs.includes(runLast), where);
          for (let i = from; i < n && bibs[i]! <= runLast; i++) assert.ok(weights[i]! <= cursor.runMax(), `${where}: weight at ${bibs[i]}`);
        }
      }
  });

  it('refuses segments out of bib order, and empty ones', () => {
    const one = new BlockPostingList(encodePostings(new Int32Array([5, 9]), new Float32Array([1, 2])));
    const two = new BlockPostingList(encodePostings(new Int32Array([12, 20]), new Float32Array([1, 2])));
    const empty = new BlockPostingList(encodePostings(new Int32Array(0), new Float32Array(0)));
    assert.equal(new SegmentedPostingList([one, two]).length, 4);
    assert.throws(() => new SegmentedPostingList([two, one]), PostingFormatError);
    assert.throws(() => new SegmentedPostingList([one, empty, two]), PostingFormatError);
  });
});
