-- The circulation transaction log (Sierra's circ_trans, shown as sierra_view.circ_trans): each
-- checkout, check-in, renewal, hold placed, filled or cancelled and fine charged, written in the
-- transaction that does it, with the patron's type and home library and the item's type and
-- location as they were at that moment (a report of last year's loans by patron type must not
-- change when a patron's type does). Kept for CARREL_CIRC_TRANS_DAYS, then deleted.
create table circ_transactions (
  id bigint generated always as identity primary key,
  transaction_date timestamptz not null,
  -- Sierra's op codes: o checkout, i checkin, r renewal, nb / ni hold placed on a bib / an item,
  -- f hold filled; Carrel's own for what Sierra does not log here: x hold cancelled or expired,
  -- $ fine charged.
  op_code text not null,
  patron_id bigint,
  item_id bigint,
  bib_id bigint,
  due_date date,
  patron_type integer,
  patron_home_library text,
  item_type text,
  item_location text,
  checkout_id bigint,
  hold_id bigint,
  fine_id bigint
);

create index circ_transactions_date on circ_transactions (transaction_date);
create index circ_transactions_patron on circ_transactions (patron_id, transaction_date);
create index circ_transactions_item on circ_transactions (item_id, transaction_date);

-- Sierra's view of the log: its record ids ((type letter << 32) + number, as in 0030), the item
-- type's number, and nulls for what Carrel does not keep (statistics groups, user codes).
create view sierra_view.circ_trans as
select c.id::integer as id, c.transaction_date as transaction_gmt, 'carrel'::varchar(256) as application_name,
  'local'::varchar(256) as source_code, c.op_code::varchar(256) as op_code,
  c.patron_id + 481036337152 as patron_record_id, c.item_id + 450971566080 as item_record_id,
  null::bigint as volume_record_id, c.bib_id + 420906795008 as bib_record_id,
  null::integer as stat_group_code_num, c.due_date::timestamptz as due_date_gmt, null::integer as count_type_code_num,
  t.code_num as itype_code_num, 0 as icode1, '-'::varchar(10) as icode2, c.item_location::varchar(5) as item_location_code,
  0 as item_agency_code_num, c.patron_type::smallint as ptype_code, null::char(1) as pcode1, null::char(1) as pcode2,
  null::integer as pcode3, null::integer as pcode4, c.patron_home_library::varchar(5) as patron_home_library_code,
  0 as patron_agency_code_num, null::integer as loanrule_code_num
from circ_transactions c
left join item_types t on t.code = c.item_type;
