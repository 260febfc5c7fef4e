-- Every bib with a main title of two words or more is indexed again (by a running server, or
-- `carrel search reindex` at once): its title's first two words are now a key of their own
-- ("*=world history"), the list a search of several words draws the titles that are it or start
-- with it from, so that they rank first however light their words weigh elsewhere. Until the
-- indexer reaches a bib, its title may be left beyond the first pool of such a search.
insert into search_queue (bib_id)
select id from bibs
where deleted_date is null
on conflict do nothing;
