-- The codes a library defines (0044) as SierraDNA shows them: a patron's codes 1 to 4 (fixed
-- fields 44, 45, 46 and 126) and notice preference (268) in patron_record, patron_view and the
-- views read from them, where the library defines the field and the patron has a value (else
-- Sierra's values for none, as before); the codes of patron codes 1 to 3 in the
-- user_defined_pcodeN_myuser views, user_defined_property and their names, where the library lists
-- them. Item statuses need no change: item_status_property and its name view read item_statuses,
-- which the profile writes. Columns, their order and types are unchanged (create or replace view),
-- so the SQL readers' grants stand.

create or replace view carrel_sierra_patron as
select p.id + 481036337152 as id, carrel_sierra_num(p.id) as record_num,
  (select pb.barcode from patron_barcodes pb where pb.patron_id = p.id order by pb.position limit 1)::varchar(512) as barcode,
  p.patron_type::smallint as ptype_code, p.home_library_code::varchar(5) as home_library_code,
  p.expiration_date::timestamptz as expiration_date_gmt,
  -- Patron codes 1 to 4: the library's fields 44, 45, 46 and 126 (Sierra's values for none where
  -- there is no value; codes 3 and 4 are numbers there, and a value that is not one reads as 0).
  coalesce(fv.pcode1, '-')::char(1) as pcode1, coalesce(fv.pcode2, '-')::char(1) as pcode2,
  (case when fv.pcode3 ~ '^[0-9]{1,4}$' then fv.pcode3::integer else 0 end)::smallint as pcode3,
  (case when fv.pcode4 ~ '^[0-9]{1,9}$' then fv.pcode4::integer else 0 end) as pcode4,
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
  fv.notice::varchar(3) as notification_medium_code, 0 as registration_count, 0 as registration_total, 0 as attendance_total,
  0 as waitlist_count, p.reading_history as is_reading_history_opt_in
from patrons p
  -- The patron's values of the library's fields, read in one pass (no function: SQL readers may call none of Carrel's).
  left join lateral (
    select max(v.value) filter (where v.field_number = 44) as pcode1, max(v.value) filter (where v.field_number = 45) as pcode2,
      max(v.value) filter (where v.field_number = 46) as pcode3, max(v.value) filter (where v.field_number = 126) as pcode4,
      max(v.value) filter (where v.field_number = 268) as notice
    from patron_fixed_values v where v.patron_id = p.id
  ) fv on true
where p.deleted_date is null;

-- ---------------------------------------------------------------------------------------------

create or replace view carrel_sierra_user_defined as
select c.id as category_id, c.code as category_code, u.code, u.display_order, u.name
from (values (1, 'bcode1'), (2, 'bcode2'), (3, 'bcode3'), (4, 'pcode1'), (5, 'pcode2'), (6, 'pcode3'), (7, 'scode1'),
    (8, 'scode2'), (9, 'scode3'), (10, 'scode4')) c(id, code)
  join (
    -- '-' (none) for bcode1 and scode1-4; for pcode1, pcode2 ('-') and pcode3 (0) where the library
    -- lists no codes for fields 44, 45 and 46.
    select v.category, v.code::varchar(255) as code, 0 as display_order, 'none'::varchar(255) as name
    from (values ('bcode1', '-', 0), ('pcode1', '-', 44), ('pcode2', '-', 45), ('pcode3', '0', 46), ('scode1', '-', 0),
        ('scode2', '-', 0), ('scode3', '-', 0), ('scode4', '-', 0)) v(category, code, field)
    where not exists (select 1 from patron_fixed_field_codes c where c.field_number = v.field)
    -- pcode1-3: the codes the library lists for fields 44, 45 and 46, in code order.
    union all
    select f.category, c.code::varchar(255),
      (row_number() over (partition by c.field_number order by c.code collate "C") - 1)::integer, c.name::varchar(255)
    from (values ('pcode1', 44), ('pcode2', 45), ('pcode3', 46)) f(category, field)
      join patron_fixed_field_codes c on c.field_number = f.field
    -- bcode2: the material types, in code order.
    union all
    select 'bcode2', m.code::varchar(255), (row_number() over (order by m.code collate "C") - 1)::integer,
      m.description::varchar(255)
    from material_types m
    -- bcode3: 'n' a bib suppressed from the public catalogue.
    union all
    select 'bcode3', v.code::varchar(255), v.display_order, v.name::varchar(255)
    from (values ('-', 0, 'none'), ('n', 1, 'suppressed')) v(code, display_order, name)
  ) u on u.category = c.code;
