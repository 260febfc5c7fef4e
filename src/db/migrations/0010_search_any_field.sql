-- Search keys for every field at once ("*:war", "*~war": see src/search/document.ts), and how many
-- bibs each "*~" key marks, kept by the indexer in the same transaction as the postings: the match
-- count of a one-word search, without counting a list that may hold a tenth of the catalogue.
alter table search_terms add column df integer not null default 0;

-- Every bib is indexed again (by the server within seconds of starting, or `carrel search reindex`)
-- so that it gains the new keys.
insert into search_queue (bib_id) select id from bibs on conflict do nothing;
