-- Search keys for every field at once ("*:war", "*~war": see src/search/document.ts), and how many
-- bibs each "*~" key marks, kept by the indexer in the same transaction as the postings: the match
-- count of a one-word search, without counting a list that may hold a tenth of the catalogue.
alter table search_terms add column df integer not null default 0;

-- Every bib is indexed again (by a running server, or `carrel search reindex`) so that it gains the
-- new keys; the old entries go first, since the indexer now finds a bib's postings through its doc.
truncate search_postings, search_docs;
insert into search_queue (bib_id) select id from bibs on conflict do nothing;

-- A bib is looked up in a list by (term_id, bib_id) for its weight: with the weight in the index
-- that is one index probe, where the impact index would read the term's list up to the bib.
alter table search_postings drop constraint search_postings_pkey;
alter table search_postings add constraint search_postings_pkey primary key (term_id, bib_id) include (weight);

-- The totals of searches of several words, kept while none of the words' lists changes: a word's
-- version goes up whenever a bib joins or leaves its "*~" list (in the indexer's transaction).
alter table search_terms add column version integer not null default 0;
create table search_counts (
  search text primary key,
  versions integer[] not null,
  total integer not null,
  counted timestamptz not null
);

-- A bib's postings are found through the key ids its doc lists, not through an index of postings
-- by bib: that index cost every posting a third index entry, a third of the indexer's work.
alter table search_docs add column terms integer[] not null default '{}';
drop index search_postings_bib;
