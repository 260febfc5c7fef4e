// Posting lists compressed in blocks (posting-blocks.ts), with no database: random lists come back
// bit for bit, their cursors answer as the plain arrays' cursor does, and a damaged buffer is refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Random } from '../../src/generate/random.ts';
import {
  BlockPostingList,
  decodePostings,
  encodePostings,
  PostingFormatError,
  type BlockPostingList as List,
} from '../../src/search/posting-blocks.ts';
import { ArrayPostingList, END, type PostingCursor } from '../../src/search/posting-list.ts';

const MAX_BIB = 2 ** 31 - 1;
const SIZES = [0, 1, 127, 128, 129, 10_000];

/** Random float32 bits other than NaN's: signs, zeros, subnormals, infinities. */
function randomFloatBits(random: Random): number {
  for (;;) {
    const bits = Math.floor(random.next() * 2 ** 32);
    if ((bits & 0x7f800000) !== 0x7f800000 || (bits & 0x7fffff) === 0) return bits;
  }
}

type WeightKind = 'few' | 'random' | 'per block';

/** `n` bibs, strictly ascending from 0 to 2^31 - 1, with gaps from 1 to the most that still fits. */
function randomList(random: Random, n: number, kind: WeightKind): { bibs: Int32Array; weights: Float32Array } {
  const bibs = new Int32Array(n);
  let previous = -1;
  for (let i = 0; i < n; i++) {
    const room = Math.floor((MAX_BIB - previous) / (n - i));
    const roll = random.next();
    const most = roll < 0.6 ? 3 : roll < 0.9 ? 2000 : room;
    previous += random.int(1, Math.min(most, room));
    bibs[i] = previous;
  }
  const weights = new Float32Array(n);
  const bits = new Uint32Array(weights.buffer);
  const few = [1, 2.5, 3, 0.1, 12].map(Math.fround);
  for (let i = 0; i < n; i++) {
    if (kind === 'few') weights[i] = random.pick(few);
    else if (kind === 'random') bits[i] = randomFloatBits(random);
    else weights[i] = Math.fround((Math.floor(i / 128) % 7) + 1 + random.int(0, (Math.floor(i / 128) % 9) + 1) / 8);
  }
  return { bibs, weights };
}

function bitsOf(weights: Float32Array): Uint32Array {
  return new Uint32Array(weights.buffer, weights.byteOffset, weights.length);
}

function roundTrip(bibs: Int32Array, weights: Float32Array): void {
  const back = decodePostings(encodePostings(bibs, weights));
  assert.deepEqual(back.bibs, bibs);
  assert.deepEqual(bitsOf(back.weights), bitsOf(weights));
}

describe('posting blocks: encoding', () => {
  it('gives back random lists bit for bit', () => {
    const random = new Random(1);
    for (const n of SIZES)
      for (const kind of ['few', 'random', 'per block'] as const)
        for (let trial = 0; trial < (n < 1000 ? 20 : 3); trial++) {
          const { bibs, weights } = randomList(random, n, kind);
          roundTrip(bibs, weights);
        }
  });

  it('gives back the widest gaps and the ends of the bib range', () => {
    const w = (...values: number[]) => new Float32Array(values);
    roundTrip(new Int32Array([0]), w(1));
    roundTrip(new Int32Array([MAX_BIB]), w(1));
    roundTrip(new Int32Array([0, MAX_BIB]), w(1, 2));
    roundTrip(new Int32Array([1, MAX_BIB]), w(-0, 0));
    roundTrip(new Int32Array([0, 2 ** 31 - 2, MAX_BIB]), w(Infinity, -Infinity, 1e-45));
    // A list's last bib at a block's end, then one bib in a block of its own a widest gap away.
    const bibs = Int32Array.from({ length: 129 }, (_, i) => i);
    bibs[128] = MAX_BIB;
    roundTrip(bibs, new Float32Array(129).fill(3));
  });

  it('packs each block’s weights in as few bits as its distinct weights need', () => {
    const bibs = Int32Array.from({ length: 128 }, (_, i) => i * 3);
    const size = (distinct: number) =>
      encodePostings(
        bibs,
        Float32Array.from({ length: 128 }, (_, i) => i % distinct),
      ).length;
    // One weight: no index; two: a bit each (16 bytes); 128: 7 bits each (112 bytes) and 127 more floats.
    assert.equal(size(2) - size(1), 16 + 4);
    assert.equal(size(128) - size(1), 112 + 127 * 4);
    for (const distinct of [2, 3, 4, 5, 17, 64, 65, 127, 128]) {
      const weights = Float32Array.from({ length: 128 }, (_, i) => (i * 7) % distinct);
      roundTrip(bibs, weights);
    }
  });

  it('refuses bibs out of order or out of range, and unequal lengths', () => {
    assert.throws(() => encodePostings(new Int32Array([3, 3]), new Float32Array(2)), RangeError);
    assert.throws(() => encodePostings(new Int32Array([4, 3]), new Float32Array(2)), RangeError);
    assert.throws(() => encodePostings(new Int32Array([-1, 3]), new Float32Array(2)), RangeError);
    assert.throws(() => encodePostings(new Int32Array([1, 3]), new Float32Array(1)), RangeError);
  });
});

/** Where a bib (or the first after it) is in the list, and its block's last bib and largest weight. */
function expectedRun(bibs: Int32Array, weights: Float32Array, bib: number): [max: number, last: number] {
  if (bib === END) return [0, END];
  const at = bibs.indexOf(bib);
  const from = at - (at % 128);
  const to = Math.min(bibs.length, from + 128);
  let max = weights[from]!;
  for (let i = from; i < to; i++) if (weights[i]! > max) max = weights[i]!;
  return [max, bibs[to - 1]!];
}

function same(block: PostingCursor, plain: PostingCursor, bibs: Int32Array, weights: Float32Array, step: string): void {
  assert.equal(block.bib, plain.bib, step);
  assert.ok(Object.is(block.weight, plain.weight), `${step}: weight ${block.weight} against ${plain.weight}`);
  const [max, last] = expectedRun(bibs, weights, block.bib);
  assert.ok(Object.is(block.runMax(), max), `${step}: runMax ${block.runMax()} against ${max}`);
  assert.equal(block.runLast(), last, step);
}

describe('posting blocks: cursor', () => {
  it('walks and seeks as the plain arrays’ cursor does', () => {
    const random = new Random(2);
    for (const n of SIZES)
      for (const kind of ['few', 'random', 'per block'] as const)
        for (let trial = 0; trial < (n < 1000 ? 10 : 3); trial++) {
          const { bibs, weights } = randomList(random, n, kind);
          const block = new BlockPostingList(encodePostings(bibs, weights)).cursor();
          const plain = new ArrayPostingList(bibs, weights).cursor();
          same(block, plain, bibs, weights, 'at the start');
          const last = n > 0 ? bibs[n - 1]! : 0;
          for (let step = 0; step < 3 * Math.min(n, 500) + 20; step++) {
            const roll = random.next();
            let action: string;
            if (roll < 0.4) {
              block.next();
              plain.next();
              action = 'next';
            } else {
              const target =
                roll < 0.55
                  ? random.int(Math.max(0, block.bib - 50_000), Math.min(block.bib, last)) // backwards or where it is
                  : roll < 0.7
                    ? Math.min(END, block.bib + random.int(1, 300)) // a short way on
                    : roll < 0.75
                      ? (bibs[random.int(0, Math.max(0, n - 1))] ?? 0) // a bib in the list
                      : roll < 0.97
                        ? random.int(0, last + 1) // anywhere
                        : random.pick([last + 1, END - 1, END]); // past the end
              const before = block.bib;
              block.seek(target);
              plain.seek(target);
              if (target <= before) assert.equal(block.bib, before, `seek(${target}) from ${before} moved back`);
              action = `seek(${target}) from ${before}`;
            }
            same(block, plain, bibs, weights, `n ${n}, ${kind}, step ${step}: ${action}`);
          }
        }
  });

  it('stays at END once there, whatever it is asked', () => {
    const bibs = new Int32Array([5, 9]);
    const cursor = new BlockPostingList(encodePostings(bibs, new Float32Array([1, 2]))).cursor();
    cursor.seek(10);
    assert.equal(cursor.bib, END);
    for (const move of [() => cursor.next(), () => cursor.seek(3), () => cursor.seek(END + 1)]) {
      move();
      assert.deepEqual([cursor.bib, cursor.weight, cursor.runMax(), cursor.runLast()], [END, 0, 0, END]);
    }
    const empty = new BlockPostingList(encodePostings(new Int32Array(0), new Float32Array(0)));
    assert.deepEqual([empty.length, empty.maxWeight, empty.cursor().bib], [0, 0, END]);
  });

  it('answers its length and largest weight from the headers alone', () => {
    const { bibs, weights } = randomList(new Random(3), 1000, 'per block');
    const list: List = new BlockPostingList(encodePostings(bibs, weights));
    assert.equal(list.length, 1000);
    assert.equal(list.maxWeight, new ArrayPostingList(bibs, weights).maxWeight);
  });

  it('decodes only the blocks a seek lands in', () => {
    const { bibs, weights } = randomList(new Random(4), 10_000, 'few');
    const list = new BlockPostingList(encodePostings(bibs, weights));
    const entered: number[] = [];
    const decodeBibs = list.decodeBibs.bind(list);
    list.decodeBibs = (k, ...rest) => (entered.push(k), decodeBibs(k, ...rest));
    const cursor = list.cursor();
    cursor.seek(bibs[5000]!);
    cursor.seek(bibs[5001]!);
    cursor.seek(bibs[9999]!);
    assert.deepEqual(entered, [0, Math.floor(5000 / 128), Math.floor(9999 / 128)]);
  });
});

/** Decodes every block; answers the error, or the list when none. */
function readAll(buffer: Uint8Array): Error | { bibs: Int32Array; weights: Float32Array } {
  try {
    return decodePostings(buffer);
  } catch (error) {
    return error as Error;
  }
}

describe('posting blocks: damaged buffers', () => {
  const { bibs, weights } = randomList(new Random(5), 1000, 'few');
  const good = encodePostings(bibs, weights);

  it('refuses every truncation', () => {
    for (let length = 0; length < good.length; length++) {
      const answer = readAll(good.slice(0, length));
      assert.ok(
        answer instanceof PostingFormatError,
        `truncated to ${length} of ${good.length}: ${answer instanceof Error ? answer.message : 'decoded whole'}`,
      );
    }
  });

  it('refuses a wrong version, counts, offsets or a runaway bib gap', () => {
    const damaged = (at: number, ...bytes: number[]) => {
      const copy = good.slice();
      copy.set(bytes, at);
      return copy;
    };
    const refused = (buffer: Uint8Array, why: RegExp) => assert.throws(() => decodePostings(buffer), why);
    // 1,000 postings: the version, 2 bytes of count (0xe8 0x07), 8 blocks' last bibs (from 3),
    // largest weights (from 35) and data starts of blocks 1 to 7 (from 67), data from 95.
    assert.deepEqual([...good.subarray(0, 3)], [1, 0xe8, 0x07]);
    refused(damaged(0, 2), /format version 2/);
    refused(damaged(1, 0xe9), /block 7: /);
    refused(damaged(1, 0xff, 0xff, 0xff, 0x07), /block headers do not fit/);
    refused(damaged(1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), /count of postings runs past its head/);
    refused(damaged(1, 0), new RegExp(`no postings but ${good.length - 2} bytes of them`));
    refused(damaged(67 + 4, 0xff, 0xff, 0, 0), /block 2's data at 65535 past the buffer's end/);
    refused(damaged(67 + 4, 1, 0, 0, 0), /block 2's data offset 1 out of order/);
    refused(damaged(3, 0xff, 0xff, 0xff, 0x7f), /block 1's last bib .* out of order/);
    refused(damaged(good.length - 6, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), /longer than 5 bytes|past its end/);
    refused(good.slice(0, good.length - 1), /bibs past its end/);
  });

  it('refuses a block that is not what its header says', () => {
    // Small lists, one block each: 2 bytes of head and 8 of header, then the block's data.
    const encoded = (bibs: number[], weights: number[]) => encodePostings(new Int32Array(bibs), new Float32Array(weights));
    const refused = (buffer: Uint8Array, why: RegExp) => assert.throws(() => decodePostings(buffer), why);
    const one = encoded([5], [1]); // data: 1 weight, its 4 bytes, the gap 6 in one byte
    assert.deepEqual([...one.subarray(10)], [1, 0, 0, 0x80, 0x3f, 6]);
    refused(Uint8Array.from([...one, 0]), /1 bytes left over/);
    refused(Uint8Array.from([...one.subarray(0, 15), 0x86, 0x80, 0x80, 0x80, 0x80, 0]), /longer than 5 bytes/);
    const maxDamaged = one.slice();
    new DataView(maxDamaged.buffer).setFloat32(6, 2, true);
    refused(maxDamaged, /largest weight 1, its header says 2/);
    const three = encoded([10, 11, 12], [1, 1, 1]); // gaps 11, 1, 1
    assert.deepEqual([...three.subarray(15)], [11, 1, 1]);
    const longer = three.slice();
    longer[17] = 2;
    refused(longer, /last bib 13, its header says 12/);
    three.set([0, 2], 16); // the same last bib, through a gap of 0
    refused(three, /bib 10 out of order/);
    const indexed = encoded([1, 2, 3, 4], [1, 2, 3, 1]); // 3 weights: indexes 0, 1, 2, 0 in 2 bits each
    assert.equal(indexed[10 + 1 + 12], 0b00_10_01_00);
    indexed[10 + 1 + 12] = 0b11_10_01_00;
    refused(indexed, /weight index 3 of 3/);
  });

  it('never answers a list out of order or of another length, however its bytes are changed', () => {
    const random = new Random(6);
    let refused = 0;
    for (let trial = 0; trial < 3000; trial++) {
      const copy = good.slice();
      for (let k = random.int(1, 3); k > 0; k--) copy[random.int(0, copy.length - 1)] = random.int(0, 255);
      const answer = readAll(copy);
      if (answer instanceof Error) {
        assert.ok(answer instanceof PostingFormatError, String(answer));
        refused++;
        continue;
      }
      assert.equal(answer.bibs.length, 1000);
      for (let i = 1; i < 1000; i++) assert.ok(answer.bibs[i]! > answer.bibs[i - 1]!, `trial ${trial}: bib ${i} out of order`);
      assert.ok(answer.bibs[0]! >= 0, `trial ${trial}: a negative bib`);
    }
    // Most changes are caught: only a changed weight other than a block's largest, or one
    // changed index, goes unseen.
    assert.ok(refused > 2000, `${refused} of 3000 refused`);
  });
});
