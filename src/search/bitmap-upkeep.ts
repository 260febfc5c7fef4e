// Keeps the stem lists' bitmaps (bitmaps.ts) exact as the indexer changes the lists, in the same
// transaction, after it has locked the lists' keys: another indexer changing the same lists waits,
// and then reads these bitmaps as this transaction left them.
import type { Queryable } from '../db/types.ts';
import * as repo from './bitmap-repository.ts';
import { bibIdsOf, bitmapThreshold, CHUNK_BYTES, chunkOf, chunksOf, setBits } from './bitmaps.ts';

/** A stem key whose list this transaction changed, as it is now. */
export interface ChangedList {
  id: number;
  df: number;
  bitmap: boolean;
}

/** What this transaction took out of and put into the lists, by key id (bib ids, as the database gives them). */
export interface ListChanges {
  removed: Map<number, string[]>;
  added: Map<number, string[]>;
}

export async function updateBitmaps(tx: Queryable, lists: ChangedList[], changes: ListChanges): Promise<void> {
  if (lists.length === 0) return;
  const threshold = bitmapThreshold(await repo.idSpan(tx));
  const drop = lists.filter((l) => l.bitmap && l.df < threshold / 2).map((l) => l.id);
  const make = lists.filter((l) => !l.bitmap && l.df >= threshold);
  const keep = lists.filter((l) => l.bitmap && l.df >= threshold / 2).map((l) => l.id);
  await repo.dropBitmaps(tx, drop);
  // Made from the whole list, as this transaction leaves it (its own changes in it).
  await makeBitmaps(tx, make, repo.INDEX_TABLES);
  // The others' touched chunks, read, changed (what went out first: a bib indexed again leaves
  // and rejoins its lists) and written back.
  const touched = new Map<string, { termId: number; chunk: number; off: number[]; on: number[] }>();
  const touch = (termId: number, ids: string[] | undefined, side: 'off' | 'on') => {
    for (const id of (ids ?? []).map(Number)) {
      const chunk = chunkOf(id);
      const key = repo.chunkKey(termId, chunk);
      let t = touched.get(key);
      if (!t) touched.set(key, (t = { termId, chunk, off: [], on: [] }));
      t[side].push(id);
    }
  };
  for (const termId of keep) {
    touch(termId, changes.removed.get(termId), 'off');
    touch(termId, changes.added.get(termId), 'on');
  }
  if (touched.size === 0) return;
  const kept = await repo.readChunks(tx, [...touched.values()]);
  await repo.writeChunks(
    tx,
    [...touched].map(([key, t]) => {
      const bits = kept.get(key) ?? Buffer.alloc(CHUNK_BYTES);
      setBits(bits, t.chunk, t.off, false);
      setBits(bits, t.chunk, t.on, true);
      return { termId: t.termId, chunk: t.chunk, bits };
    }),
  );
}

/** Postings read back per statement when bitmaps are made whole (about 16 MB of packed ids). */
const READ_POSTINGS = 2_000_000;
/** Chunks written per statement (about 20 MB as hex text). */
const WRITE_CHUNKS = 20_000;

/**
 * Makes the bitmaps of these lists (key id and length) in `tables` (the index's, or a rebuild's),
 * each from its whole list read back packed, lists of about READ_POSTINGS postings together, and
 * marks their keys as having them.
 */
export async function makeBitmaps(db: Queryable, lists: { id: number; df: number }[], tables: repo.BitmapTables): Promise<void> {
  let start = 0;
  while (start < lists.length) {
    // At least one list a statement, however long.
    let end = start + 1;
    for (let postings = lists[start]!.df; end < lists.length && postings + lists[end]!.df <= READ_POSTINGS; end++)
      postings += lists[end]!.df;
    const chunks: repo.Chunk[] = [];
    for (const [termId, packed] of await repo.packedBibIds(
      db,
      lists.slice(start, end).map((l) => l.id),
      tables,
    )) {
      for (const [chunk, bits] of chunksOf(bibIdsOf(packed))) chunks.push({ termId, chunk, bits });
    }
    for (let i = 0; i < chunks.length; i += WRITE_CHUNKS) await repo.writeChunks(db, chunks.slice(i, i + WRITE_CHUNKS), tables);
    await repo.markBitmaps(
      db,
      lists.slice(start, end).map((l) => l.id),
      tables,
    );
    start = end;
  }
}
