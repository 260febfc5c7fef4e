-- Quoted phrases rank and count from lists of word pairs ("*~civil war": src/search/document.ts,
-- pairKey). Every bib is indexed again to gain its pairs: a running server does it by itself from
-- the queue (until it has, a phrase may miss bibs not yet indexed again), or run
-- `carrel search reindex`, which builds the whole index at once.
insert into search_queue (bib_id) select id from bibs where deleted_date is null on conflict do nothing;
