-- The SQL door's read of pg_prepared_statements and deleted records (README, "SQL").
--
-- carrel_sierra_fields runs as its owner (0033) and any SQL reader may call it, as the views
-- do: called directly with a deleted item's or patron's id it answered that record's fields,
-- which the views hide. It answers live records only. (Its security definer and search path,
-- set in 0033, stay: create or replace keeps them only when given, so they are given again.)
create or replace function carrel_sierra_fields(record_type text, carrel_id bigint, marc json)
returns table (field_num integer, varfield_type_code text, marc_tag text, marc_ind1 text, marc_ind2 text, occ_num integer,
  field_content text, subfields jsonb)
language sql stable strict parallel safe rows 40 cost 50 set jit = off
begin atomic
  select f.field_num, f.varfield_type_code, f.marc_tag, f.marc_ind1, f.marc_ind2, f.occ_num, f.field_content, f.subfields
  from public.carrel_sierra_marc_fields(marc, record_type = 'c') f
  where record_type in ('b', 'c')
  union all
  select (row_number() over (order by v.k))::integer, v.code, null, null, null, 0, v.content, null
  from public.items i,
    lateral (values (1, 'b', i.barcode), (2, 'c', i.call_number), (3, 'm', i.message)) v(k, code, content)
  where record_type = 'i' and i.id = carrel_id and i.deleted_date is null and v.content <> ''
  union all
  select (row_number() over (order by v.grp, v.ord))::integer, v.code, null, null, null,
    (row_number() over (partition by v.code order by v.grp, v.ord) - 1)::integer, v.content, null
  from public.patrons p,
    lateral (
      select 1 as grp, pb.position::bigint as ord, 'b' as code, pb.barcode as content from public.patron_barcodes pb where pb.patron_id = p.id
      union all select 2, n.ord, 'n', n.name from unnest(p.names) with ordinality n(name, ord)
      union all select 3, e.ord, 'z', e.email from unnest(p.emails) with ordinality e(email, ord)
      union all select 4, t.ord, case when t.phone ->> 'type' = 'p' then 'p' else 't' end, t.phone ->> 'number'
        from jsonb_array_elements(p.phones) with ordinality t(phone, ord)
      union all select 5, a.ord, case when a.address ->> 'type' = 'h' then 'h' else 'a' end,
        (select string_agg(l.line, '$' order by l.ord) from jsonb_array_elements_text(a.address -> 'lines') with ordinality l(line, ord))
        from jsonb_array_elements(p.addresses) with ordinality a(address, ord)
      union all select 6, u.position, 'u', u.unique_id from public.patron_unique_ids u where u.patron_id = p.id
      union all select 7, x.ord, 'x', x.note from unnest(p.notes) with ordinality x(note, ord)
      union all select 8, 1, 'm', p.message where p.message <> ''
    ) v
  where record_type = 'p' and p.id = carrel_id and p.deleted_date is null and v.content is not null;
end;
alter function carrel_sierra_fields(text, bigint, json) security definer set search_path = public, pg_catalog;

-- On the embedded engine every SQL login's statements take turns on the one session Carrel uses:
-- the session's prepared statements (other logins' texts) are not a reader's to list.
do $$
begin
  revoke select on pg_catalog.pg_prepared_statements, pg_catalog.pg_cursors from public;
exception when insufficient_privilege then
  null;
end $$;
