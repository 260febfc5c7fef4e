-- Sierra's order views over Carrel's orders (0051): until now they answered no rows (0032, 0049);
-- record_metadata lists orders too.
-- Each keeps the columns, column order and types 0032 and 0049 gave it. An order's record id is
-- (ascii('o') << 32) + its number: 476741369856 + id. Live orders only (cancelled ones included,
-- with status z, as Sierra keeps them). A column Carrel has nothing for stays a typed null.
-- vendor_record_code is varchar(5) in Sierra: a longer Carrel vendor code is cut to five
-- characters there (the vendor's own view has it whole).

create index orders_sierra_id on orders ((id + 476741369856));
create index orders_sierra_bib on orders ((bib_id + 420906795008));
create index order_locations_sierra_order on order_locations ((order_id + 476741369856));
create index invoice_lines_sierra_order on invoice_lines ((order_id + 476741369856)) where order_id is not null;

-- record_metadata lists orders too; its columns are 0030's, unchanged.
create or replace view sierra_view.record_metadata as
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
from patrons p
union all
select n.id + 472446402560, 'n'::char(1), carrel_sierra_num(n.id), n.created_date, n.deleted_date::date, ''::varchar(5), 0, 0,
  n.updated_date, null::timestamptz
from invoices n
union all
select v.id + 506806140928, 'v'::char(1), carrel_sierra_num(v.id), v.created_date, null::date, ''::varchar(5), 0, 0,
  v.updated_date, null::timestamptz
from vendors v
union all
select o.id + 476741369856, 'o'::char(1), carrel_sierra_num(o.id), o.created_date, o.deleted_date::date, ''::varchar(5), 0, 0,
  o.updated_date, null::timestamptz
from orders o;

create or replace view sierra_view.order_record as
select o.id + 476741369856 as id, o.id + 476741369856 as record_id, f.accounting_unit as accounting_unit_code_num,
  'p'::varchar(3) as acq_type_code, null::timestamptz as catalog_date_gmt, null::varchar(3) as claim_action_code,
  '-'::char(1) as ocode1, '-'::char(1) as ocode2, '-'::char(1) as ocode3, '-'::char(1) as ocode4,
  o.estimated_price::numeric(30, 6) as estimated_price, null::varchar(3) as form_code,
  o.order_date::timestamptz as order_date_gmt, null::varchar(3) as order_note_code, null::varchar(3) as order_type_code,
  null::varchar(3) as receiving_action_code, o.received_date::timestamptz as received_date_gmt,
  null::varchar(255) as receiving_location_code, null::varchar(255) as billing_location_code,
  o.status::varchar(3) as order_status_code, null::varchar(3) as temporary_location_code,
  v.code::varchar(5) as vendor_record_code, null::varchar(3) as language_code, null::varchar(10000) as blanket_purchase_order_num,
  null::varchar(3) as country_code, null::integer as volume_count, null::char(1) as fund_allocation_rule_code,
  null::varchar(255) as reopen_text, null::numeric(30, 6) as list_price, null::numeric(30, 6) as list_price_foreign_amt,
  null::numeric(30, 6) as list_price_discount_amt, null::numeric(30, 6) as list_price_service_charge, false as is_suppressed,
  o.paid_copies as fund_copies_paid
from orders o join funds f on f.id = o.fund_id join vendors v on v.id = o.vendor_id
where o.deleted_date is null;

create or replace view sierra_view.order_view as
select o.id, 'o'::char(1) as record_type_code, carrel_sierra_num(o.id - 476741369856) as record_num, o.record_id,
  o.accounting_unit_code_num, o.acq_type_code,
  o.catalog_date_gmt, o.claim_action_code, o.ocode1, o.ocode2, o.ocode3, o.ocode4, o.estimated_price, o.form_code, o.order_date_gmt,
  o.order_note_code, o.order_type_code, o.receiving_action_code, o.received_date_gmt, o.receiving_location_code, o.billing_location_code,
  o.order_status_code, o.temporary_location_code, o.vendor_record_code, o.language_code, o.blanket_purchase_order_num, o.country_code,
  o.volume_count, o.fund_allocation_rule_code, o.reopen_text, o.list_price, o.list_price_foreign_amt, o.list_price_discount_amt,
  o.list_price_service_charge, o.is_suppressed, (select c.created_date from orders c where c.id = o.id - 476741369856) as record_creation_date_gmt
from sierra_view.order_record o;

-- The fund charged for each location's copies. id: the order's number * 1000 + display_order (an
-- order has at most 100 locations). fund_code: the fund's number with five digits, as 0032.
create or replace view sierra_view.order_record_cmf as
select ol.order_id * 1000 + ol.display_order as id, ol.order_id + 476741369856 as order_record_id, ol.display_order,
  lpad(o.fund_id::text, 5, '0')::varchar(20) as fund_code, ol.copies, ol.location_code::varchar(5) as location_code
from order_locations ol join orders o on o.id = ol.order_id
where o.deleted_date is null;

-- A payment of an order: each line of a paid invoice that names it. id: the invoice line's id.
create or replace view sierra_view.order_record_paid as
select l.id, l.order_id + 476741369856 as order_record_id,
  (row_number() over (partition by l.order_id order by n.paid_date, l.id) - 1)::integer as display_order,
  n.paid_date as paid_date_gmt, l.total::numeric(30, 6) as paid_amount, null::numeric(30, 6) as foreign_paid_amount,
  null::varchar(10) as foreign_code, null::integer as voucher_num, n.inv_num::varchar(20) as invoice_code,
  n.inv_date::timestamptz as invoice_date_gmt, null::timestamptz as from_date_gmt, null::timestamptz as to_date_gmt,
  l.quantity as copies, l.note::varchar(200) as note
from invoice_lines l join invoices n on n.id = l.invoice_id
where l.order_id is not null and n.status = 'p';

-- A bib's orders, in the order they were placed. id: the order's number.
create or replace view sierra_view.bib_record_order_record_link as
select o.id, o.bib_id + 420906795008 as bib_record_id, o.id + 476741369856 as order_record_id,
  (row_number() over (partition by o.bib_id order by o.id) - 1)::integer as orders_display_order
from orders o
where o.deleted_date is null;

-- An invoice line linked to an order gives that order's id; otherwise, as before, a reference
-- written as an order's record key.
create or replace view sierra_view.invoice_record_line as
select l.id, l.invoice_id + 472446402560 as invoice_record_id,
  coalesce(l.order_id + 476741369856,
    case when l.order_ref ~ '^\.?o[0-9]' then sierra_view.reckey2id(l.order_ref) end) as order_record_metadata_id,
  l.subtotal::numeric(30, 6) as paid_amt, 0::numeric(30, 6) as lien_amt, 0 as lien_flag, l.amount::numeric(30, 6) as list_price,
  lpad(l.fund_id::text, 5, '0')::varchar(20) as fund_code, 0 as subfund_num, l.quantity as copies_paid_cnt,
  null::integer as external_fund_code_num, n.status::varchar(5) as status_code, l.note::varchar(20001) as note,
  false as is_single_copy_partial_pmt, (select b.title from bibs b where b.id = l.bib_id)::varchar(20001) as title,
  null::char(1) as multiflag_code, l.use_tax_amount::numeric(30, 6) as line_level_tax,
  (select v.code from vendors v where v.id = n.vendor_id)::varchar(15) as vendor_code,
  null::integer as accounting_transaction_voucher_num, null::integer as accounting_transaction_voucher_seq_num,
  l.line_number as line_cnt, null::bigint as invoice_record_vendor_summary_id, l.use_tax as is_use_tax
from invoice_lines l join invoices n on n.id = l.invoice_id
where n.deleted_date is null;

-- Order statuses (0049 defined none): Sierra's codes Carrel sets, in code order.
create or replace view sierra_view.order_status_property as
select (s.n)::integer as id, s.code::varchar(3) as code, (s.n - 1)::integer as display_order
from (values (1, '1', 'selection list'), (2, 'a', 'fully paid'), (3, 'o', 'on order'), (4, 'q', 'partly paid'), (5, 'z', 'cancelled'))
  s(n, code, name);

create or replace view sierra_view.order_status_property_name as
select p.id as order_status_property_id, 1 as iii_language_id, s.name::varchar(255) as name
from sierra_view.order_status_property p
join (values ('1', 'selection list'), ('a', 'fully paid'), ('o', 'on order'), ('q', 'partly paid'), ('z', 'cancelled')) s(code, name)
  on s.code = p.code;

create or replace view sierra_view.order_status_property_myuser as
select p.code, p.display_order, n.name
from sierra_view.order_status_property p join sierra_view.order_status_property_name n on n.order_status_property_id = p.id;
