// A key's posting list as its segments were read (segments.ts): each segment a list of its own
// (posting-blocks.ts), in bib order, read through one cursor. Reading a long list this way costs
// the segments' headers only, where joining them into one buffer and encoding it again costs
// 10–60 ms in Node for a list of 67,000 postings.
import { BlockCursor, PostingFormatError, type BlockPostingList } from './posting-blocks.ts';
import { END, firstAtLeast, type PostingCursor, type PostingList, type Runs } from './posting-list.ts';

export class SegmentedPostingList implements PostingList {
  readonly length: number;
  readonly maxWeight: number;
  /** Each segment's last bib. */
  readonly lasts: Int32Array;

  /** @param segments in bib order, none empty */
  constructor(readonly segments: readonly BlockPostingList[]) {
    this.lasts = new Int32Array(segments.length);
    let length = 0;
    let max = 0;
    segments.forEach((segment, s) => {
      if (segment.length === 0) throw new PostingFormatError(`segment ${s} is empty`);
      const last = segment.lastBibs[segment.blocks - 1]!;
      if (s > 0 && last <= this.lasts[s - 1]!) throw new PostingFormatError(`segment ${s}'s last bib ${last} out of order`);
      this.lasts[s] = last;
      length += segment.length;
      if (segment.maxWeight > max) max = segment.maxWeight;
    });
    this.length = length;
    this.maxWeight = max;
  }

  /** What the list holds in memory, in bytes, for a cache's bound. */
  get bytes(): number {
    let bytes = 4 * this.lasts.length;
    for (const segment of this.segments) bytes += segment.bytes;
    return bytes;
  }

  cursor(): PostingCursor {
    return new SegmentedCursor(this);
  }

  runs(): Runs {
    let blocks = 0;
    for (const segment of this.segments) blocks += segment.blocks;
    const runs: Runs = { lasts: new Int32Array(blocks), maxes: new Float32Array(blocks) };
    let at = 0;
    for (const segment of this.segments) {
      runs.lasts.set(segment.lastBibs, at);
      runs.maxes.set(segment.maxWeights, at);
      at += segment.blocks;
    }
    return runs;
  }
}

/** A cursor over the segments in turn: a run (PostingCursor.runMax) is a block of the segment it is in. */
class SegmentedCursor implements PostingCursor {
  private segment = -1;
  /** One cursor moved from segment to segment, not one made for each; undefined past the last. */
  private inner: BlockCursor | undefined;

  constructor(private readonly list: SegmentedPostingList) {
    this.enter(0);
  }

  get bib(): number {
    return this.inner?.bib ?? END;
  }

  get weight(): number {
    return this.inner?.weight ?? 0;
  }

  next(): void {
    if (!this.inner) return;
    this.inner.next();
    if (this.inner.bib === END) this.enter(this.segment + 1);
  }

  seek(target: number): void {
    // Never back, and nowhere past the end.
    if (!this.inner || target <= this.inner.bib) return;
    const { lasts } = this.list;
    if (target > lasts[this.segment]!) {
      // The first segment after this one whose last bib reaches the target.
      this.enter(firstAtLeast(lasts, target, this.segment + 1, lasts.length));
      if (!this.inner) return;
    }
    // The segment's last bib reaches the target: the seek stops inside it.
    this.inner.seek(target);
  }

  runMax(): number {
    return this.inner?.runMax() ?? 0;
  }

  runLast(): number {
    return this.inner?.runLast() ?? END;
  }

  private enter(s: number): void {
    this.segment = s;
    // A cursor never goes back: once past the last segment, it stays there.
    const segment = this.list.segments[s];
    this.inner = segment && (this.inner ? this.inner.restart(segment) : new BlockCursor(segment));
  }
}
