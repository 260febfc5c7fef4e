-- Sierra's "Direct SQL" views (schema sierra_view) over Carrel's own tables, for the SQL door
-- (src/sql): a library moving from Sierra keeps its report SQL, which names Sierra's views and
-- columns, expects Sierra's types (char(1) codes, varchar(5) locations, numeric(30,6) money,
-- *_gmt timestamptz) and joins records by Sierra's record ids. So every view here has Sierra's
-- name, columns, column order and types, and a column Carrel has nothing for is a typed null or
-- Sierra's default (0 for a count, false for a flag, '-' for a user-defined code, '' campus).
--
-- The views compute from the live tables: nothing is copied, so nothing can fall behind.
-- * A record's id is Sierra's: (ascii(type letter) << 32) + record number, the number being
--   Carrel's id (b 420906795008, c 425201762304, i 450971566080, p 481036337152). The indexes
--   on id + that constant (and on the record number) let `record_id = x`, `record_num = n` and
--   joins between views find a record through an index, as they do in Sierra.
-- * Sierra keeps record_metadata rows for deleted records (deletion_date_gmt set) but shows only
--   live records in the other views; so does this.
-- * A count read from loans (checkout_total, …) is a subquery in the select list: PostgreSQL
--   evaluates it only when the statement asks for that column.
-- * A bib's MARC is read as jsonb once per record (faster than json's functions, which parse the
--   text again at every step), and only for the records a statement's conditions leave.
-- * A view over several kinds of record is a union of one table each with no condition inside
--   (the live records are chosen outside it): PostgreSQL plans only such a union as one relation
--   whose parts it reads through their indexes when joined, so a join from a few records to
--   their varfields reads those records, not the catalogue.
-- * varfield.id is the record's id * 10000 + the field's 1-based position in the record, so
--   subfield.varfield_id names its varfield. Filter varfield and subfield by record_id (as
--   Sierra's own queries do): a condition on their id alone reads every record.
-- * display_order and occ_num count from 0, as Sierra's do.
-- Helpers are in schema public with a carrel_ prefix: sierra_view holds Sierra's names only (and
-- id2reckey, reckey2id and Carrel's check_digit). Function bodies are SQL-standard (parsed here,
-- so they answer the same whatever the caller's search_path; the SQL door leaves out public).

create schema sierra_view;

-- Sierra numbers item types; Carrel names them. Each type gets a number, kept for good: a new
-- type takes the next one.
create sequence item_type_code_nums start 1 maxvalue 2147483647;
alter table item_types add column code_num integer;
update item_types t set code_num = n.num
  from (select code, row_number() over (order by code collate "C") as num from item_types) n where n.code = t.code;
select setval('item_type_code_nums', coalesce(max(code_num), 0) + 1, false) from item_types;
alter table item_types alter column code_num set default nextval('item_type_code_nums'),
  alter column code_num set not null, add constraint item_types_code_num_key unique (code_num);
alter sequence item_type_code_nums owned by item_types.code_num;

-- Record ids and record numbers as Sierra's views give them (record_num is an integer there;
-- Carrel's ids never leave that range, but an id past it gives null rather than an error).
create index bibs_sierra_id on bibs ((id + 420906795008));
create index items_sierra_id on items ((id + 450971566080));
create index patrons_sierra_id on patrons ((id + 481036337152));
create index holdings_sierra_id on holdings ((id + 425201762304));

create function carrel_sierra_num(id bigint) returns integer
language sql immutable parallel safe
return case when id between 0 and 2147483647 then id::integer end;

create index bibs_sierra_num on bibs (carrel_sierra_num(id));
create index items_sierra_num on items (carrel_sierra_num(id));
create index patrons_sierra_num on patrons (carrel_sierra_num(id));
create index holdings_sierra_num on holdings (carrel_sierra_num(id));

-- The references between records, by Sierra's ids: a link view looked up by its bib or item, a
-- patron's loans, holds and fines, a record's holds.
create index item_bibs_sierra_bib on item_bibs ((bib_id + 420906795008));
create index item_bibs_sierra_item on item_bibs ((item_id + 450971566080));
create index checkouts_sierra_patron on checkouts ((patron_id + 481036337152)) where returned_date is null;
create index checkouts_sierra_item on checkouts ((item_id + 450971566080)) where returned_date is null;
create index holds_sierra_patron on holds ((patron_id + 481036337152)) where state in ('0', 't', 'r');
create index holds_sierra_record on holds ((case record_type when 'b' then bib_id + 420906795008 else item_id + 450971566080 end))
  where state in ('0', 't', 'r');
create index fines_sierra_patron on fines ((patron_id + 481036337152)) where paid_date is null;
create index fine_payments_sierra_patron on fine_payments ((patron_id + 481036337152));
create index reading_history_sierra_patron on reading_history ((patron_id + 481036337152));
create index holdings_sierra_bib on holdings ((bib_id + 420906795008)) where deleted_date is null;
-- The deleted items, which bib_record_item_record_link leaves out (bibs_deleted finds the bibs).
create index items_sierra_deleted on items (id) where deleted_date is not null;

-- The views give Carrel's codes in Sierra's types (location_code::varchar(5), …). PostgreSQL has
-- no statistics for such a cast, so a report choosing items by location and status was planned
-- as if a handful matched (nested loops over a quarter of a million items: twice the time of the
-- same query on the tables). Statistics on the casts the views filter by most give it the
-- columns' own, gathered here once and by autovacuum from then on.
create statistics items_sierra_location on (location_code::varchar(5)) from items;
create statistics items_sierra_status on (status::char(1)) from items;
create statistics bibs_sierra_language on (lang::varchar(3)) from bibs;
create statistics bibs_sierra_country on (country::varchar(3)) from bibs;
create statistics bibs_sierra_bcode2 on (material_type::char(1)) from bibs;
create statistics bibs_sierra_material on (material_type::varchar(3)) from bibs;
create statistics bibs_sierra_bib_level on (bib_level::varchar(3)) from bibs;
create statistics patrons_sierra_ptype on (patron_type::smallint) from patrons;
create statistics patrons_sierra_home_library on (home_library_code::varchar(5)) from patrons;
analyze items, bibs, patrons;

-- ---------------------------------------------------------------------------------------------
-- Record keys: Sierra's functions, and the check digit its record numbers are written with.

-- The check digit of a record number (Carrel's helper; Sierra has none by this name): its digits
-- right to left weighted 2, 3, 4, …, the sum mod 11, 10 written 'x'.
create function sierra_view.check_digit(record_num integer) returns char(1)
language sql immutable strict parallel safe
begin atomic
  select case s.total % 11 when 10 then 'x' else (s.total % 11)::text end::char(1)
  from (select sum(substr(d.digits, length(d.digits) + 1 - k, 1)::integer * (k + 1)) as total
        from (select record_num::text as digits) d, generate_series(1, length(d.digits)) k) s
  where record_num >= 0;
end;

-- 'b1094852' for a bib's id: type letter and record number, no '.' and no check digit.
create function sierra_view.id2reckey(id bigint) returns varchar
language sql immutable strict parallel safe
return case when id >> 32 between 97 and 122 then chr((id >> 32)::integer) || (id & 4294967295)::text end;

-- The id of 'b1094852' or '.b1094852'; also '.b10948521' (written with '.', eight digits or more
-- end in the check digit, which must be right), and a last 'a' (any check digit) or 'x' (the
-- check digit 10, which must be right). Anything else is null.
create function sierra_view.reckey2id(reckey text) returns bigint
language sql immutable strict parallel safe
begin atomic
  select (ascii(m.key[2])::bigint << 32) + n.num
  from (select regexp_match(reckey, '^(\.?)([a-z])([0-9]{1,10})([ax]?)$') as key) m,
    lateral (select case when m.key[4] = 'x' then 'x'
                         when m.key[4] = '' and m.key[1] = '.' and length(m.key[3]) >= 8 then right(m.key[3], 1) end as check_char,
                    case when m.key[4] = '' and m.key[1] = '.' and length(m.key[3]) >= 8 then left(m.key[3], -1)
                         else m.key[3] end::bigint as num) n
  where m.key is not null and n.num <= 2147483647
    and (n.check_char is null or sierra_view.check_digit(least(n.num, 2147483647)::integer) = n.check_char);
end;

-- ---------------------------------------------------------------------------------------------
-- Helpers.

-- Carrel's field group of a bib's MARC data field (src/bibs/var-fields.ts, fieldGroup).
create function carrel_field_group(tag text) returns text
language sql immutable parallel safe
return case
  when tag ~ '^(1[01]|7[01])[0-9]$' then 'a'
  when tag in ('245', '246', '130', '240') then 't'
  when tag like '6%' then 'd'
  when tag like '5%' then 'n'
  when tag in ('020', '022', '024') then 'i'
  when tag = '250' then 'e'
  when tag in ('260', '264') then 'p'
  when tag = '300' then 'r'
  when tag like '4%' or tag like '8%' then 's'
  else 'y' end;

-- …and of a holdings record's (src/holdings/present.ts).
create function carrel_holding_field_group(tag text) returns text
language sql immutable parallel safe
return case
  when tag = '852' then 'c'
  when tag ~ '^86[3-8]$' then 'h'
  when tag like '5%' then 'n'
  else 'y' end;

-- Sierra's normalized form of a title or an author: lower case, a hyphen or slash a space, other
-- ASCII punctuation dropped, spaces single ('Something else : a novel' -> 'something else a novel').
create function carrel_sierra_norm(value text) returns text
language sql immutable parallel safe
return btrim(regexp_replace(regexp_replace(translate(lower(value), '-/', '  '), '[!-/:-@[-`{-~]+', '', 'g'), '[[:space:]]+', ' ', 'g'));

-- The leader of a stored MARC-in-JSON record. Carrel writes it first, so it is read from the
-- text's first characters (which PostgreSQL decompresses alone), not by parsing the record:
-- a sixth of the time. A record in another shape is parsed.
create function carrel_marc_leader(marc json) returns text
language sql immutable parallel safe
return case
  when substr(marc::text, 1, 11) = '{"leader":"' and substr(marc::text, 36, 1) = '"' and strpos(substr(marc::text, 12, 24), '\') = 0
  then substr(marc::text, 12, 24)
  else marc ->> 'leader' end;

-- A MARC record's fields as Sierra's varfields: 1-based position, field group (holdings' groups
-- for a holdings record), tag, indicators (blank or absent: ' '), occurrence among the record's
-- fields of the same group, and the content: a control field's text, or a data field's subfields
-- in Sierra's delimited form ('|aPride and prejudice /|cJane Austen.'); with the subfields
-- themselves for sierra_view.subfield. The leader is not a varfield (sierra_view.leader_field).
create function carrel_sierra_marc_fields(marc json, holdings boolean)
returns table (field_num integer, varfield_type_code text, marc_tag text, marc_ind1 text, marc_ind2 text, occ_num integer,
  field_content text, subfields jsonb)
language sql immutable parallel safe
begin atomic
  select f.field_num, f.code, f.tag, f.ind1, f.ind2,
    (row_number() over (partition by f.code order by f.field_num) - 1)::integer,
    f.content, f.subfields
  from (
    select e.ord::integer as field_num, t.key as tag,
      case when jsonb_typeof(t.value) = 'string' then 'y'
           when holdings then public.carrel_holding_field_group(t.key)
           else public.carrel_field_group(t.key) end as code,
      case when jsonb_typeof(t.value) = 'object' then coalesce(nullif(t.value ->> 'ind1', ''), ' ') end as ind1,
      case when jsonb_typeof(t.value) = 'object' then coalesce(nullif(t.value ->> 'ind2', ''), ' ') end as ind2,
      case when jsonb_typeof(t.value) = 'string' then t.value #>> '{}'
           else coalesce((select string_agg('|' || s.key || s.value, '' order by sf.ord)
                          from jsonb_array_elements(t.value -> 'subfields') with ordinality sf(subfield, ord), jsonb_each_text(sf.subfield) s), '')
           end as content,
      case when jsonb_typeof(t.value) = 'object' then t.value -> 'subfields' end as subfields
    from jsonb_array_elements(marc::jsonb -> 'fields') with ordinality e(field, ord), jsonb_each(e.field) t
  ) f;
end;

-- A record's varfields, by its Sierra record type and Carrel id: a bib's or a holdings record's
-- MARC fields (its MARC is passed in, as the caller has read it). An item's: b barcode, c call
-- number, m message. A patron's, in the order Carrel's API gives them: b barcodes, n names, z
-- emails, t and p phones, a and h addresses (lines joined by '$', Sierra's form), u unique ids,
-- x notes, m message; never the PIN. subfields is null where the field has none (a control
-- field, an item's or a patron's field).
-- PostgreSQL calls this function rather than planning its body into the query (it is strict:
-- an item or patron is passed the JSON null, not SQL's), so a record's fields are estimated at
-- 40, not at the 10,000 its JSON functions would count, which had a join of two bibs' titles to
-- their varfields read every record in the catalogue. Its body, planned alone, still counts
-- them so: without jit = off PostgreSQL compiled it to machine code for every record (0.7 s).
create function carrel_sierra_fields(record_type text, carrel_id bigint, marc json)
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
  where record_type = 'i' and i.id = carrel_id and v.content <> ''
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
  where record_type = 'p' and p.id = carrel_id and v.content is not null;
end;

-- Every live record's varfields, with the record's type and number (varfield, varfield_view,
-- subfield, subfield_view and control_field read this).
create view carrel_sierra_field as
select r.record_id * 10000 + f.field_num as id, r.record_id, r.record_type_code, r.record_num, f.varfield_type_code, f.marc_tag,
  f.marc_ind1, f.marc_ind2, f.occ_num, f.field_content, f.subfields
from (
  select b.id + 420906795008 as record_id, 'b'::text as record_type_code, carrel_sierra_num(b.id) as record_num, b.id as carrel_id,
    coalesce(b.marc, 'null') as marc, b.deleted_date
  from bibs b
  union all
  select h.id + 425201762304, 'c'::text, carrel_sierra_num(h.id), h.id, coalesce(h.marc, 'null'), h.deleted_date from holdings h
  union all
  select i.id + 450971566080, 'i'::text, carrel_sierra_num(i.id), i.id, 'null'::json, i.deleted_date from items i
  union all
  select p.id + 481036337152, 'p'::text, carrel_sierra_num(p.id), p.id, 'null'::json, p.deleted_date from patrons p
) r cross join lateral carrel_sierra_fields(r.record_type_code, r.carrel_id, r.marc) f
where r.deleted_date is null;

-- A bib's columns for bib_record and bib_view; an item's for item_record and item_view; a
-- patron's for patron_record and patron_view (each view takes the columns it has, in its order).
create view carrel_sierra_bib as
select b.id + 420906795008 as id, carrel_sierra_num(b.id) as record_num, b.created_date,
  b.lang::varchar(3) as language_code,
  '-'::char(1) as bcode1,
  -- Sierra's MAT TYPE is BCODE2.
  b.material_type::char(1) as bcode2,
  -- 'n': suppressed from the public catalogue, the code Sierra libraries commonly give it.
  (case when b.suppressed then 'n' else '-' end)::char(1) as bcode3,
  b.country::varchar(3) as country_code,
  0 as index_change_count, false as is_on_course_reserve, false as is_right_result_exact,
  null::char(1) as allocation_rule_code, 0 as skip_num,
  b.catalog_date::timestamptz as cataloging_date_gmt,
  substr(carrel_marc_leader(b.marc), 7, 1)::char(1) as marc_type_code,
  b.suppressed as is_suppressed,
  b.title::varchar(1000) as title,
  -- An item of the bib is on the shelf: available and not on loan.
  exists (select from item_bibs ib join items i on i.id = ib.item_id
          where ib.bib_id = b.id and i.deleted_date is null and i.status = '-'
            and not exists (select from checkouts c where c.item_id = i.id and c.returned_date is null)) as is_available_at_library
from bibs b
where b.deleted_date is null;

create view carrel_sierra_item as
select i.id + 450971566080 as id, carrel_sierra_num(i.id) as record_num, i.created_date, i.barcode::varchar(1000) as barcode,
  0 as icode1, '-'::char(1) as icode2, t.code_num as itype_code_num, i.location_code::varchar(5) as location_code, 0 as agency_code_num,
  i.status::char(1) as item_status_code, false as is_inherit_loc, null::numeric(30, 6) as price,
  (select max(c.returned_date) from checkouts c where c.item_id = i.id) as last_checkin_gmt,
  (select count(*) from checkouts c where c.item_id = i.id)::integer as checkout_total,
  (select coalesce(sum(c.renewals), 0) from checkouts c where c.item_id = i.id)::integer as renewal_total,
  (select count(*) from checkouts c where c.item_id = i.id and c.out_date >= date_trunc('year', now()) - interval '1 year'
     and c.out_date < date_trunc('year', now()))::integer as last_year_to_date_checkout_total,
  (select count(*) from checkouts c where c.item_id = i.id and c.out_date >= date_trunc('year', now()))::integer as year_to_date_checkout_total,
  -- Trapped for a bib hold (in transit or on the hold shelf).
  exists (select from holds h where h.trapped_item_id = i.id and h.state in ('t', 'r') and h.record_type = 'b') as is_bib_hold,
  1 as copy_num, null::integer as checkout_statistic_group_code_num, null::bigint as last_patron_record_metadata_id,
  null::timestamptz as inventory_gmt, null::integer as checkin_statistics_group_code_num, 0 as use3_count,
  (select max(c.out_date) from checkouts c where c.item_id = i.id) as last_checkout_gmt,
  0 as internal_use_count, 0 as copy_use_count, '-'::char(1) as item_message_code, '-'::char(1) as opac_message_code,
  null::char(1) as virtual_type_code, 0 as virtual_item_central_code_num, null::char(1) as holdings_code,
  null::integer as save_itype_code_num, null::varchar(5) as save_location_code, null::integer as save_checkout_total,
  null::varchar(5) as old_location_code, 0::smallint as distance_learning_status, i.suppressed as is_suppressed,
  (i.status = '-' and not exists (select from checkouts c where c.item_id = i.id and c.returned_date is null)) as is_available_at_library,
  null::timestamptz as last_status_update
from items i left join item_types t on t.code = i.item_type
where i.deleted_date is null;

create view carrel_sierra_patron as
select p.id + 481036337152 as id, carrel_sierra_num(p.id) as record_num,
  (select pb.barcode from patron_barcodes pb where pb.patron_id = p.id order by pb.position limit 1)::varchar(512) as barcode,
  p.patron_type::smallint as ptype_code, p.home_library_code::varchar(5) as home_library_code,
  p.expiration_date::timestamptz as expiration_date_gmt,
  -- Patron codes are not kept: Sierra's values for a patron with none (as Carrel's API answers).
  '-'::char(1) as pcode1, '-'::char(1) as pcode2, 0::smallint as pcode3, 0 as pcode4,
  p.birth_date as birth_date_gmt, p.block_code::varchar(3) as mblock_code, null::varchar(5) as firm_code,
  null::timestamptz as block_until_date_gmt, 0 as patron_agency_code_num, null::varchar(3) as iii_language_pref_code,
  (select count(*) from checkouts c where c.patron_id = p.id)::integer as checkout_total,
  (select coalesce(sum(c.renewals), 0) from checkouts c where c.patron_id = p.id)::integer as renewal_total,
  (select count(*) from checkouts c where c.patron_id = p.id and c.returned_date is null)::integer as checkout_count,
  '-'::char(1) as patron_message_code, 0 as highest_level_overdue_num, 0 as claims_returned_total,
  p.money_owed::numeric(30, 6) as owed_amt, 0 as itema_count, 0 as itemb_count, 0 as overdue_penalty_count,
  0 as ill_checkout_total, 0::numeric(30, 6) as debit_amt, 0 as itemc_count, 0 as itemd_count,
  -- The last time a loan went out or came back, as Carrel's fixed field 163.
  (select greatest(max(c.out_date), max(c.returned_date)) from checkouts c where c.patron_id = p.id) as activity_gmt,
  null::varchar(3) as notification_medium_code, 0 as registration_count, 0 as registration_total, 0 as attendance_total,
  0 as waitlist_count, p.reading_history as is_reading_history_opt_in
from patrons p
where p.deleted_date is null;

-- ---------------------------------------------------------------------------------------------
-- Records.

create view sierra_view.record_metadata as
select b.id + 420906795008 as id, 'b'::char(1) as record_type_code, carrel_sierra_num(b.id) as record_num,
  b.created_date as creation_date_gmt, b.deleted_date::date as deletion_date_gmt, ''::varchar(5) as campus_code,
  0 as agency_code_num, 0 as num_revisions, b.updated_date as record_last_updated_gmt, null::timestamptz as previous_last_updated_gmt
from bibs b
union all
select h.id + 425201762304, 'c'::char(1), carrel_sierra_num(h.id), h.created_date, h.deleted_date::date, ''::varchar(5), 0, 0,
  h.updated_date, null::timestamptz
from holdings h
union all
select i.id + 450971566080, 'i'::char(1), carrel_sierra_num(i.id), i.created_date, i.deleted_date::date, ''::varchar(5), 0, 0,
  i.updated_date, null::timestamptz
from items i
union all
select p.id + 481036337152, 'p'::char(1), carrel_sierra_num(p.id), p.created_date, p.deleted_date::date, ''::varchar(5), 0, 0,
  p.updated_date, null::timestamptz
from patrons p;

create view sierra_view.bib_record as
select id, id as record_id, language_code, bcode1, bcode2, bcode3, country_code, index_change_count, is_on_course_reserve,
  is_right_result_exact, allocation_rule_code, skip_num, cataloging_date_gmt, marc_type_code, is_suppressed
from carrel_sierra_bib;

-- id: the record number (Sierra's is a sequence of its own).
create view sierra_view.bib_record_property as
select carrel_sierra_num(b.id) as id, b.id + 420906795008 as bib_record_id, b.title::varchar(1000) as best_title,
  b.bib_level::varchar(3) as bib_level_code, b.material_type::varchar(3) as material_code, b.publish_year,
  carrel_sierra_norm(b.title)::varchar(1000) as best_title_norm, b.author::varchar(1000) as best_author,
  carrel_sierra_norm(b.author)::varchar(1000) as best_author_norm
from bibs b
where b.deleted_date is null;

create view sierra_view.bib_view as
select id, 'b'::char(1) as record_type_code, record_num, language_code, bcode1, bcode2, bcode3, country_code, is_available_at_library,
  index_change_count, allocation_rule_code, is_on_course_reserve, is_right_result_exact, skip_num, cataloging_date_gmt,
  marc_type_code, title, created_date as record_creation_date_gmt
from carrel_sierra_bib;

create view sierra_view.item_record as
select id, id as record_id, icode1, icode2, itype_code_num, location_code, agency_code_num, item_status_code, is_inherit_loc, price,
  last_checkin_gmt, checkout_total, renewal_total, last_year_to_date_checkout_total, year_to_date_checkout_total, is_bib_hold,
  copy_num, checkout_statistic_group_code_num, last_patron_record_metadata_id, inventory_gmt, checkin_statistics_group_code_num,
  use3_count, last_checkout_gmt, internal_use_count, copy_use_count, item_message_code, opac_message_code, virtual_type_code,
  virtual_item_central_code_num, holdings_code, save_itype_code_num, save_location_code, save_checkout_total, old_location_code,
  distance_learning_status, is_suppressed, is_available_at_library, last_status_update
from carrel_sierra_item;

-- id: the item's record number.
create view sierra_view.item_record_property as
select i.id, i.id + 450971566080 as item_record_id, i.call_number::varchar(1000) as call_number,
  lower(i.call_number)::varchar(1000) as call_number_norm, i.barcode::varchar(1000) as barcode
from items i
where i.deleted_date is null;

-- checkin_statistic_group_code_num: item_view's spelling (item_record's has "statistics").
create view sierra_view.item_view as
select id, 'i'::char(1) as record_type_code, record_num, barcode, icode1, icode2, itype_code_num, location_code, agency_code_num,
  item_status_code, is_inherit_loc, price, last_checkin_gmt, checkout_total, renewal_total, last_year_to_date_checkout_total,
  year_to_date_checkout_total, is_bib_hold, copy_num, checkout_statistic_group_code_num, last_patron_record_metadata_id,
  inventory_gmt, checkin_statistics_group_code_num as checkin_statistic_group_code_num, use3_count, last_checkout_gmt,
  internal_use_count, copy_use_count, item_message_code, opac_message_code, virtual_type_code, virtual_item_central_code_num,
  holdings_code, save_itype_code_num, save_location_code, save_checkout_total, old_location_code, distance_learning_status,
  is_suppressed, created_date as record_creation_date_gmt
from carrel_sierra_item;

-- id: item id << 32 + bib id, unique and stable. A bib's items are in item order, an item's
-- bibs in bib order (as Carrel's API lists them), counting live records only. A link to a
-- deleted item or bib is left out by looking for it among the deleted ones (few, and indexed):
-- a report joining items to titles through this view reads items and bibs once, as it would
-- without the view, not a second time to see that they are live.
create view sierra_view.bib_record_item_record_link as
select l.item_id * 4294967296 + l.bib_id as id, l.bib_id + 420906795008 as bib_record_id, l.item_id + 450971566080 as item_record_id,
  (select count(*) from item_bibs o join items oi on oi.id = o.item_id
   where o.bib_id = l.bib_id and o.item_id < l.item_id and oi.deleted_date is null)::integer as items_display_order,
  (select count(*) from item_bibs o join bibs ob on ob.id = o.bib_id
   where o.item_id = l.item_id and o.bib_id < l.bib_id and ob.deleted_date is null)::integer as bibs_display_order
from item_bibs l
where not exists (select from items i where i.id = l.item_id and i.deleted_date is not null)
  and not exists (select from bibs b where b.id = l.bib_id and b.deleted_date is not null);

create view sierra_view.holding_record as
select h.id + 425201762304 as id, h.id + 425201762304 as record_id, false as is_inherit_loc, null::char(1) as allocation_rule_code,
  null::integer as accounting_unit_code_num, null::char(1) as label_code, '-'::char(1) as scode1, '-'::char(1) as scode2,
  null::timestamptz as claimon_date_gmt, null::varchar(255) as receiving_location_code, null::varchar(5) as vendor_code,
  '-'::char(1) as scode3, '-'::char(1) as scode4, null::char(1) as update_cnt, 0 as piece_cnt, null::char(1) as echeckin_code,
  null::char(1) as media_type_code, h.suppressed as is_suppressed
from holdings h
where h.deleted_date is null;

-- id: the holdings record's number (it has one bib).
create view sierra_view.bib_record_holding_record_link as
select h.id, h.bib_id + 420906795008 as bib_record_id, h.id + 425201762304 as holding_record_id,
  (select count(*) from holdings o where o.bib_id = h.bib_id and o.id < h.id and o.deleted_date is null)::integer as holdings_display_order
from holdings h
where h.deleted_date is null and not exists (select from bibs b where b.id = h.bib_id and b.deleted_date is not null);

-- ---------------------------------------------------------------------------------------------
-- Fields.

create view sierra_view.varfield as
select id, record_id, varfield_type_code::char(1) as varfield_type_code, marc_tag::varchar(3) as marc_tag,
  marc_ind1::char(1) as marc_ind1, marc_ind2::char(1) as marc_ind2, occ_num, field_content::varchar(20001) as field_content
from carrel_sierra_field;

create view sierra_view.varfield_view as
select id, record_id, record_type_code::char(1) as record_type_code, record_num, varfield_type_code::char(1) as varfield_type_code,
  marc_tag::varchar(3) as marc_tag, marc_ind1::char(1) as marc_ind1, marc_ind2::char(1) as marc_ind2, occ_num,
  field_content::varchar(20001) as field_content
from carrel_sierra_field;

-- A data field's subfields, one row each; a field without subfields (a control field, an item's
-- or a patron's field) is one row, with no tag, holding the field's content.
create view sierra_view.subfield as
select f.record_id, f.id as varfield_id, f.varfield_type_code::char(1) as field_type_code, f.marc_tag::varchar(3) as marc_tag,
  f.marc_ind1::char(1) as marc_ind1, f.marc_ind2::char(1) as marc_ind2, f.occ_num, s.display_order, s.tag::char(1) as tag,
  s.content::varchar(20001) as content
from carrel_sierra_field f cross join lateral (
  select (e.ord - 1)::integer as display_order, k.key as tag, k.value as content
  from jsonb_array_elements(f.subfields) with ordinality e(subfield, ord), jsonb_each_text(e.subfield) k
  union all
  select 0, null, f.field_content where f.subfields is null
) s;

-- subfield with the record's type and number, which its id holds ((letter << 32) + number).
create view sierra_view.subfield_view as
select s.record_id, chr((s.record_id >> 32)::integer)::char(1) as record_type_code, (s.record_id & 4294967295)::integer as record_num,
  s.varfield_id, s.field_type_code as varfield_type_code, s.marc_tag, s.marc_ind1, s.marc_ind2, s.occ_num, s.display_order, s.tag,
  s.content
from sierra_view.subfield s;

-- id: the record's id (one leader a record). base_address: leader/12-16 when it is a number.
create view sierra_view.leader_field as
select m.id, m.id as record_id, nullif(substr(r.leader, 6, 1), '')::char(1) as record_status_code,
  nullif(substr(r.leader, 7, 1), '')::char(1) as record_type_code, nullif(substr(r.leader, 8, 1), '')::char(1) as bib_level_code,
  nullif(substr(r.leader, 9, 1), '')::char(1) as control_type_code, nullif(substr(r.leader, 10, 1), '')::char(1) as char_encoding_scheme_code,
  nullif(substr(r.leader, 18, 1), '')::char(1) as encoding_level_code, nullif(substr(r.leader, 19, 1), '')::char(1) as descriptive_cat_form_code,
  nullif(substr(r.leader, 20, 1), '')::char(1) as multipart_level_code,
  case when substr(r.leader, 13, 5) ~ '^[0-9]{5}$' then substr(r.leader, 13, 5)::integer end as base_address
from (
  select b.id + 420906795008 as id, b.marc, b.deleted_date from bibs b
  union all
  select h.id + 425201762304, h.marc, h.deleted_date from holdings h
) m cross join lateral carrel_marc_leader(m.marc) r(leader)
where m.deleted_date is null and m.marc is not null;

-- 006, 007 and 008 by character position (null past the field's end); id: the varfield's.
create view sierra_view.control_field as
select f.id, f.record_id, f.varfield_type_code::char(1) as varfield_type_code, f.marc_tag::integer as control_num,
  nullif(substr(f.field_content, 1, 1), '')::char(1) as p00, nullif(substr(f.field_content, 2, 1), '')::char(1) as p01,
  nullif(substr(f.field_content, 3, 1), '')::char(1) as p02, nullif(substr(f.field_content, 4, 1), '')::char(1) as p03,
  nullif(substr(f.field_content, 5, 1), '')::char(1) as p04, nullif(substr(f.field_content, 6, 1), '')::char(1) as p05,
  nullif(substr(f.field_content, 7, 1), '')::char(1) as p06, nullif(substr(f.field_content, 8, 1), '')::char(1) as p07,
  nullif(substr(f.field_content, 9, 1), '')::char(1) as p08, nullif(substr(f.field_content, 10, 1), '')::char(1) as p09,
  nullif(substr(f.field_content, 11, 1), '')::char(1) as p10, nullif(substr(f.field_content, 12, 1), '')::char(1) as p11,
  nullif(substr(f.field_content, 13, 1), '')::char(1) as p12, nullif(substr(f.field_content, 14, 1), '')::char(1) as p13,
  nullif(substr(f.field_content, 15, 1), '')::char(1) as p14, nullif(substr(f.field_content, 16, 1), '')::char(1) as p15,
  nullif(substr(f.field_content, 17, 1), '')::char(1) as p16, nullif(substr(f.field_content, 18, 1), '')::char(1) as p17,
  nullif(substr(f.field_content, 19, 1), '')::char(1) as p18, nullif(substr(f.field_content, 20, 1), '')::char(1) as p19,
  nullif(substr(f.field_content, 21, 1), '')::char(1) as p20, nullif(substr(f.field_content, 22, 1), '')::char(1) as p21,
  nullif(substr(f.field_content, 23, 1), '')::char(1) as p22, nullif(substr(f.field_content, 24, 1), '')::char(1) as p23,
  nullif(substr(f.field_content, 25, 1), '')::char(1) as p24, nullif(substr(f.field_content, 26, 1), '')::char(1) as p25,
  nullif(substr(f.field_content, 27, 1), '')::char(1) as p26, nullif(substr(f.field_content, 28, 1), '')::char(1) as p27,
  nullif(substr(f.field_content, 29, 1), '')::char(1) as p28, nullif(substr(f.field_content, 30, 1), '')::char(1) as p29,
  nullif(substr(f.field_content, 31, 1), '')::char(1) as p30, nullif(substr(f.field_content, 32, 1), '')::char(1) as p31,
  nullif(substr(f.field_content, 33, 1), '')::char(1) as p32, nullif(substr(f.field_content, 34, 1), '')::char(1) as p33,
  nullif(substr(f.field_content, 35, 1), '')::char(1) as p34, nullif(substr(f.field_content, 36, 1), '')::char(1) as p35,
  nullif(substr(f.field_content, 37, 1), '')::char(1) as p36, nullif(substr(f.field_content, 38, 1), '')::char(1) as p37,
  nullif(substr(f.field_content, 39, 1), '')::char(1) as p38, nullif(substr(f.field_content, 40, 1), '')::char(1) as p39,
  nullif(substr(f.field_content, 41, 1), '')::char(1) as p40, nullif(substr(f.field_content, 42, 1), '')::char(1) as p41,
  nullif(substr(f.field_content, 43, 1), '')::char(1) as p42, nullif(substr(f.field_content, 44, 1), '')::char(1) as p43,
  f.occ_num, nullif(substr(f.field_content, 45), '')::varchar(100) as remainder
from carrel_sierra_field f
where f.marc_tag in ('006', '007', '008') and f.subfields is null;

-- ---------------------------------------------------------------------------------------------
-- Patrons.

create view sierra_view.patron_record as
select id, id as record_id, ptype_code, home_library_code, expiration_date_gmt, pcode1, pcode2, pcode3, pcode4, birth_date_gmt,
  mblock_code, firm_code, block_until_date_gmt, patron_agency_code_num, iii_language_pref_code, checkout_total, renewal_total,
  checkout_count, patron_message_code, highest_level_overdue_num, claims_returned_total, owed_amt, itema_count, itemb_count,
  overdue_penalty_count, ill_checkout_total, debit_amt, itemc_count, itemd_count, activity_gmt, notification_medium_code,
  registration_count, registration_total, attendance_total, waitlist_count, is_reading_history_opt_in
from carrel_sierra_patron;

create view sierra_view.patron_view as
select id, 'p'::char(1) as record_type_code, record_num, barcode, ptype_code, home_library_code, expiration_date_gmt, pcode1, pcode2,
  pcode3, pcode4, birth_date_gmt, mblock_code, firm_code, block_until_date_gmt, patron_agency_code_num, iii_language_pref_code,
  checkout_total, renewal_total, checkout_count, patron_message_code, highest_level_overdue_num, claims_returned_total, owed_amt,
  itema_count, itemb_count, overdue_penalty_count, ill_checkout_total, debit_amt, itemc_count, itemd_count, activity_gmt,
  notification_medium_code, registration_count, registration_total, attendance_total, waitlist_count, is_reading_history_opt_in
from carrel_sierra_patron;

-- A name is written "Last, First Middle[, Suffix]"; one without a comma is all last name. A part
-- not given is ''. id: the patron's id * 10000 + the name's place.
create view sierra_view.patron_record_fullname as
select (p.id + 481036337152) * 10000 + n.ord as id, p.id + 481036337152 as patron_record_id, (n.ord - 1)::integer as display_order,
  ''::varchar(50) as prefix, split_part(g.given, ' ', 1)::varchar(500) as first_name,
  btrim(substr(g.given, length(split_part(g.given, ' ', 1)) + 1))::varchar(500) as middle_name,
  g.last::varchar(500) as last_name, g.suffix::varchar(50) as suffix
from patrons p cross join lateral unnest(p.names) with ordinality n(name, ord)
  cross join lateral (
    select btrim(split_part(n.name, ',', 1)) as last, btrim(split_part(n.name, ',', 2)) as given,
      btrim(substr(n.name, length(split_part(n.name, ',', 1)) + length(split_part(n.name, ',', 2)) + 3)) as suffix
  ) g
where p.deleted_date is null;

-- Carrel keeps an address as its lines. A last line "City, ST 12345" gives city, region and
-- postal code; the lines before it (or all of them) are addr1-addr3. Type 1 is an address (a),
-- 2 a second address (h). id: the patron's id * 10000 + the address's place.
create view sierra_view.patron_record_address as
select (p.id + 481036337152) * 10000 + a.ord as id, p.id + 481036337152 as patron_record_id,
  (case when a.address ->> 'type' = 'h' then 2 else 1 end)::bigint as patron_record_address_type_id, (a.ord - 1)::integer as display_order,
  x.lines[1]::varchar(1000) as addr1, x.lines[2]::varchar(1000) as addr2, array_to_string(x.lines[3:], ', ')::varchar(1000) as addr3,
  null::varchar(1000) as village, x.place[1]::varchar(1000) as city, x.place[2]::varchar(1000) as region,
  x.place[3]::varchar(100) as postal_code, null::varchar(1000) as country
from patrons p cross join lateral jsonb_array_elements(p.addresses) with ordinality a(address, ord)
  cross join lateral (
    select case when m.place is null then l.lines else l.lines[:cardinality(l.lines) - 1] end as lines, m.place
    from (select array(select jsonb_array_elements_text(a.address -> 'lines')) as lines) l,
      lateral (select case when cardinality(l.lines) > 1
                           then regexp_match(l.lines[cardinality(l.lines)], '^\s*([^,]+?),\s*([A-Za-z][A-Za-z .]*?)\s+([0-9A-Za-z][0-9A-Za-z -]{1,9})\s*$') end
               as place) m
  ) x
where p.deleted_date is null;

-- Type 1 is a telephone (t), 2 a second telephone (p). id: the patron's id * 10000 + the phone's place.
create view sierra_view.patron_record_phone as
select (p.id + 481036337152) * 10000 + t.ord as id, p.id + 481036337152 as patron_record_id,
  (case when t.phone ->> 'type' = 'p' then 2 else 1 end)::bigint as patron_record_phone_type_id, (t.ord - 1)::integer as display_order,
  (t.phone ->> 'number')::varchar(200) as phone_number
from patrons p cross join lateral jsonb_array_elements(p.phones) with ordinality t(phone, ord)
where p.deleted_date is null;

-- ---------------------------------------------------------------------------------------------
-- Circulation.

-- Open loans. The due date is a day: due_gmt is its start.
create view sierra_view.checkout as
select c.id, c.patron_id + 481036337152 as patron_record_id, c.item_id + 450971566080 as item_record_id,
  (select count(*) from checkouts o where o.patron_id = c.patron_id and o.returned_date is null and o.id < c.id)::integer as items_display_order,
  c.due_date::timestamptz as due_gmt, null::integer as loanrule_code_num, c.out_date as checkout_gmt, c.renewals as renewal_count,
  0 as overdue_count, null::timestamptz as overdue_gmt, null::timestamptz as recall_gmt,
  (select p.patron_type from patrons p where p.id = c.patron_id)::smallint as ptype
from checkouts c
where c.returned_date is null;

-- Active holds. status: '0' waiting, 't' in transit, ready for pickup 'b' (a bib hold) or 'i' (an
-- item hold). records_display_order is the place in the record's queue, patron_records_display_order
-- in the patron's holds. Carrel keeps no time a hold went on the shelf, only its pickup-by day.
create view sierra_view.hold as
select h.id, h.patron_id + 481036337152 as patron_record_id,
  case h.record_type when 'b' then h.bib_id + 420906795008 else h.item_id + 450971566080 end as record_id,
  h.placed::timestamptz as placed_gmt, h.frozen as is_frozen, greatest(h.not_wanted_before - h.placed, 0) as delay_days,
  null::varchar(5) as location_code, h.not_needed_after::timestamptz as expires_gmt,
  (case h.state when 'r' then h.record_type else h.state end)::char(1) as status, false as is_ir,
  h.pickup_location::varchar(5) as pickup_location_code, false as is_ill, nullif(h.note, '')::varchar(128) as note,
  null::varchar(5) as ir_pickup_location_code, null::varchar(255) as ir_print_name, null::varchar(255) as ir_delivery_stop_name,
  false as is_ir_converted_request,
  (select count(*) from holds o where o.patron_id = h.patron_id and o.state in ('0', 't', 'r') and o.id < h.id)::integer
    as patron_records_display_order,
  (case h.record_type
     when 'b' then (select count(*) from holds o where o.bib_id = h.bib_id and o.record_type = 'b' and o.state in ('0', 't', 'r') and o.id < h.id)
     else (select count(*) from holds o where o.item_id = h.item_id and o.state in ('0', 't', 'r') and o.id < h.id) end)::integer
    as records_display_order,
  null::timestamptz as on_holdshelf_gmt, h.pickup_by::timestamptz as expire_holdshelf_gmt
from holds h
where h.state in ('0', 't', 'r');

-- Fines still owed (in whole or in part). invoice_num is the fine's number, as Carrel's API gives
-- it; created_code 'm' for a manual charge, else 'a' (assessed by the system).
create view sierra_view.fine as
select f.id, f.patron_id + 481036337152 as patron_record_id, f.assessed_date as assessed_gmt, carrel_sierra_num(f.id) as invoice_num,
  f.item_charge::numeric(30, 6) as item_charge_amt, f.processing_fee::numeric(30, 6) as processing_fee_amt,
  f.billing_fee::numeric(30, 6) as billing_fee_amt, f.charge_type::char(1) as charge_code, f.location_code::varchar(5) as charge_location_code,
  (select max(fp.paid_date) from fine_payments fp where fp.fine_id = f.id) as paid_gmt, null::integer as terminal_num,
  f.paid_amount::numeric(30, 6) as paid_amt, null::varchar(12) as initials,
  (case when f.charge_type = '1' then 'm' else 'a' end)::char(1) as created_code, false as is_print_bill,
  f.description::varchar(100) as description, f.item_id + 450971566080 as item_record_metadata_id,
  (select c.out_date from checkouts c where c.id = f.checkout_id) as checkout_gmt,
  (select c.due_date::timestamptz from checkouts c where c.id = f.checkout_id) as due_gmt,
  (select c.returned_date from checkouts c where c.id = f.checkout_id) as returned_gmt,
  null::integer as loanrule_code_num,
  (select b.title from item_bibs ib join bibs b on b.id = ib.bib_id where ib.item_id = f.item_id order by ib.bib_id limit 1)::varchar(82) as title,
  null::bigint as original_patron_record_metadata_id, null::timestamptz as original_transfer_gmt, null::integer as previous_invoice_num,
  (select count(*) from fines o where o.patron_id = f.patron_id and o.paid_date is null and o.id < f.id)::integer as display_order
from fines f
where f.paid_date is null;

-- Payments, one row each. last_paid_amt: what was paid on the fine before this payment;
-- payment_status_code '1' when it paid the fine off, else '2' (partial).
create view sierra_view.fines_paid as
select fp.id, f.assessed_date as fine_assessed_date_gmt, fp.patron_id + 481036337152 as patron_record_metadata_id,
  f.item_charge::numeric(30, 6) as item_charge_amt, f.processing_fee::numeric(30, 6) as processing_fee_amt,
  f.billing_fee::numeric(30, 6) as billing_fee_amt, f.charge_type::char(1) as charge_type_code,
  f.location_code::varchar(5) as charge_location_code, fp.paid_date as paid_date_gmt, null::integer as tty_num,
  e.paid_before::numeric(30, 6) as last_paid_amt, null::varchar(255) as iii_user_name,
  (case when f.charge_type = '1' then 'm' else 'a' end)::char(1) as fine_creation_mode_code, null::char(1) as print_bill_code,
  f.item_id + 450971566080 as item_record_metadata_id,
  (select c.out_date from checkouts c where c.id = f.checkout_id) as checked_out_date_gmt,
  (select c.due_date::timestamptz from checkouts c where c.id = f.checkout_id) as due_date_gmt,
  (select c.returned_date from checkouts c where c.id = f.checkout_id) as returned_date_gmt,
  null::integer as loan_rule_code_num, f.description::varchar(100) as description, fp.amount::numeric(30, 6) as paid_now_amt,
  (case when e.paid_before + fp.amount >= f.item_charge + f.processing_fee + f.billing_fee then '1' else '2' end)::char(1)
    as payment_status_code,
  fp.payment_type::text::char(1) as payment_type_code, null::varchar(150) as payment_note, carrel_sierra_num(fp.id) as transaction_id,
  carrel_sierra_num(f.id) as invoice_num, null::integer as old_invoice_num
from fine_payments fp join fines f on f.id = fp.fine_id
  cross join lateral (select coalesce(sum(o.amount), 0) as paid_before from fine_payments o where o.fine_id = fp.fine_id and o.id < fp.id) e;

create view sierra_view.reading_history as
select r.id, r.bib_id + 420906795008 as bib_record_metadata_id, r.item_id + 450971566080 as item_record_metadata_id,
  r.patron_id + 481036337152 as patron_record_metadata_id, r.out_date as checkout_gmt
from reading_history r;

-- ---------------------------------------------------------------------------------------------
-- Codes and their names (iii_language_id 1: English). Sierra's ids of code rows are its own;
-- here a location's is its place in code order.

create view sierra_view.location as
select (row_number() over (order by l.code collate "C"))::integer as id, l.code::varchar(5) as code, l.branch_id as branch_code_num,
  null::varchar(5) as parent_location_code, true as is_public,
  -- Carrel's circulation rules, not the location, say what may be held.
  true as is_requestable
from locations l;

create view sierra_view.location_name as
select (row_number() over (order by l.code collate "C"))::integer as location_id, l.name::varchar(255) as name, 1 as iii_language_id
from locations l;

create view sierra_view.location_myuser as
select l.code::varchar(5) as code, l.branch_id as branch_code_num, null::varchar(5) as parent_location_code, true as is_public,
  l.name::varchar(255) as name
from locations l;

create view sierra_view.itype_property as
select t.code_num as id, t.code_num, t.code_num as display_order, null::integer as itype_property_category_id,
  null::integer as physical_format_id, null::integer as target_audience_id, null::integer as collection_id
from item_types t;

create view sierra_view.itype_property_myuser as
select t.code_num as code, t.code_num as display_order, null::integer as itype_property_category_id, null::integer as physical_format_id,
  null::integer as target_audience_id, t.name::varchar(255) as name
from item_types t;

create view sierra_view.item_status_property_myuser as
select s.code::char(1) as code, (row_number() over (order by s.code collate "C") - 1)::integer as display_order,
  s.display::varchar(255) as name
from item_statuses s;

create view sierra_view.material_property as
select (row_number() over (order by m.code collate "C"))::integer as id, m.code::varchar(3) as code,
  (row_number() over (order by m.code collate "C") - 1)::integer as display_order, true as is_public,
  null::integer as material_property_category_id, null::integer as physical_format_id
from material_types m;

create view sierra_view.material_property_myuser as
select m.code::varchar(3) as code, (row_number() over (order by m.code collate "C") - 1)::integer as display_order, true as is_public,
  null::integer as material_property_category_id, null::integer as physical_format_id, m.description::varchar(255) as name
from material_types m;

create view sierra_view.ptype_property_myuser as
select t.code::smallint as value, false as tagging_allowed, t.code as display_order, false as is_force_right_result_exact_allowed,
  false as is_comment_auto_approved, null::integer as ptype_category_id, t.description::varchar(255) as name
from patron_types t;

create view sierra_view.bib_level_property_myuser as
select v.code::varchar(3) as code, v.display_order, v.name::varchar(255) as name
from (values ('a', 0, 'Monographic component part'), ('b', 1, 'Serial component part'), ('c', 2, 'Collection'), ('d', 3, 'Subunit'),
  ('i', 4, 'Integrating resource'), ('m', 5, 'Monograph/Item'), ('s', 6, 'Serial')) v(code, display_order, name);

-- The MARC code lists, as Sierra's tables hold them: languages (MARC's codes are ISO 639-2/B's),
-- with their English names, and countries as Carrel names them (src/bibs/countries.ts).
create view sierra_view.language_property_myuser as
select v.code::varchar(3) as code, (row_number() over (order by v.code collate "C") - 1)::integer as display_order, true as is_public,
  v.name::varchar(255) as name
from (values
    ('aar', 'Afar'), ('abk', 'Abkhazian'), ('ace', 'Achinese'), ('ach', 'Acoli'),
    ('ada', 'Adangme'), ('ady', 'Adyghe'), ('afa', 'Afro-Asiatic languages'), ('afh', 'Afrihili'),
    ('afr', 'Afrikaans'), ('ain', 'Ainu'), ('aka', 'Akan'), ('akk', 'Akkadian'),
    ('alb', 'Albanian'), ('ale', 'Aleut'), ('alg', 'Algonquian languages'), ('alt', 'Southern Altai'),
    ('amh', 'Amharic'), ('ang', 'English, Old (ca.450-1100)'), ('anp', 'Angika'), ('apa', 'Apache languages'),
    ('ara', 'Arabic'), ('arc', 'Official Aramaic (700-300 BCE)'), ('arg', 'Aragonese'), ('arm', 'Armenian'),
    ('arn', 'Mapudungun'), ('arp', 'Arapaho'), ('art', 'Artificial languages'), ('arw', 'Arawak'),
    ('asm', 'Assamese'), ('ast', 'Asturian'), ('ath', 'Athapascan languages'), ('aus', 'Australian languages'),
    ('ava', 'Avaric'), ('ave', 'Avestan'), ('awa', 'Awadhi'), ('aym', 'Aymara'),
    ('aze', 'Azerbaijani'), ('bad', 'Banda languages'), ('bai', 'Bamileke languages'), ('bak', 'Bashkir'),
    ('bal', 'Baluchi'), ('bam', 'Bambara'), ('ban', 'Balinese'), ('baq', 'Basque'),
    ('bas', 'Basa'), ('bat', 'Baltic languages'), ('bej', 'Beja'), ('bel', 'Belarusian'),
    ('bem', 'Bemba'), ('ben', 'Bengali'), ('ber', 'Berber languages'), ('bho', 'Bhojpuri'),
    ('bih', 'Bihari languages'), ('bik', 'Bikol'), ('bin', 'Bini'), ('bis', 'Bislama'),
    ('bla', 'Siksika'), ('bnt', 'Bantu languages'), ('bos', 'Bosnian'), ('bra', 'Braj'),
    ('bre', 'Breton'), ('btk', 'Batak languages'), ('bua', 'Buriat'), ('bug', 'Buginese'),
    ('bul', 'Bulgarian'), ('bur', 'Burmese'), ('byn', 'Blin'), ('cad', 'Caddo'),
    ('cai', 'Central American Indian languages'), ('car', 'Galibi Carib'), ('cat', 'Catalan'), ('cau', 'Caucasian languages'),
    ('ceb', 'Cebuano'), ('cel', 'Celtic languages'), ('cha', 'Chamorro'), ('chb', 'Chibcha'),
    ('che', 'Chechen'), ('chg', 'Chagatai'), ('chi', 'Chinese'), ('chk', 'Chuukese'),
    ('chm', 'Mari'), ('chn', 'Chinook jargon'), ('cho', 'Choctaw'), ('chp', 'Chipewyan'),
    ('chr', 'Cherokee'), ('chu', 'Church Slavic'), ('chv', 'Chuvash'), ('chy', 'Cheyenne'),
    ('cmc', 'Chamic languages'), ('cnr', 'Montenegrin'), ('cop', 'Coptic'), ('cor', 'Cornish'),
    ('cos', 'Corsican'), ('cpe', 'Creoles and pidgins, English based'), ('cpf', 'Creoles and pidgins, French-based'), ('cpp', 'Creoles and pidgins, Portuguese-based'),
    ('cre', 'Cree'), ('crh', 'Crimean Tatar'), ('crp', 'Creoles and pidgins'), ('csb', 'Kashubian'),
    ('cus', 'Cushitic languages'), ('cze', 'Czech'), ('dak', 'Dakota'), ('dan', 'Danish'),
    ('dar', 'Dargwa'), ('day', 'Land Dayak languages'), ('del', 'Delaware'), ('den', 'Slave (Athapascan)'),
    ('dgr', 'Dogrib'), ('din', 'Dinka'), ('div', 'Divehi'), ('doi', 'Dogri'),
    ('dra', 'Dravidian languages'), ('dsb', 'Lower Sorbian'), ('dua', 'Duala'), ('dum', 'Dutch, Middle (ca.1050-1350)'),
    ('dut', 'Dutch'), ('dyu', 'Dyula'), ('dzo', 'Dzongkha'), ('efi', 'Efik'),
    ('egy', 'Egyptian (Ancient)'), ('eka', 'Ekajuk'), ('elx', 'Elamite'), ('eng', 'English'),
    ('enm', 'English, Middle (1100-1500)'), ('epo', 'Esperanto'), ('est', 'Estonian'), ('ewe', 'Ewe'),
    ('ewo', 'Ewondo'), ('fan', 'Fang'), ('fao', 'Faroese'), ('fat', 'Fanti'),
    ('fij', 'Fijian'), ('fil', 'Filipino'), ('fin', 'Finnish'), ('fiu', 'Finno-Ugrian languages'),
    ('fon', 'Fon'), ('fre', 'French'), ('frm', 'French, Middle (ca.1400-1600)'), ('fro', 'French, Old (842-ca.1400)'),
    ('frr', 'Northern Frisian'), ('frs', 'Eastern Frisian'), ('fry', 'Western Frisian'), ('ful', 'Fulah'),
    ('fur', 'Friulian'), ('gaa', 'Ga'), ('gay', 'Gayo'), ('gba', 'Gbaya'),
    ('gem', 'Germanic languages'), ('geo', 'Georgian'), ('ger', 'German'), ('gez', 'Geez'),
    ('gil', 'Gilbertese'), ('gla', 'Gaelic'), ('gle', 'Irish'), ('glg', 'Galician'),
    ('glv', 'Manx'), ('gmh', 'German, Middle High (ca.1050-1500)'), ('goh', 'German, Old High (ca.750-1050)'), ('gon', 'Gondi'),
    ('gor', 'Gorontalo'), ('got', 'Gothic'), ('grb', 'Grebo'), ('grc', 'Greek, Ancient (to 1453)'),
    ('gre', 'Greek, Modern (1453-)'), ('grn', 'Guarani'), ('gsw', 'Swiss German'), ('guj', 'Gujarati'),
    ('gwi', 'Gwich''in'), ('hai', 'Haida'), ('hat', 'Haitian'), ('hau', 'Hausa'),
    ('haw', 'Hawaiian'), ('heb', 'Hebrew'), ('her', 'Herero'), ('hil', 'Hiligaynon'),
    ('him', 'Himachali languages'), ('hin', 'Hindi'), ('hit', 'Hittite'), ('hmn', 'Hmong'),
    ('hmo', 'Hiri Motu'), ('hrv', 'Croatian'), ('hsb', 'Upper Sorbian'), ('hun', 'Hungarian'),
    ('hup', 'Hupa'), ('iba', 'Iban'), ('ibo', 'Igbo'), ('ice', 'Icelandic'),
    ('ido', 'Ido'), ('iii', 'Sichuan Yi'), ('ijo', 'Ijo languages'), ('iku', 'Inuktitut'),
    ('ile', 'Interlingue'), ('ilo', 'Iloko'), ('ina', 'Interlingua (International Auxiliary Language Association)'), ('inc', 'Indic languages'),
    ('ind', 'Indonesian'), ('ine', 'Indo-European languages'), ('inh', 'Ingush'), ('ipk', 'Inupiaq'),
    ('ira', 'Iranian languages'), ('iro', 'Iroquoian languages'), ('ita', 'Italian'), ('jav', 'Javanese'),
    ('jbo', 'Lojban'), ('jpn', 'Japanese'), ('jpr', 'Judeo-Persian'), ('jrb', 'Judeo-Arabic'),
    ('kaa', 'Kara-Kalpak'), ('kab', 'Kabyle'), ('kac', 'Kachin'), ('kal', 'Kalaallisut'),
    ('kam', 'Kamba'), ('kan', 'Kannada'), ('kar', 'Karen languages'), ('kas', 'Kashmiri'),
    ('kau', 'Kanuri'), ('kaw', 'Kawi'), ('kaz', 'Kazakh'), ('kbd', 'Kabardian'),
    ('kha', 'Khasi'), ('khi', 'Khoisan languages'), ('khm', 'Central Khmer'), ('kho', 'Khotanese'),
    ('kik', 'Kikuyu'), ('kin', 'Kinyarwanda'), ('kir', 'Kirghiz'), ('kmb', 'Kimbundu'),
    ('kok', 'Konkani'), ('kom', 'Komi'), ('kon', 'Kongo'), ('kor', 'Korean'),
    ('kos', 'Kosraean'), ('kpe', 'Kpelle'), ('krc', 'Karachay-Balkar'), ('krl', 'Karelian'),
    ('kro', 'Kru languages'), ('kru', 'Kurukh'), ('kua', 'Kuanyama'), ('kum', 'Kumyk'),
    ('kur', 'Kurdish'), ('kut', 'Kutenai'), ('lad', 'Ladino'), ('lah', 'Lahnda'),
    ('lam', 'Lamba'), ('lao', 'Lao'), ('lat', 'Latin'), ('lav', 'Latvian'),
    ('lez', 'Lezghian'), ('lim', 'Limburgan'), ('lin', 'Lingala'), ('lit', 'Lithuanian'),
    ('lol', 'Mongo'), ('loz', 'Lozi'), ('ltz', 'Luxembourgish'), ('lua', 'Luba-Lulua'),
    ('lub', 'Luba-Katanga'), ('lug', 'Ganda'), ('lui', 'Luiseno'), ('lun', 'Lunda'),
    ('luo', 'Luo (Kenya and Tanzania)'), ('lus', 'Lushai'), ('mac', 'Macedonian'), ('mad', 'Madurese'),
    ('mag', 'Magahi'), ('mah', 'Marshallese'), ('mai', 'Maithili'), ('mak', 'Makasar'),
    ('mal', 'Malayalam'), ('man', 'Mandingo'), ('mao', 'Maori'), ('map', 'Austronesian languages'),
    ('mar', 'Marathi'), ('mas', 'Masai'), ('may', 'Malay'), ('mdf', 'Moksha'),
    ('mdr', 'Mandar'), ('men', 'Mende'), ('mga', 'Irish, Middle (900-1200)'), ('mic', 'Mi''kmaq'),
    ('min', 'Minangkabau'), ('mis', 'Uncoded languages'), ('mkh', 'Mon-Khmer languages'), ('mlg', 'Malagasy'),
    ('mlt', 'Maltese'), ('mnc', 'Manchu'), ('mni', 'Manipuri'), ('mno', 'Manobo languages'),
    ('moh', 'Mohawk'), ('mon', 'Mongolian'), ('mos', 'Mossi'), ('mul', 'Multiple languages'),
    ('mun', 'Munda languages'), ('mus', 'Creek'), ('mwl', 'Mirandese'), ('mwr', 'Marwari'),
    ('myn', 'Mayan languages'), ('myv', 'Erzya'), ('nah', 'Nahuatl languages'), ('nai', 'North American Indian languages'),
    ('nap', 'Neapolitan'), ('nau', 'Nauru'), ('nav', 'Navajo'), ('nbl', 'Ndebele, South'),
    ('nde', 'Ndebele, North'), ('ndo', 'Ndonga'), ('nds', 'Low German'), ('nep', 'Nepali'),
    ('new', 'Nepal Bhasa'), ('nia', 'Nias'), ('nic', 'Niger-Kordofanian languages'), ('niu', 'Niuean'),
    ('nno', 'Norwegian Nynorsk'), ('nob', 'Bokmål, Norwegian'), ('nog', 'Nogai'), ('non', 'Norse, Old'),
    ('nor', 'Norwegian'), ('nqo', 'N''Ko'), ('nso', 'Pedi'), ('nub', 'Nubian languages'),
    ('nwc', 'Classical Newari'), ('nya', 'Chichewa'), ('nym', 'Nyamwezi'), ('nyn', 'Nyankole'),
    ('nyo', 'Nyoro'), ('nzi', 'Nzima'), ('oci', 'Occitan (post 1500)'), ('oji', 'Ojibwa'),
    ('ori', 'Oriya'), ('orm', 'Oromo'), ('osa', 'Osage'), ('oss', 'Ossetian'),
    ('ota', 'Turkish, Ottoman (1500-1928)'), ('oto', 'Otomian languages'), ('paa', 'Papuan languages'), ('pag', 'Pangasinan'),
    ('pal', 'Pahlavi'), ('pam', 'Pampanga'), ('pan', 'Panjabi'), ('pap', 'Papiamento'),
    ('pau', 'Palauan'), ('peo', 'Persian, Old (ca.600-400 B.C.)'), ('per', 'Persian'), ('phi', 'Philippine languages'),
    ('phn', 'Phoenician'), ('pli', 'Pali'), ('pol', 'Polish'), ('pon', 'Pohnpeian'),
    ('por', 'Portuguese'), ('pra', 'Prakrit languages'), ('pro', 'Provençal, Old (to 1500)'), ('pus', 'Pushto'),
    ('que', 'Quechua'), ('raj', 'Rajasthani'), ('rap', 'Rapanui'), ('rar', 'Rarotongan'),
    ('roa', 'Romance languages'), ('roh', 'Romansh'), ('rom', 'Romany'), ('rum', 'Romanian'),
    ('run', 'Rundi'), ('rup', 'Aromanian'), ('rus', 'Russian'), ('sad', 'Sandawe'),
    ('sag', 'Sango'), ('sah', 'Yakut'), ('sai', 'South American Indian languages'), ('sal', 'Salishan languages'),
    ('sam', 'Samaritan Aramaic'), ('san', 'Sanskrit'), ('sas', 'Sasak'), ('sat', 'Santali'),
    ('scn', 'Sicilian'), ('sco', 'Scots'), ('sel', 'Selkup'), ('sem', 'Semitic languages'),
    ('sga', 'Irish, Old (to 900)'), ('sgn', 'Sign Languages'), ('shn', 'Shan'), ('sid', 'Sidamo'),
    ('sin', 'Sinhala'), ('sio', 'Siouan languages'), ('sit', 'Sino-Tibetan languages'), ('sla', 'Slavic languages'),
    ('slo', 'Slovak'), ('slv', 'Slovenian'), ('sma', 'Southern Sami'), ('sme', 'Northern Sami'),
    ('smi', 'Sami languages'), ('smj', 'Lule Sami'), ('smn', 'Inari Sami'), ('smo', 'Samoan'),
    ('sms', 'Skolt Sami'), ('sna', 'Shona'), ('snd', 'Sindhi'), ('snk', 'Soninke'),
    ('sog', 'Sogdian'), ('som', 'Somali'), ('son', 'Songhai languages'), ('sot', 'Sotho, Southern'),
    ('spa', 'Spanish'), ('srd', 'Sardinian'), ('srn', 'Sranan Tongo'), ('srp', 'Serbian'),
    ('srr', 'Serer'), ('ssa', 'Nilo-Saharan languages'), ('ssw', 'Swati'), ('suk', 'Sukuma'),
    ('sun', 'Sundanese'), ('sus', 'Susu'), ('sux', 'Sumerian'), ('swa', 'Swahili'),
    ('swe', 'Swedish'), ('syc', 'Classical Syriac'), ('syr', 'Syriac'), ('tah', 'Tahitian'),
    ('tai', 'Tai languages'), ('tam', 'Tamil'), ('tat', 'Tatar'), ('tel', 'Telugu'),
    ('tem', 'Timne'), ('ter', 'Tereno'), ('tet', 'Tetum'), ('tgk', 'Tajik'),
    ('tgl', 'Tagalog'), ('tha', 'Thai'), ('tib', 'Tibetan'), ('tig', 'Tigre'),
    ('tir', 'Tigrinya'), ('tiv', 'Tiv'), ('tkl', 'Tokelau'), ('tlh', 'Klingon'),
    ('tli', 'Tlingit'), ('tmh', 'Tamashek'), ('tog', 'Tonga (Nyasa)'), ('ton', 'Tonga (Tonga Islands)'),
    ('tpi', 'Tok Pisin'), ('tsi', 'Tsimshian'), ('tsn', 'Tswana'), ('tso', 'Tsonga'),
    ('tuk', 'Turkmen'), ('tum', 'Tumbuka'), ('tup', 'Tupi languages'), ('tur', 'Turkish'),
    ('tut', 'Altaic languages'), ('tvl', 'Tuvalu'), ('twi', 'Twi'), ('tyv', 'Tuvinian'),
    ('udm', 'Udmurt'), ('uga', 'Ugaritic'), ('uig', 'Uighur'), ('ukr', 'Ukrainian'),
    ('umb', 'Umbundu'), ('und', 'Undetermined'), ('urd', 'Urdu'), ('uzb', 'Uzbek'),
    ('vai', 'Vai'), ('ven', 'Venda'), ('vie', 'Vietnamese'), ('vol', 'Volapük'),
    ('vot', 'Votic'), ('wak', 'Wakashan languages'), ('wal', 'Wolaitta'), ('war', 'Waray'),
    ('was', 'Washo'), ('wel', 'Welsh'), ('wen', 'Sorbian languages'), ('wln', 'Walloon'),
    ('wol', 'Wolof'), ('xal', 'Kalmyk'), ('xho', 'Xhosa'), ('yao', 'Yao'),
    ('yap', 'Yapese'), ('yid', 'Yiddish'), ('yor', 'Yoruba'), ('ypk', 'Yupik languages'),
    ('zap', 'Zapotec'), ('zbl', 'Blissymbols'), ('zen', 'Zenaga'), ('zgh', 'Standard Moroccan Tamazight'),
    ('zha', 'Zhuang'), ('znd', 'Zande languages'), ('zul', 'Zulu'), ('zun', 'Zuni'),
    ('zxx', 'No linguistic content'), ('zza', 'Zaza')
  ) v(code, name);

create view sierra_view.country_property_myuser as
select v.code::varchar(3) as code, (row_number() over (order by v.code collate "C") - 1)::integer as display_order,
  v.name::varchar(255) as name
from (values
    ('aa', 'Albania'), ('abc', 'Alberta'), ('aca', 'Australian Capital Territory'), ('ae', 'Algeria'),
    ('af', 'Afghanistan'), ('ag', 'Argentina'), ('ai', 'Armenia (Republic)'), ('aj', 'Azerbaijan'),
    ('aku', 'Alaska'), ('alu', 'Alabama'), ('am', 'Anguilla'), ('an', 'Andorra'),
    ('ao', 'Angola'), ('aq', 'Antigua and Barbuda'), ('aru', 'Arkansas'), ('at', 'Australia'),
    ('au', 'Austria'), ('aw', 'Aruba'), ('ay', 'Antarctica'), ('azu', 'Arizona'),
    ('ba', 'Bahrain'), ('bb', 'Barbados'), ('bcc', 'British Columbia'), ('bd', 'Burundi'),
    ('be', 'Belgium'), ('bf', 'Bahamas'), ('bg', 'Bangladesh'), ('bh', 'Belize'),
    ('bl', 'Brazil'), ('bm', 'Bermuda Islands'), ('bn', 'Bosnia and Herzegovina'), ('bo', 'Bolivia'),
    ('bp', 'Solomon Islands'), ('br', 'Burma'), ('bs', 'Botswana'), ('bt', 'Bhutan'),
    ('bu', 'Bulgaria'), ('bw', 'Belarus'), ('bx', 'Brunei'), ('cau', 'California'),
    ('cb', 'Cambodia'), ('cc', 'China'), ('cd', 'Chad'), ('ce', 'Sri Lanka'),
    ('cf', 'Congo (Brazzaville)'), ('cg', 'Congo (Democratic Republic)'), ('ch', 'China (Republic : 1949- )'), ('ci', 'Croatia'),
    ('cj', 'Cayman Islands'), ('ck', 'Colombia'), ('cl', 'Chile'), ('cm', 'Cameroon'),
    ('co', 'Curaçao'), ('cou', 'Colorado'), ('cq', 'Comoros'), ('cr', 'Costa Rica'),
    ('ctu', 'Connecticut'), ('cu', 'Cuba'), ('cv', 'Cabo Verde'), ('cw', 'Cook Islands'),
    ('cx', 'Central African Republic'), ('cy', 'Cyprus'), ('dcu', 'District of Columbia'), ('deu', 'Delaware'),
    ('dk', 'Denmark'), ('dm', 'Benin'), ('dq', 'Dominica'), ('dr', 'Dominican Republic'),
    ('ea', 'Eritrea'), ('ec', 'Ecuador'), ('eg', 'Equatorial Guinea'), ('em', 'Timor-Leste'),
    ('enk', 'England'), ('er', 'Estonia'), ('es', 'El Salvador'), ('et', 'Ethiopia'),
    ('fa', 'Faroe Islands'), ('fg', 'French Guiana'), ('fi', 'Finland'), ('fj', 'Fiji'),
    ('flu', 'Florida'), ('fm', 'Micronesia (Federated States)'), ('fp', 'French Polynesia'), ('fr', 'France'),
    ('ft', 'Djibouti'), ('gau', 'Georgia'), ('gb', 'Kiribati'), ('gd', 'Grenada'),
    ('gh', 'Ghana'), ('gi', 'Gibraltar'), ('gl', 'Greenland'), ('gm', 'Gambia'),
    ('go', 'Gabon'), ('gp', 'Guadeloupe'), ('gr', 'Greece'), ('gs', 'Georgia (Republic)'),
    ('gt', 'Guatemala'), ('gu', 'Guam'), ('gv', 'Guinea'), ('gw', 'Germany'),
    ('gy', 'Guyana'), ('gz', 'Gaza Strip'), ('hiu', 'Hawaii'), ('ho', 'Honduras'),
    ('ht', 'Haiti'), ('hu', 'Hungary'), ('iau', 'Iowa'), ('ic', 'Iceland'),
    ('idu', 'Idaho'), ('ie', 'Ireland'), ('ii', 'India'), ('ilu', 'Illinois'),
    ('inu', 'Indiana'), ('io', 'Indonesia'), ('iq', 'Iraq'), ('ir', 'Iran'),
    ('is', 'Israel'), ('it', 'Italy'), ('iv', 'Côte d''Ivoire'), ('ja', 'Japan'),
    ('jm', 'Jamaica'), ('jo', 'Jordan'), ('ke', 'Kenya'), ('kg', 'Kyrgyzstan'),
    ('kn', 'Korea (North)'), ('ko', 'Korea (South)'), ('ksu', 'Kansas'), ('ku', 'Kuwait'),
    ('kv', 'Kosovo'), ('kyu', 'Kentucky'), ('kz', 'Kazakhstan'), ('lau', 'Louisiana'),
    ('lb', 'Liberia'), ('le', 'Lebanon'), ('lh', 'Liechtenstein'), ('li', 'Lithuania'),
    ('lo', 'Lesotho'), ('ls', 'Laos'), ('lu', 'Luxembourg'), ('lv', 'Latvia'),
    ('ly', 'Libya'), ('mau', 'Massachusetts'), ('mbc', 'Manitoba'), ('mc', 'Monaco'),
    ('mdu', 'Maryland'), ('meu', 'Maine'), ('mf', 'Mauritius'), ('mg', 'Madagascar'),
    ('miu', 'Michigan'), ('mj', 'Montserrat'), ('mk', 'Oman'), ('ml', 'Mali'),
    ('mm', 'Malta'), ('mnu', 'Minnesota'), ('mo', 'Montenegro'), ('mou', 'Missouri'),
    ('mp', 'Mongolia'), ('mq', 'Martinique'), ('mr', 'Morocco'), ('msu', 'Mississippi'),
    ('mtu', 'Montana'), ('mu', 'Mauritania'), ('mv', 'Moldova'), ('mw', 'Malawi'),
    ('mx', 'Mexico'), ('my', 'Malaysia'), ('mz', 'Mozambique'), ('nbu', 'Nebraska'),
    ('ncu', 'North Carolina'), ('ndu', 'North Dakota'), ('ne', 'Netherlands'), ('nfc', 'Newfoundland and Labrador'),
    ('ng', 'Niger'), ('nhu', 'New Hampshire'), ('nik', 'Northern Ireland'), ('nju', 'New Jersey'),
    ('nkc', 'New Brunswick'), ('nl', 'New Caledonia'), ('nmu', 'New Mexico'), ('nn', 'Vanuatu'),
    ('no', 'Norway'), ('np', 'Nepal'), ('nq', 'Nicaragua'), ('nr', 'Nigeria'),
    ('nsc', 'Nova Scotia'), ('ntc', 'Northwest Territories'), ('nu', 'Nauru'), ('nuc', 'Nunavut'),
    ('nvu', 'Nevada'), ('nyu', 'New York (State)'), ('nz', 'New Zealand'), ('ohu', 'Ohio'),
    ('oku', 'Oklahoma'), ('onc', 'Ontario'), ('oru', 'Oregon'), ('pau', 'Pennsylvania'),
    ('pe', 'Peru'), ('pg', 'Guinea-Bissau'), ('ph', 'Philippines'), ('pic', 'Prince Edward Island'),
    ('pk', 'Pakistan'), ('pl', 'Poland'), ('pn', 'Panama'), ('po', 'Portugal'),
    ('pp', 'Papua New Guinea'), ('pr', 'Puerto Rico'), ('pw', 'Palau'), ('py', 'Paraguay'),
    ('qa', 'Qatar'), ('qea', 'Queensland'), ('quc', 'Québec (Province)'), ('rb', 'Serbia'),
    ('re', 'Réunion'), ('rh', 'Zimbabwe'), ('riu', 'Rhode Island'), ('rm', 'Romania'),
    ('ru', 'Russia (Federation)'), ('rw', 'Rwanda'), ('sa', 'South Africa'), ('scu', 'South Carolina'),
    ('sd', 'South Sudan'), ('sdu', 'South Dakota'), ('se', 'Seychelles'), ('sf', 'Sao Tome and Principe'),
    ('sg', 'Senegal'), ('si', 'Singapore'), ('sj', 'Sudan'), ('sl', 'Sierra Leone'),
    ('sm', 'San Marino'), ('snc', 'Saskatchewan'), ('so', 'Somalia'), ('sp', 'Spain'),
    ('sq', 'Eswatini'), ('sr', 'Surinam'), ('ss', 'Western Sahara'), ('stk', 'Scotland'),
    ('su', 'Saudi Arabia'), ('sw', 'Sweden'), ('sx', 'Namibia'), ('sy', 'Syria'),
    ('sz', 'Switzerland'), ('ta', 'Tajikistan'), ('tg', 'Togo'), ('th', 'Thailand'),
    ('ti', 'Tunisia'), ('tk', 'Turkmenistan'), ('tma', 'Tasmania'), ('tnu', 'Tennessee'),
    ('to', 'Tonga'), ('tr', 'Trinidad and Tobago'), ('ts', 'United Arab Emirates'), ('tu', 'Turkey'),
    ('tv', 'Tuvalu'), ('txu', 'Texas'), ('tz', 'Tanzania'), ('ua', 'Egypt'),
    ('ug', 'Uganda'), ('un', 'Ukraine'), ('utu', 'Utah'), ('uv', 'Burkina Faso'),
    ('uy', 'Uruguay'), ('uz', 'Uzbekistan'), ('vau', 'Virginia'), ('vb', 'British Virgin Islands'),
    ('vc', 'Vatican City'), ('ve', 'Venezuela'), ('vi', 'Virgin Islands of the United States'), ('vm', 'Vietnam'),
    ('vp', 'Various places'), ('vra', 'Victoria'), ('vtu', 'Vermont'), ('wau', 'Washington (State)'),
    ('wea', 'Western Australia'), ('wiu', 'Wisconsin'), ('wj', 'West Bank of the Jordan River'), ('wlk', 'Wales'),
    ('ws', 'Samoa'), ('wvu', 'West Virginia'), ('wyu', 'Wyoming'), ('xc', 'Maldives'),
    ('xd', 'Saint Kitts-Nevis'), ('xe', 'Marshall Islands'), ('xj', 'Saint Helena'), ('xk', 'Saint Lucia'),
    ('xm', 'Saint Vincent and the Grenadines'), ('xn', 'North Macedonia'), ('xna', 'New South Wales'), ('xo', 'Slovakia'),
    ('xoa', 'Northern Territory'), ('xr', 'Czech Republic'), ('xra', 'South Australia'), ('xv', 'Slovenia'),
    ('xx', 'No place, unknown, or undetermined'), ('xxc', 'Canada'), ('xxk', 'United Kingdom'), ('xxu', 'United States'),
    ('ye', 'Yemen'), ('ykc', 'Yukon Territory'), ('za', 'Zambia')
  ) v(code, name);
