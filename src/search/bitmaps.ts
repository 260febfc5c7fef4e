// Bitmaps of the longer stem lists ("~" keys): one bit per bib id, kept in chunks of CHUNK_BITS ids.
// A search of several words checks each bib of its pool against the other words' lists; a probe of
// a B-tree list costs about 1.5 µs in PostgreSQL, a bit of a bitmap read once per search about
// 0.1 µs, and words seldom found together probe pools of thousands of bibs (bench/HISTORY.md, the
// search sessions of 2026-11-23 and 24).
// The bitmaps live in the database (search_bitmaps), written in the indexer's transaction, so
// every server process reads the same ones. Bit n of a chunk is bit n % 8 of byte n / 8, counted
// from the least significant: PostgreSQL's get_bit on bytea reads them so.

/** Bib ids a chunk covers: 512 bytes, small enough to rewrite for each batch that touches it. */
export const CHUNK_BITS = 4096;
export const CHUNK_BYTES = CHUNK_BITS / 8;

/** Lists shorter than this never get a bitmap: a pool drawn from them is small enough to probe. */
const MIN_DF = 16;

/** A list gets a bitmap when its bitmap would cost at most this many bytes per entry. */
const BYTES_PER_ENTRY = 64;

/**
 * The length from which a list gets a bitmap, in a catalogue whose bib ids span `span` ids: its
 * bitmap then costs at most BYTES_PER_ENTRY bytes an entry (at a million bibs, lists of 1,954 bibs
 * and more: about 4,000 lists, 500 MB). A list keeps its bitmap until it is half as long again, so
 * that a list near the threshold does not make and drop it batch after batch.
 */
export function bitmapThreshold(span: number): number {
  return Math.max(MIN_DF, Math.ceil(span / (8 * BYTES_PER_ENTRY)));
}

export const chunkOf = (bibId: number): number => Math.floor(bibId / CHUNK_BITS);

/** Sets or clears bit n of a chunk (n = bib id - the chunk's first id). */
function setBit(bits: Buffer, n: number, on: boolean): void {
  if (on) bits[n >> 3]! |= 1 << (n & 7);
  else bits[n >> 3]! &= ~(1 << (n & 7));
}

/** Sets (on) or clears the bits of these bibs, all in the chunk `chunk`. */
export function setBits(bits: Buffer, chunk: number, bibIds: Iterable<number>, on: boolean): void {
  const first = chunk * CHUNK_BITS;
  for (const id of bibIds) {
    const n = id - first;
    if (n < 0 || n >= CHUNK_BITS) throw new RangeError(`bib ${id} is not in chunk ${chunk}`);
    setBit(bits, n, on);
  }
}

/** Whether no bit of a chunk is set (such chunks are not kept). */
export const isEmpty = (bits: Buffer): boolean => bits.every((byte) => byte === 0);

/** The chunks of a list's bitmap, from its bib ids. */
export function chunksOf(bibIds: Iterable<number>): Map<number, Buffer> {
  const chunks = new Map<number, Buffer>();
  for (const id of bibIds) {
    const chunk = chunkOf(id);
    let bits = chunks.get(chunk);
    if (!bits) chunks.set(chunk, (bits = Buffer.alloc(CHUNK_BYTES)));
    setBit(bits, id - chunk * CHUNK_BITS, true);
  }
  return chunks;
}

/** The bib ids of a list, each an 8-byte big-endian integer (as PostgreSQL's int8send writes them). */
export function* bibIdsOf(packed: Buffer): Generator<number> {
  for (let i = 0; i + 8 <= packed.length; i += 8) yield packed.readUInt32BE(i) * 2 ** 32 + packed.readUInt32BE(i + 4);
}
