-- Bitmaps of the longer stem lists (src/search/bitmaps.ts): a search of several words checks its
-- pool's bibs against them, a bit each, instead of probing each list's B-tree for each bib.
-- A chunk holds the bits of 4,096 bib ids (chunk = bib id / 4096), 512 bytes; chunks with no bit
-- set are not kept. search_terms.bitmap says a key's bitmap is kept, exactly: the indexer updates
-- it in the transaction that changes the key's list, and makes or drops it as the list's length
-- crosses the threshold. Existing indexes start without bitmaps, and search as before (probes);
-- `carrel search reindex` makes them for every list long enough, and the indexer for a list whose
-- length crosses the threshold.
create table search_bitmaps (
  term_id integer not null,
  chunk integer not null,
  bits bytea not null,
  primary key (term_id, chunk)
);

alter table search_terms add column bitmap boolean not null default false;
