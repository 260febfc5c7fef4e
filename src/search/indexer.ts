// Keeps the search index up to date: takes bibs off the queue their writes put them on, in
// batches, each batch one transaction. Several processes may run it at once: each batch claims its
// bibs with SKIP LOCKED. The server runs it a few times a second (so a write is searchable within
// a second); `carrel search reindex` runs it to the end.
import type { Db } from '../db/types.ts';
import { searchDocument, type SearchDocument } from './document.ts';
import * as repo from './index-repository.ts';

export const documentOf = (b: repo.IndexableBib): SearchDocument =>
  searchDocument({
    id: b.id,
    marc: b.marc!,
    isbns: b.isbns,
    issns: b.issns,
    callNumbers: b.call_numbers,
    title: b.title,
    publishYear: b.publish_year,
    materialType: b.material_type,
    lang: b.lang,
  });

const BATCH = 500;

/** Indexes one batch; answers how many bibs it took (0: the queue is empty). */
export async function indexBatch(db: Db, limit = BATCH): Promise<number> {
  return db.transaction(async (tx) => {
    const ids = await repo.takeQueued(tx, limit);
    if (ids.length === 0) return 0;
    const bibs = await repo.readIndexable(tx, ids);
    const docs = bibs.filter((b) => b.searchable && b.marc).map(documentOf);
    await repo.writeIndex(tx, ids, docs);
    return ids.length;
  });
}

/**
 * Indexes until the queue is empty, or until keepGoing says no (asked before each batch: a server
 * shutting down stops after the batch in hand, not after a queue of a million bibs); answers how
 * many bibs it indexed. With two workers one batch's documents are built while another's are
 * written.
 */
export async function drainQueue(
  db: Db,
  onProgress: (done: number) => void = () => {},
  workers = 1,
  keepGoing: () => boolean = () => true,
): Promise<number> {
  let done = 0;
  const work = async () => {
    while (keepGoing()) {
      const n = await indexBatch(db);
      if (n === 0) return;
      done += n;
      onProgress(done);
    }
  };
  await Promise.all(Array.from({ length: workers }, work));
  return done;
}
