// A key's posting list kept compressed, in blocks of up to 128 postings, as one byte buffer: what a
// process holds in memory (list-cache.ts) in place of the database's rows, a thirtieth of their
// size on real records. Each block's last bib and largest weight sit in a header outside the block
// data, so a cursor skips a block by its header without decoding it, and decodes only the blocks
// it enters.
//
// The buffer, every number little-endian:
//
//   size        what
//   1           format version, FORMAT_VERSION
//   1 to 5      the postings n, unsigned LEB128 (below): b = ceil(n / 128) blocks, each of 128
//               postings but the last, which holds the rest
//   4 × b       block headers, each block's last bib (i32)
//   4 × b       then each block's largest weight (f32)
//   4 × (b-1)   then where each block's data starts (u32), counted from the block data's start,
//               for every block but the first, whose data starts there
//   the rest    block data, each block's from its start up to the next one's (the last block's up
//               to the buffer's end):
//                            u8        d, its distinct weights (1 to the block's postings)
//                            4 × d     the distinct weights, f32, each as stored
//                            packed    each posting's weight as an index into them, in
//                                      ceil(log2 d) bits, lowest bits first, padded to a byte
//                                      (no bytes at all when d is 1: most blocks have one weight)
//                            varints   each posting's bib less the bib before it (for a block's
//                                      first, the previous block's last bib, and -1 before the
//                                      first block), unsigned LEB128: 7 bits a byte, lowest first
//
// Bib ids are 0 to 2^31 - 1, strictly ascending. A weight comes back with the bits it went in with.
// Most keys have a few postings, so a list's fixed cost is kept small: 1 + 1 + 8 bytes of head and
// header, 5 of a block's one weight, then a byte or so a posting.
import { END, firstAtLeast, type PostingCursor, type PostingList, type Runs } from './posting-list.ts';
import { writeVarint } from './varint.ts';

export const FORMAT_VERSION = 1;
export const BLOCK_SIZE = 128;
/** Header bytes a block: its last bib, its largest weight and (but the first) its data's start. */
const BLOCK_HEAD_BYTES = 12;
/** The most postings a list may hold (so its count takes at most 5 bytes). */
const MAX_POSTINGS = 2 ** 31;

/** A buffer that is not a posting list of this format: truncated, corrupted or of another version. */
export class PostingFormatError extends Error {
  constructor(what: string) {
    super(`malformed posting list: ${what}`);
    this.name = 'PostingFormatError';
  }
}

/** Encodes a list: `bibs` strictly ascending, 0 to 2^31 - 1, with a weight each. */
export function encodePostings(bibs: Int32Array, weights: Float32Array): Uint8Array {
  const n = bibs.length;
  if (weights.length !== n) throw new RangeError(`${n} bibs but ${weights.length} weights`);
  if (n > MAX_POSTINGS) throw new RangeError(`${n} postings, more than a list holds`);
  const blocks = Math.ceil(n / BLOCK_SIZE);
  const wbits = new Uint32Array(weights.buffer, weights.byteOffset, n);
  // The most a list can take: each posting a 5-byte varint, a 4-byte distinct weight and an index byte.
  const out = new Uint8Array(6 + blocks * (BLOCK_HEAD_BYTES + 1) + n * 10);
  const view = new DataView(out.buffer);
  out[0] = FORMAT_VERSION;
  let p = writeVarint(out, 1, n);
  const lastsAt = p;
  const maxesAt = lastsAt + 4 * blocks;
  const startsAt = maxesAt + 4 * blocks - 4; // block k's start at startsAt + 4k, from k = 1
  const dataStart = maxesAt + 8 * blocks - (blocks > 0 ? 4 : 0);
  p = dataStart;
  let previous = -1;
  const slot = new Map<number, number>();
  const distinct: number[] = [];
  for (let k = 0; k < blocks; k++) {
    const from = k * BLOCK_SIZE;
    const to = Math.min(n, from + BLOCK_SIZE);
    slot.clear();
    distinct.length = 0;
    let max = weights[from]!;
    for (let i = from; i < to; i++) {
      if (!slot.has(wbits[i]!)) slot.set(wbits[i]!, distinct.push(wbits[i]!) - 1);
      if (weights[i]! > max) max = weights[i]!;
    }
    view.setInt32(lastsAt + 4 * k, bibs[to - 1]!, true);
    view.setFloat32(maxesAt + 4 * k, max, true);
    if (k > 0) view.setUint32(startsAt + 4 * k, p - dataStart, true);
    out[p++] = distinct.length;
    for (const bits of distinct) {
      view.setUint32(p, bits, true);
      p += 4;
    }
    const width = indexBits(distinct.length);
    if (width > 0) {
      let acc = 0;
      let held = 0;
      for (let i = from; i < to; i++) {
        acc |= slot.get(wbits[i]!)! << held;
        held += width;
        if (held >= 8) {
          out[p++] = acc & 0xff;
          acc >>>= 8;
          held -= 8;
        }
      }
      if (held > 0) out[p++] = acc;
    }
    for (let i = from; i < to; i++) {
      const bib = bibs[i]!;
      if (bib <= previous) throw new RangeError(`bib ${bib} at ${i} is not above ${previous} (bibs must be ascending, from 0)`);
      p = writeVarint(out, p, bib - previous);
      previous = bib;
    }
  }
  return out.slice(0, p);
}

/** The error for a block that is not what its header says. */
function blockError(k: number, what: string): PostingFormatError {
  return new PostingFormatError(`block ${k}: ${what}`);
}

/** A weight's bits read as the f32 they are (the largest of a block's is checked against its header). */
const WEIGHT = new Float32Array(1);
const WEIGHT_BITS = new Uint32Array(WEIGHT.buffer);

/** The bits an index into `distinct` weights takes: 0 for one, 1 for two, … 7 for 65 to 128. */
function indexBits(distinct: number): number {
  return distinct <= 1 ? 0 : 32 - Math.clz32(distinct - 1);
}

/**
 * A list read from its buffer: the headers are read (and checked) once, each block's data only
 * when a cursor enters it, and checked then.
 */
export class BlockPostingList implements PostingList {
  readonly length: number;
  readonly maxWeight: number;
  /** Per block: its last bib, its largest weight and its data's bounds (in `data`). */
  readonly lastBibs: Int32Array;
  readonly maxWeights: Float32Array;
  readonly starts: Uint32Array;
  readonly data: Uint8Array;

  constructor(readonly buffer: Uint8Array) {
    if (buffer.length < 2) throw new PostingFormatError(`${buffer.length} bytes, shorter than its head`);
    if (buffer[0] !== FORMAT_VERSION) throw new PostingFormatError(`format version ${buffer[0]}, not ${FORMAT_VERSION}`);
    let n = 0;
    let p = 1;
    for (let shift = 1; ; shift *= 0x80) {
      if (p >= buffer.length || shift > 0x10000000) throw new PostingFormatError('its count of postings runs past its head');
      const byte = buffer[p++]!;
      n += (byte & 0x7f) * shift;
      if (byte < 0x80) break;
    }
    if (n > MAX_POSTINGS) throw new PostingFormatError(`${n} postings, more than a list holds`);
    const blocks = Math.ceil(n / BLOCK_SIZE);
    const dataStart = p + blocks * BLOCK_HEAD_BYTES - (blocks > 0 ? 4 : 0);
    if (dataStart > buffer.length) throw new PostingFormatError(`${blocks} block headers do not fit in ${buffer.length} bytes`);
    if (blocks === 0 && dataStart < buffer.length)
      throw new PostingFormatError(`no postings but ${buffer.length - dataStart} bytes of them`);
    const head = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    this.data = buffer.subarray(dataStart);
    this.lastBibs = new Int32Array(blocks);
    this.maxWeights = new Float32Array(blocks);
    this.starts = new Uint32Array(blocks + 1);
    const maxBits = new Uint32Array(this.maxWeights.buffer);
    const maxesAt = p + 4 * blocks;
    const startsAt = maxesAt + 4 * blocks - 4;
    let max = 0;
    for (let k = 0; k < blocks; k++) {
      const last = head.getInt32(p + 4 * k, true);
      const start = k === 0 ? 0 : head.getUint32(startsAt + 4 * k, true);
      if (last < 0 || (k > 0 && last <= this.lastBibs[k - 1]!)) throw new PostingFormatError(`block ${k}'s last bib ${last} out of order`);
      if (k > 0 && start <= this.starts[k - 1]!) throw new PostingFormatError(`block ${k}'s data offset ${start} out of order`);
      if (start >= this.data.length) throw new PostingFormatError(`block ${k}'s data at ${start} past the buffer's end`);
      this.lastBibs[k] = last;
      maxBits[k] = head.getUint32(maxesAt + 4 * k, true);
      this.starts[k] = start;
      if (this.maxWeights[k]! > max) max = this.maxWeights[k]!;
    }
    this.starts[blocks] = this.data.length;
    this.length = n;
    this.maxWeight = max;
  }

  get blocks(): number {
    return this.lastBibs.length;
  }

  /** Block `k`'s postings: 128, but the last block's the rest. */
  count(k: number): number {
    return k < this.lastBibs.length - 1 ? BLOCK_SIZE : this.length - BLOCK_SIZE * k;
  }

  /** What the list holds in memory, in bytes, for a cache's bound. */
  get bytes(): number {
    return this.buffer.byteLength + this.lastBibs.length * (4 + 4 + 4) + 4;
  }

  cursor(): PostingCursor {
    return new BlockCursor(this);
  }

  runs(): Runs {
    return { lasts: this.lastBibs, maxes: this.maxWeights };
  }

  /**
   * Decodes block `k` into `bibs` and `weights` (as bits), `dictionary` a scratch of 128;
   * answers its postings. Throws PostingFormatError where the block is not what its header says.
   */
  decode(k: number, bibs: Int32Array, weights: Uint32Array, dictionary: Uint32Array): number {
    const at = this.decodeBibs(k, bibs, dictionary);
    const count = this.count(k);
    for (let i = 0; i < count; i++) weights[i] = dictionary[this.weightIndex(k, at, i)]!;
    return count;
  }

  /**
   * Decodes block `k`'s bibs into `bibs` and its distinct weights (as bits) into `dictionary`, a
   * scratch of 128; answers where its weights' indexes start in `data`, for weightIndex. A cursor
   * reads the weights of the postings a query scores only: most postings of a walk are passed over.
   */
  decodeBibs(k: number, bibs: Int32Array, dictionary: Uint32Array): number {
    // Every query decodes the blocks it enters again, so the checks are kept off the per-posting
    // path where they can be: a gap of 0 is noted and reported after the loop, a bib past the
    // range is caught by the last bib's check (gaps only add), and the largest weight is the
    // dictionary's. With the weights read only where scored, a block of a common word's list
    // decodes in a fifth of the time it took with a check per posting and every weight.
    const { data, lastBibs } = this;
    const count = this.count(k);
    const end = this.starts[k + 1]!;
    let p = this.starts[k]!;
    const d = data[p++]!;
    if (d < 1 || d > count) throw blockError(k, `${d} distinct weights for ${count} postings`);
    const width = indexBits(d);
    if (p + 4 * d + Math.ceil((count * width) / 8) > end) throw blockError(k, 'weights past its end');
    let max = 0;
    for (let j = 0; j < d; j++, p += 4) {
      WEIGHT_BITS[0] = dictionary[j] = data[p]! | (data[p + 1]! << 8) | (data[p + 2]! << 16) | (data[p + 3]! << 24);
      if (j === 0 || WEIGHT[0]! > max) max = WEIGHT[0]!;
    }
    if (!Object.is(max, this.maxWeights[k])) throw blockError(k, `largest weight ${max}, its header says ${this.maxWeights[k]}`);
    const weightsAt = p;
    p += Math.ceil((count * width) / 8);
    let bib = k === 0 ? -1 : lastBibs[k - 1]!;
    let repeated = false;
    for (let i = 0; i < count; i++) {
      let byte = data[p++]!;
      let delta = byte;
      if (byte >= 0x80) {
        delta = byte & 0x7f;
        for (let shift = 0x80; ; shift *= 0x80) {
          if (p >= end) throw blockError(k, 'bibs past its end');
          byte = data[p++]!;
          delta += (byte & 0x7f) * shift;
          if (byte < 0x80) break;
          if (shift === 0x10000000) throw blockError(k, 'a bib gap longer than 5 bytes');
        }
      }
      if (delta === 0) repeated = true;
      bib += delta;
      bibs[i] = bib;
    }
    // (A one-byte gap is read without a bound: a block that runs past its end is caught here.)
    if (p > end) throw blockError(k, 'bibs past its end');
    if (repeated) {
      const at = bibs.subarray(0, count).findIndex((b, i) => b <= (i === 0 ? (k === 0 ? -1 : lastBibs[k - 1]!) : bibs[i - 1]!));
      throw blockError(k, `bib ${bibs[at]} out of order or range`);
    }
    if (bib !== lastBibs[k]) throw blockError(k, `last bib ${bib}, its header says ${lastBibs[k]}`);
    if (p !== end) throw blockError(k, `${end - p} bytes left over`);
    return weightsAt;
  }

  /**
   * The index into block `k`'s dictionary of its posting `i`'s weight, its indexes starting at
   * `at` (decodeBibs); throws PostingFormatError for an index past the dictionary.
   */
  weightIndex(k: number, at: number, i: number): number {
    const { data } = this;
    const d = data[this.starts[k]!]!;
    const width = indexBits(d);
    if (width === 0) return 0;
    // An index takes at most 7 bits, so it lies within two bytes whatever its bit offset.
    const bit = i * width;
    const p = at + (bit >>> 3);
    const index = ((data[p]! | ((data[p + 1] ?? 0) << 8)) >>> (bit & 7)) & ((1 << width) - 1);
    if (index >= d) throw blockError(k, `weight index ${index} of ${d}`);
    return index;
  }
}

/** Decodes a whole list (tests, and lists read once). */
export function decodePostings(buffer: Uint8Array): { bibs: Int32Array; weights: Float32Array } {
  const list = new BlockPostingList(buffer);
  const bibs = new Int32Array(list.length);
  const weights = new Float32Array(list.length);
  const bits = new Uint32Array(weights.buffer);
  const dictionary = new Uint32Array(BLOCK_SIZE);
  for (let k = 0, at = 0; k < list.blocks; k++) {
    const count = list.count(k);
    list.decode(k, bibs.subarray(at, at + count), bits.subarray(at, at + count), dictionary);
    at += count;
  }
  return { bibs, weights };
}

export class BlockCursor implements PostingCursor {
  private currentBib = END;
  /** The block entered (the list's blocks once past its end), its postings and the one under the cursor. */
  private block = 0;
  private count = 0;
  private i = 0;
  /** Where the block's weights' indexes start (BlockPostingList.weightIndex). */
  private weightsAt = 0;
  // Decoded into again for every block entered: nothing is allocated per block or posting.
  private readonly bibs = new Int32Array(BLOCK_SIZE);
  private readonly dictionary = new Uint32Array(BLOCK_SIZE);
  private readonly dictionaryWeights = new Float32Array(this.dictionary.buffer);

  constructor(private list: BlockPostingList) {
    this.restart(list);
  }

  /**
   * The cursor at the start of another list, its decoding arrays kept: a long list read as its
   * segments (segmented-list.ts) moves one cursor through hundreds of them in a search.
   */
  restart(list: BlockPostingList): this {
    this.list = list;
    this.block = this.count = this.i = 0;
    if (list.blocks > 0) this.enter(0);
    else this.toEnd();
    return this;
  }

  get bib(): number {
    return this.currentBib;
  }

  get weight(): number {
    return this.currentBib === END ? 0 : this.dictionaryWeights[this.list.weightIndex(this.block, this.weightsAt, this.i)]!;
  }

  next(): void {
    if (this.currentBib === END) return;
    if (++this.i < this.count) this.at(this.i);
    else if (this.block + 1 < this.list.blocks) this.enter(this.block + 1);
    else this.toEnd();
  }

  seek(target: number): void {
    // Never back, and nowhere past the end (a target beyond END included).
    if (target <= this.currentBib || this.currentBib === END) return;
    const { lastBibs } = this.list;
    if (target > lastBibs[this.block]!) {
      // The first block after this one whose last bib reaches the target, by the headers alone.
      const lo = firstAtLeast(lastBibs, target, this.block + 1, lastBibs.length);
      if (lo === lastBibs.length) return this.toEnd();
      this.enter(lo);
    }
    // Within the block: its last bib reaches the target, so the search stops inside it. Most
    // seeks of a walk move a few postings on: the next few are looked at before a binary search.
    const { bibs } = this;
    let i = this.i;
    const probed = Math.min(i + 4, this.count - 1);
    while (i < probed && bibs[i]! < target) i++;
    this.at(bibs[i]! >= target ? i : firstAtLeast(bibs, target, i, this.count - 1));
  }

  runMax(): number {
    return this.currentBib === END ? 0 : this.list.maxWeights[this.block]!;
  }

  runLast(): number {
    return this.currentBib === END ? END : this.list.lastBibs[this.block]!;
  }

  private enter(k: number): void {
    this.block = k;
    this.weightsAt = this.list.decodeBibs(k, this.bibs, this.dictionary);
    this.count = this.list.count(k);
    this.at(0);
  }

  private at(i: number): void {
    this.i = i;
    this.currentBib = this.bibs[i]!;
  }

  private toEnd(): void {
    this.block = this.list.blocks;
    this.i = this.count = 0;
    this.currentBib = END;
  }
}
