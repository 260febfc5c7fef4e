-- The search index (issue 4), in the database so every server process shares one index.
--
-- Terms are field-scoped keys: "t:war" is the word "war" in a title, "t~histori" a title word
-- whose stem is "histori", "i:9780141439518" a standard number. A posting says how strongly a
-- key marks a bib (its field's weight, more for repeats). Postings are kept in impact order per
-- key, so the best bibs for a key are an index range scan away, however common the word.
create table search_terms (
  id integer generated always as identity primary key,
  key text not null unique
);

-- No foreign keys: postings are derived data that only the indexer writes, and checking two keys
-- for each of a bib's hundred-odd postings would double the cost of indexing.
create table search_postings (
  term_id integer not null,
  bib_id bigint not null,
  weight real not null,
  primary key (term_id, bib_id)
);
create index search_postings_impact on search_postings (term_id, weight desc, bib_id);
create index search_postings_bib on search_postings (bib_id);

-- What ranking and the result page need of each searchable bib, folded: its title, and all its
-- indexed words in order (for phrases), with sort keys and facet values.
create table search_docs (
  bib_id bigint primary key,
  title text not null,
  words text not null,
  sort_title text not null,
  year integer,
  material_type text,
  lang text
);

-- Bibs whose index entries are due: every write of a bib puts it here (by trigger, so no write path
-- can forget), and the indexer takes them off in batches.
create table search_queue (
  bib_id bigint primary key
);

create function search_enqueue() returns trigger language plpgsql as $$
begin
  insert into search_queue (bib_id) values (new.id) on conflict do nothing;
  return null;
end $$;

create trigger bibs_search_enqueue after insert or update on bibs for each row execute function search_enqueue();

insert into search_queue (bib_id) select id from bibs;
