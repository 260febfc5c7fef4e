// A key's posting list as the search evaluator reads it in Node: the bibs with the key, in bib id
// order, each with its weight. Read through a cursor that moves forward only, so a list kept
// compressed in blocks (posting-blocks.ts) need not be decoded past what a query asks for, and one
// held as plain arrays (ArrayPostingList, here) reads the same way.

/** A cursor's bib once it has passed the list's last posting: larger than any bib id. */
export const END = 2 ** 31;

/**
 * The first place from `lo` up to (not including) `hi` of ascending `sorted` whose value is at
 * least `target`, or `hi` when none is: the binary search every cursor's seek makes.
 */
export function firstAtLeast(sorted: Int32Array, target: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface PostingCursor {
  /** The bib under the cursor (END once past the last). */
  readonly bib: number;
  /** Its weight (0 at END). */
  readonly weight: number;
  /** Moves to the next posting. */
  next(): void;
  /** Moves to the first posting whose bib is `target` or after it (never back). */
  seek(target: number): void;
  /**
   * The largest weight from the cursor to the end of the run of postings it is in (a block),
   * and that run's last bib: a query can skip a run whose weights cannot lift a bib into its
   * page. A list without runs answers the list's largest weight and its last bib.
   */
  runMax(): number;
  runLast(): number;
}

export interface PostingList {
  /** How many bibs it holds. */
  readonly length: number;
  /** Its largest weight. */
  readonly maxWeight: number;
  /** A new cursor at its first posting. */
  cursor(): PostingCursor;
  /**
   * Its runs (PostingCursor.runMax), in bib order: each one's last bib and largest weight, read
   * without decoding a posting.
   */
  runs(): Runs;
}

/** A list's runs: the last bib and the largest weight of each, in bib order. */
export interface Runs {
  lasts: Int32Array;
  maxes: Float32Array;
}

/** A list held as two arrays in bib order: what a list is decoded to, and what tests build. */
export class ArrayPostingList implements PostingList {
  readonly maxWeight: number;

  constructor(
    readonly bibs: Int32Array,
    readonly weights: Float32Array,
  ) {
    let max = 0;
    for (const w of weights) if (w > max) max = w;
    this.maxWeight = max;
  }

  get length(): number {
    return this.bibs.length;
  }

  cursor(): PostingCursor {
    return new ArrayCursor(this);
  }

  runs(): Runs {
    const n = this.bibs.length;
    return n === 0
      ? { lasts: new Int32Array(0), maxes: new Float32Array(0) }
      : { lasts: Int32Array.of(this.bibs[n - 1]!), maxes: Float32Array.of(this.maxWeight) };
  }
}

class ArrayCursor implements PostingCursor {
  private i = 0;

  constructor(private readonly list: ArrayPostingList) {}

  get bib(): number {
    return this.i < this.list.bibs.length ? this.list.bibs[this.i]! : END;
  }

  get weight(): number {
    return this.i < this.list.bibs.length ? this.list.weights[this.i]! : 0;
  }

  next(): void {
    if (this.i < this.list.bibs.length) this.i++;
  }

  seek(target: number): void {
    // Binary search forward from the cursor: seeks skip far in long lists.
    this.i = firstAtLeast(this.list.bibs, target, this.i, this.list.bibs.length);
  }

  runMax(): number {
    return this.i < this.list.bibs.length ? this.list.maxWeight : 0;
  }

  runLast(): number {
    return this.i < this.list.bibs.length ? this.list.bibs[this.list.bibs.length - 1]! : END;
  }
}

/** A key with no postings (one the index does not hold). */
export const EMPTY_LIST: PostingList = new ArrayPostingList(new Int32Array(0), new Float32Array(0));
