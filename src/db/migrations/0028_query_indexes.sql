-- Indexes for the JSON queries (POST /bibs/query) libraries run most: equality on the identifier
-- fields (001, 020, 022, 035) and a range of cataloguing dates (fixed field 28).
--
-- carrel_marc_keys gives, for each of those fields of a record, the text the query compiler
-- compares (src/query/repository.ts, marcValues): lower(trim(...)) of the control field, of the
-- field's $a subfields joined by spaces ("020a:…"), and of all its subfields joined ("020:…"). A
-- query that asks for one of them is answered from the index with the same comparison, so the
-- answer is the same as reading every record's MARC, without reading them. The record is read
-- as jsonb, parsed once: the json functions parse each field again at every step (5 ms a record
-- against 50 µs, which every import pays). Subfields are one-key objects, so jsonb's key order
-- changes nothing.
create function carrel_marc_keys(marc json) returns text[]
language sql immutable parallel safe
as $$
  select coalesce(array_agg(distinct k.key), '{}')
  from jsonb_array_elements((marc::jsonb) -> 'fields') fe, jsonb_each(fe) f,
    lateral (
      select f.key || ':' || lower(trim(f.value #>> '{}')) as key where jsonb_typeof(f.value) = 'string'
      union all
      select f.key || 'a:' || lower(trim(string_agg(s.value, ' '))) from jsonb_array_elements(f.value -> 'subfields') sf, jsonb_each_text(sf) s
        where jsonb_typeof(f.value) = 'object' and s.key = 'a' having count(*) > 0
      union all
      select f.key || ':' || lower(trim(string_agg(s.value, ' '))) from jsonb_array_elements(f.value -> 'subfields') sf, jsonb_each_text(sf) s
        where jsonb_typeof(f.value) = 'object' having count(*) > 0
    ) k
  where f.key in ('001', '020', '022', '035')
$$;

create index bibs_marc_keys on bibs using gin (carrel_marc_keys(marc)) with (fastupdate = off) where deleted_date is null;

create index bibs_catalog_date on bibs (catalog_date, id) where deleted_date is null and catalog_date is not null;
