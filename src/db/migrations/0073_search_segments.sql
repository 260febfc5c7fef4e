-- Each key's posting list kept compressed, cut into segments of a few hundred postings in bib
-- order, a row each named by its key and last bib (src/search/segments.ts): a list read in a few
-- rows, not a row per posting. The indexer keeps them with the postings; every bib is queued to be
-- indexed again (by a running server, or `carrel search reindex` at once) to fill them.
create table search_segments (
  term_id integer not null,
  last_bib integer not null,
  postings bytea not null,
  primary key (term_id, last_bib)
);

insert into search_queue (bib_id)
select id from bibs
where deleted_date is null
on conflict do nothing;
