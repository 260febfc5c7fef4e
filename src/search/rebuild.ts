// `carrel search reindex`: the whole search index built again beside the one in use, then swapped
// in. The indexer (indexer.ts) keeps an index current a few bibs at a time, each entry added to
// indexes that are already large; built whole, the documents go into a table without indexes and
// each index is made in one sorted pass, several times faster, and the postings into a scratch
// table that PostgreSQL sorts into key order, from which each key's list is cut into its
// compressed segments (the build never holds every posting in memory). Searches go on meanwhile,
// against the old index.
import { horizon } from '../db/change-clock.ts';
import { LOCK_KEYS } from '../db/lock-keys.ts';
import type { Db } from '../db/types.ts';
import { documentOf } from './indexer.ts';
import * as tables from './rebuild-repository.ts';
import { indexRows, writeDocs, writePostings } from './index-repository.ts';
import { replaceSegments } from './segment-repository.ts';
import { cutSegments } from './segments.ts';

/** Bibs read and written at a time: the next page is read while this one is written. */
const PAGE = 2000;

export type RebuildProgress = { phase: 'documents'; done: number } | { phase: 'indexes'; step: string };

function grown(counts: Int32Array): Int32Array {
  const bigger = new Int32Array(counts.length * 2);
  bigger.set(counts);
  return bigger;
}

/** How many bibs a rebuild indexes (those search shows): the length of its progress. */
export function countSearchable(db: Db): Promise<number> {
  return tables.countSearchable(db);
}

/** Another rebuild of the same database is running (it holds LOCK_KEYS.rebuild). */
export class RebuildRunningError extends Error {
  constructor() {
    super('another carrel search reindex is running on this database; wait for it to finish');
  }
}

/**
 * Builds the index of every searchable bib and swaps it in; answers how many bibs it holds. The
 * build waits for onProgress when it answers a promise. One rebuild at a time: while one runs,
 * another refuses to start (RebuildRunningError) instead of dropping the first one's tables.
 */
export async function rebuildIndex(db: Db, onProgress: (progress: RebuildProgress) => void | Promise<void> = () => {}): Promise<number> {
  const release = await db.tryLock(LOCK_KEYS.rebuild);
  if (!release) throw new RebuildRunningError();
  try {
    return await build(db, onProgress);
  } finally {
    await release();
  }
}

/** Keys whose lists are read back and cut into segments at a time, at most. */
const SEGMENT_KEYS = 5000;
/**
 * Postings read back at a time, at most (a longer list alone): about 27 MB of text as it arrives,
 * its 16 MB decoded and its segments. The first keys numbered are the commonest words, so counting
 * keys alone let one read hold tens of millions of postings.
 */
const SEGMENT_POSTINGS = 2_000_000;

/**
 * Every key's list cut into segments (segments.ts), from the postings read back in key and bib
 * order; lengths[id] is key id's number of postings.
 */
async function makeSegments(db: Db, keys: number, lengths: Int32Array): Promise<void> {
  for (let first = 1; first <= keys;) {
    let last = first;
    let postings = lengths[first]!;
    while (last < keys && last - first + 1 < SEGMENT_KEYS && postings + lengths[last + 1]! <= SEGMENT_POSTINGS)
      postings += lengths[++last]!;
    const segments = (await tables.buildLists(db, first, last)).flatMap((l) => cutSegments(l.termId, l.bibs, l.weights));
    await replaceSegments(db, [], segments, tables.BUILD.segments);
    first = last + 1;
  }
}

async function build(db: Db, onProgress: (progress: RebuildProgress) => void | Promise<void>): Promise<number> {
  // Every bib written before this moment is committed, so the pages below read it; a bib written
  // after it may have been read as it was before, so it is queued for the indexer at the swap.
  const since = await horizon(db);
  await tables.createBuildTables(db);
  try {
    const termIds = new Map<string, number>();
    /** Bibs per counted key (KEY.isCounted), by key id: the one-word match counts (search_terms.df). */
    let df: Int32Array = new Int32Array(1 << 16);
    /** Postings per key, by key id: how many keys' lists makeSegments reads back at a time. */
    let lengths: Int32Array = new Int32Array(df.length);
    let indexed = 0;
    let writing: Promise<void> = Promise.resolve();
    let reading = tables.readSearchablePage(db, '0', PAGE);
    for (;;) {
      const bibs = await reading;
      if (bibs.length === 0) break;
      reading = tables.readSearchablePage(db, bibs[bibs.length - 1]!.id, PAGE);
      reading.catch(() => {}); // handled where it is awaited
      // Every doc at version 0: the swapped-in docs table is another generation, which each
      // process's facet columns (facet-columns.ts) read whole.
      const rows = indexRows(
        bibs.filter((b) => b.marc).map(documentOf),
        0,
        (key) => {
          let id = termIds.get(key);
          if (id === undefined) {
            termIds.set(key, (id = termIds.size + 1));
            if (id >= df.length) [df, lengths] = [grown(df), grown(lengths)];
          }
          return id;
        },
        (id) => df[id]!++,
      );
      for (const id of rows.postings.termIds) lengths[id]!++;
      await writing;
      writing = Promise.all([writePostings(db, rows.postings, tables.BUILD.postings), writeDocs(db, rows.docs, tables.BUILD.docs)]).then(
        () => {},
      );
      writing.catch(() => {}); // handled where it is awaited
      indexed += rows.docs.length;
      await onProgress({ phase: 'documents', done: indexed });
    }
    await writing;
    await tables.writeBuildTerms(db, termIds, df);
    await onProgress({ phase: 'indexes', step: 'vacuuming' });
    await tables.vacuumBuildTables(db);
    await tables.indexBuildTables(db, (step) => void onProgress({ phase: 'indexes', step }));
    await onProgress({ phase: 'indexes', step: 'compressed lists' });
    await makeSegments(db, termIds.size, lengths);
    await tables.dropBuildPostings(db);
    await onProgress({ phase: 'indexes', step: 'swapping in' });
    await tables.swapInBuild(db, since);
    // The new index is in place: a vacuum that fails leaves only space to be taken back later
    // (by the server's own vacuum, or autovacuum), not a failed rebuild.
    await tables.vacuumQueue(db).catch(() => {});
    return indexed;
  } catch (error) {
    await tables.dropBuildTables(db).catch(() => {});
    throw error;
  }
}
