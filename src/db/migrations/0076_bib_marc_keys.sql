-- The keys JSON queries compare on 001, 020, 022 and 035 (migration 0028) come from a column the
-- writers fill (src/bibs/derive.ts, marcKeys), not from the record's MARC. carrel_marc_keys(marc)
-- read every written record as jsonb, parsed whole, to find four of its fields: about three fifths
-- of PostgreSQL's work in an import of new records. The column holds the keys before lowering;
-- the index lowers them with PostgreSQL's own lower(), as before, so each key is what it was.
alter table bibs add column marc_keys text[] not null default '{}';

-- The old index dropped first: filled with it in place, every row's MARC would be parsed again for
-- the index as it was rewritten.
drop index bibs_marc_keys;
drop function carrel_marc_keys(json);

-- Existing records' keys, as 0028 made them, not lowered, in the order the writers put them (by
-- field, a field's $a key before its whole one, each once): a file loaded again after the upgrade
-- then finds its records unchanged, and does not send them to harvesters again.
update bibs b set marc_keys = coalesce((
  select array_agg(keyed.key order by keyed.first)
  from (
    select k.key, min(array[fe.n, f.n, k.part]) as first
    from jsonb_array_elements((b.marc::jsonb) -> 'fields') with ordinality fe(field, n),
      jsonb_each(fe.field) with ordinality f(key, value, n),
      lateral (
        select f.key || ':' || trim(f.value #>> '{}') as key, 0 as part where jsonb_typeof(f.value) = 'string'
        union all
        select f.key || 'a:' || trim(string_agg(s.value, ' ')), 0 from jsonb_array_elements(f.value -> 'subfields') sf, jsonb_each_text(sf) s
          where jsonb_typeof(f.value) = 'object' and s.key = 'a' having count(*) > 0
        union all
        select f.key || ':' || trim(string_agg(s.value, ' ')), 1 from jsonb_array_elements(f.value -> 'subfields') sf, jsonb_each_text(sf) s
          where jsonb_typeof(f.value) = 'object' having count(*) > 0
      ) k
    where f.key in ('001', '020', '022', '035')
    group by k.key
  ) keyed), '{}')
where b.marc is not null;

-- The tags' prefixes ("020a:") are digits and letters that lower() leaves as they are, so lowering
-- the whole key lowers only its value, as 0028 did.
create function carrel_marc_keys(keys text[]) returns text[]
language sql immutable parallel safe
as $$
  select coalesce(array_agg(distinct lower(k)), '{}') from unnest(keys) k
$$;

create index bibs_marc_keys on bibs using gin (carrel_marc_keys(marc_keys)) with (fastupdate = off) where deleted_date is null;
