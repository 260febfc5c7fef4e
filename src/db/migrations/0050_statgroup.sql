-- The statistics group (Sierra's statgroup: the number of the terminal or desk a transaction was
-- made at) that a checkout, renewal, check-in or hold request gives is kept with its event in the
-- circulation log, and sierra_view.circ_trans shows it as stat_group_code_num, as Sierra's does;
-- null for an event given none (and for what the library did not do at a desk: expiry, fines).
alter table circ_transactions add column stat_group integer check (stat_group between 0 and 999);

-- 0031's view with the statistics group, and with ptype_code in Sierra's type: text (the patron
-- type's number as varchar(3)), which reports written for Sierra compare with text (a report joins
-- it to ptype_property_myuser.value::varchar). A column's type changes only by making the view again.
drop view sierra_view.circ_trans;
create view sierra_view.circ_trans as
select c.id::integer as id, c.transaction_date as transaction_gmt, 'carrel'::varchar(256) as application_name,
  'local'::varchar(256) as source_code, c.op_code::varchar(256) as op_code,
  c.patron_id + 481036337152 as patron_record_id, c.item_id + 450971566080 as item_record_id,
  null::bigint as volume_record_id, c.bib_id + 420906795008 as bib_record_id,
  c.stat_group as stat_group_code_num, c.due_date::timestamptz as due_date_gmt, null::integer as count_type_code_num,
  t.code_num as itype_code_num, 0 as icode1, '-'::varchar(10) as icode2, c.item_location::varchar(5) as item_location_code,
  0 as item_agency_code_num, c.patron_type::varchar(3) as ptype_code, null::char(1) as pcode1, null::char(1) as pcode2,
  null::integer as pcode3, null::integer as pcode4, c.patron_home_library::varchar(5) as patron_home_library_code,
  0 as patron_agency_code_num, null::integer as loanrule_code_num
from circ_transactions c
left join item_types t on t.code = c.item_type;
