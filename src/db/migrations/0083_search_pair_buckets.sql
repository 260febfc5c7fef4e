-- Every bib is indexed again (by a running server, or `carrel search reindex` at once): the word
-- pairs of its text are now keys again, spread over a fixed number of lists ("*"1c7"), which a
-- quoted phrase and a title compared with the search's words read to narrow the texts they check.
-- Until the indexer reaches a bib, a quoted phrase does not find it.
insert into search_queue (bib_id)
select id from bibs
where deleted_date is null
on conflict do nothing;
