-- More of Sierra's views (schema sierra_view, 0030_sierra_view.sql): acquisitions (orders,
-- invoices, funds, accounting units, vendors), authorities, holdings and bib locations, volumes,
-- removed holds, the index of record keys (phrase_entry), the user-defined code tables, review
-- files and the names of the variable-field types. 0030's conventions hold here: Sierra's view
-- names, columns, column order and types; a record's id is (ascii(type letter) << 32) + record
-- number, the number being Carrel's id (n invoice 472446402560, v vendor 506806140928; o order,
-- a authority and j volume have no Carrel records); a column Carrel has nothing for is a typed
-- null or Sierra's default (0 for a count, false for a flag, '-' for a user-defined code); a view
-- of records Carrel does not keep at all (orders, authorities, volumes, statistics groups,
-- agencies, review files) answers no rows. Helpers are in schema public, carrel_sierra_*.
--
-- Money: Sierra's numeric(30, 6) from Carrel's numeric(18, 2); the fund view gives whole cents,
-- as Sierra's integer columns there do. A fund's code_num is its Carrel id; Sierra writes a
-- fund in an order or invoice line (fund_code) as that number with five digits ('00012'), which
-- reports cast to an integer to join fund_master.code_num.

-- ---------------------------------------------------------------------------------------------
-- Record ids of the new record types, and lookups by them through an index.

create index invoices_sierra_id on invoices ((id + 472446402560));
create index invoice_lines_sierra_invoice on invoice_lines ((invoice_id + 472446402560));
create index vendors_sierra_id on vendors ((id + 506806140928));
create index invoices_vendor on invoices (vendor_id) where deleted_date is null;
-- Removed holds by patron (hold_removed), as 0030 indexes the active ones.
create index holds_sierra_removed_patron on holds ((patron_id + 481036337152)) where state in ('x', 'c', 'f');
-- phrase_entry finds a barcode as Sierra's index holds it (lower case): these are the view's own
-- expressions, so `index_tag = 'b' and index_entry = '…'` reads one index entry a table.
create index items_sierra_phrase_barcode on items ((lower(barcode)::varchar(512))) where deleted_date is null and barcode is not null;
create index patron_barcodes_sierra_phrase on patron_barcodes ((lower(barcode)::varchar(512)));

-- record_metadata lists invoices and vendors too (Carrel keeps no deleted vendors). Its columns
-- are 0030's, unchanged.
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
from vendors v;

-- ---------------------------------------------------------------------------------------------
-- Orders: Carrel keeps none (an invoice line's order reference is text, see invoice_record_line).

create view sierra_view.order_record as
select null::bigint as id, null::bigint as record_id, null::integer as accounting_unit_code_num, null::varchar(3) as acq_type_code,
  null::timestamptz as catalog_date_gmt, null::varchar(3) as claim_action_code, null::char(1) as ocode1, null::char(1) as ocode2,
  null::char(1) as ocode3, null::char(1) as ocode4, null::numeric(30, 6) as estimated_price, null::varchar(3) as form_code,
  null::timestamptz as order_date_gmt, null::varchar(3) as order_note_code, null::varchar(3) as order_type_code,
  null::varchar(3) as receiving_action_code, null::timestamptz as received_date_gmt, null::varchar(255) as receiving_location_code,
  null::varchar(255) as billing_location_code, null::varchar(3) as order_status_code, null::varchar(3) as temporary_location_code,
  null::varchar(5) as vendor_record_code, null::varchar(3) as language_code, null::varchar(10000) as blanket_purchase_order_num,
  null::varchar(3) as country_code, null::integer as volume_count, null::char(1) as fund_allocation_rule_code,
  null::varchar(255) as reopen_text, null::numeric(30, 6) as list_price, null::numeric(30, 6) as list_price_foreign_amt,
  null::numeric(30, 6) as list_price_discount_amt, null::numeric(30, 6) as list_price_service_charge, null::boolean as is_suppressed,
  null::integer as fund_copies_paid
where false;

create view sierra_view.order_view as
select o.id, 'o'::char(1) as record_type_code, null::integer as record_num, o.record_id, o.accounting_unit_code_num, o.acq_type_code,
  o.catalog_date_gmt, o.claim_action_code, o.ocode1, o.ocode2, o.ocode3, o.ocode4, o.estimated_price, o.form_code, o.order_date_gmt,
  o.order_note_code, o.order_type_code, o.receiving_action_code, o.received_date_gmt, o.receiving_location_code, o.billing_location_code,
  o.order_status_code, o.temporary_location_code, o.vendor_record_code, o.language_code, o.blanket_purchase_order_num, o.country_code,
  o.volume_count, o.fund_allocation_rule_code, o.reopen_text, o.list_price, o.list_price_foreign_amt, o.list_price_discount_amt,
  o.list_price_service_charge, o.is_suppressed, null::timestamptz as record_creation_date_gmt
from sierra_view.order_record o;

create view sierra_view.order_record_cmf as
select null::bigint as id, null::bigint as order_record_id, null::integer as display_order, null::varchar(20) as fund_code,
  null::integer as copies, null::varchar(5) as location_code
where false;

create view sierra_view.order_record_paid as
select null::bigint as id, null::bigint as order_record_id, null::integer as display_order, null::timestamptz as paid_date_gmt,
  null::numeric(30, 6) as paid_amount, null::numeric(30, 6) as foreign_paid_amount, null::varchar(10) as foreign_code,
  null::integer as voucher_num, null::varchar(20) as invoice_code, null::timestamptz as invoice_date_gmt,
  null::timestamptz as from_date_gmt, null::timestamptz as to_date_gmt, null::integer as copies, null::varchar(200) as note
where false;

create view sierra_view.bib_record_order_record_link as
select null::bigint as id, null::bigint as bib_record_id, null::bigint as order_record_id, null::integer as orders_display_order
where false;

-- ---------------------------------------------------------------------------------------------
-- Invoices (live ones; a deleted invoice is in record_metadata with its deletion date).
-- status_code is Carrel's: o open, s suspended, p paid. An invoice is posted when it is paid.
-- Carrel keeps use tax only: total_tax_amt is its lines' use tax, grand_total_amt the sum of
-- its lines' totals (subtotal + use tax + shipping - discount, as Carrel's API gives it).
-- invoice_number_text keeps Carrel's whole number (up to 40 characters; Sierra's has 20).

create view sierra_view.invoice_record as
select n.id + 472446402560 as id, n.id + 472446402560 as record_id, n.accounting_unit as accounting_unit_code_num,
  n.inv_date::timestamptz as invoice_date_gmt, n.paid_date as paid_date_gmt, n.status::varchar(20) as status_code,
  n.paid_date as posted_data_gmt, false as is_paid_date_received_date, '-'::char(1) as ncode1, '-'::char(1) as ncode2,
  '-'::char(1) as ncode3, n.inv_num::varchar(40) as invoice_number_text, null::varchar(20) as iii_user_name,
  n.currency::varchar(20) as foreign_currency_code, null::varchar(30) as foreign_currency_format,
  null::numeric(30, 6) as foreign_currency_exchange_rate, null::varchar(255) as tax_fund_code, null::varchar(30) as tax_type_code,
  n.discount::numeric(30, 6) as discount_amt,
  (select coalesce(sum(l.total), 0) from invoice_lines l where l.invoice_id = n.id)::numeric(30, 6) as grand_total_amt,
  (select coalesce(sum(l.subtotal), 0) from invoice_lines l where l.invoice_id = n.id)::numeric(30, 6) as subtotal_amt,
  n.shipping::numeric(30, 6) as shipping_amt,
  (select coalesce(sum(l.use_tax_amount), 0) from invoice_lines l where l.invoice_id = n.id)::numeric(30, 6) as total_tax_amt,
  null::varchar(255) as use_tax_fund_code, n.use_tax_rate::numeric(30, 6) as use_tax_percentage_rate,
  n.use_tax_code::varchar(10) as use_tax_type_code, null::varchar(10) as use_tax_ship_service_code, false as is_suppressed
from invoices n
where n.deleted_date is null;

-- A line: paid_amt its subtotal (unit price × copies; shipping, tax and discount are the
-- invoice's), list_price the unit price, line_level_tax its use tax, line_cnt its number. An
-- order reference written as an order's record key ('o1000001', '.o10000013') gives that
-- order's id, as Sierra links a line to its order (Carrel keeps no order records).
create view sierra_view.invoice_record_line as
select l.id, l.invoice_id + 472446402560 as invoice_record_id,
  case when l.order_ref ~ '^\.?o[0-9]' then sierra_view.reckey2id(l.order_ref) end as order_record_metadata_id,
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

-- ---------------------------------------------------------------------------------------------
-- Funds and accounting units. An accounting unit is a number Carrel's funds, vendors and
-- invoices carry (0 unless the library set one); its id is the number + 1. A fund's property
-- row has fund type 1 (an ordinary fund) and one name row, in English.

create view carrel_sierra_accounting_unit as
select f.accounting_unit as code_num from funds f
union
select v.accounting_unit from vendors v
union
select n.accounting_unit from invoices n where n.deleted_date is null;

create view sierra_view.accounting_unit as
select u.code_num + 1 as id, u.code_num
from carrel_sierra_accounting_unit u;

-- Carrel names no accounting unit.
create view sierra_view.accounting_unit_myuser as
select u.code_num as code, null::varchar(20) as name
from carrel_sierra_accounting_unit u;

create view sierra_view.fund_master as
select f.id, f.accounting_unit + 1 as accounting_unit_id, f.id as code_num, f.code::varchar(255) as code
from funds f;

-- Amounts in cents (null past the integer range). num_payments: the fund's lines on paid invoices.
create view sierra_view.fund as
select f.accounting_unit as acct_unit, null::varchar(255) as fund_type, f.code::varchar(255) as fund_code, null::integer as external_fund,
  case when f.appropriation * 100 <= 2147483647 then (f.appropriation * 100)::integer end as appropriation,
  case when f.expenditure * 100 <= 2147483647 then (f.expenditure * 100)::integer end as expenditure,
  case when f.encumbrance * 100 <= 2147483647 then (f.encumbrance * 100)::integer end as encumbrance,
  0 as num_orders,
  (select count(*) from invoice_lines l join invoices n on n.id = l.invoice_id where l.fund_id = f.id and n.status = 'p')::integer
    as num_payments,
  0 as warning_percent, 0 as discount_percent
from funds f;

create view sierra_view.fund_property as
select f.id, f.id as fund_master_id, 1 as fund_type_id, null::integer as external_fund_property_id, 0 as warning_percent,
  0 as discount_percent, null::varchar(255) as user_code1, null::varchar(255) as user_code2, null::varchar(255) as user_code3,
  true as is_active
from funds f;

create view sierra_view.fund_property_name as
select f.id as fund_property_id, 1 as iii_language_id, f.fund_name::varchar(255) as name, f.note::varchar(255) as note1,
  null::varchar(255) as note2
from funds f;

-- ---------------------------------------------------------------------------------------------
-- Vendors. Sierra counts a vendor's invoices as they are posted: invoice_cnt and
-- invoice_total_amt count its paid invoices. Carrel's vendor codes may be up to 15 characters
-- (Sierra's 5): code keeps them whole. Name and address are not in this view in Sierra either.

create view sierra_view.vendor_record as
select v.id + 506806140928 as id, v.id + 506806140928 as record_id, v.accounting_unit as accounting_unit_code_num,
  v.code::varchar(15) as code, '-'::char(1) as claim_cycle_code, '-'::char(1) as vcode1, '-'::char(1) as vcode2, '-'::char(1) as vcode3,
  0 as order_cnt, 0 as claim_cnt, 0 as cancel_cnt, 0 as receipt_cnt,
  (select count(*) from invoices n where n.vendor_id = v.id and n.deleted_date is null and n.status = 'p')::integer as invoice_cnt,
  0 as orders_claimed_cnt, 0 as copies_received_cnt, 0::numeric(30, 6) as order_total_amt,
  (select coalesce(sum(l.total), 0) from invoices n join invoice_lines l on l.invoice_id = n.id
   where n.vendor_id = v.id and n.deleted_date is null and n.status = 'p')::numeric(30, 6) as invoice_total_amt,
  0::numeric(30, 6) as estimated_received_price_amt, 0::numeric(30, 6) as estimated_cancelled_price_amt, 0 as average_weeks,
  0 as discount, '-'::varchar(3) as vendor_message_code, null::varchar(3) as language_code, null::integer as gir_code,
  false as is_suppressed
from vendors v;

-- ---------------------------------------------------------------------------------------------
-- Authorities and volumes: Carrel keeps none.

create view sierra_view.authority_record as
select null::bigint as id, null::bigint as record_id, null::char(1) as marc_type_code, null::char(1) as code1, null::char(1) as code2,
  null::char(1) as suppress_code, null::boolean as is_suppressed
where false;

create view sierra_view.authority_view as
select a.id, 'a'::char(1) as record_type_code, null::integer as record_num, a.marc_type_code, a.code1, a.code2, a.suppress_code,
  null::timestamptz as record_creation_date_gmt
from sierra_view.authority_record a;

create view sierra_view.volume_record as
select null::bigint as id, null::bigint as record_id, null::integer as sort_order, null::boolean as is_suppressed
where false;

create view sierra_view.bib_record_volume_record_link as
select null::bigint as id, null::bigint as bib_record_id, null::bigint as volume_record_id, null::integer as volumes_display_order
where false;

-- ---------------------------------------------------------------------------------------------
-- Locations of holdings records and of bibs.

-- A holdings record's location (its 852 $b), one row; Carrel counts no copies there: 1.
-- id: the holdings record's number.
create view sierra_view.holding_record_location as
select h.id, h.id + 425201762304 as holding_record_id, 1 as copies, h.location_code::varchar(5) as location_code, 0 as display_order
from holdings h
where h.deleted_date is null and h.location_code is not null;

-- A bib's locations: one row for each location of its live items, with the number of them there,
-- in code order. id: the bib's id * 10000 + display_order. A condition on bib_record_id is
-- applied before the counting (it is the grouping and partition key), through the link's index.
create view sierra_view.bib_record_location as
select g.bib_record_id * 10000 + g.display_order as id, g.bib_record_id, g.copies, g.location_code, g.display_order
from (
  select ib.bib_id + 420906795008 as bib_record_id, i.location_code::varchar(5) as location_code, count(*)::integer as copies,
    (row_number() over (partition by ib.bib_id + 420906795008 order by i.location_code::varchar(5) collate "C") - 1)::integer
      as display_order
  from item_bibs ib join items i on i.id = ib.item_id
  where i.deleted_date is null and i.location_code is not null
    and not exists (select from bibs b where b.id = ib.bib_id and b.deleted_date is not null)
  group by ib.bib_id + 420906795008, i.location_code::varchar(5)
) g;

-- ---------------------------------------------------------------------------------------------
-- Holds no longer active: expired (x), cancelled (c) or filled (f). removed_by_program is
-- Carrel's reason ('cancelled', 'not needed after', 'not collected', 'checked out'); status is
-- the hold's last active status as far as Carrel knows it (on the shelf for a filled or an
-- uncollected hold, else waiting); holdshelf_status 'p' (picked up) for a filled one. Carrel
-- does not keep a removed hold's place in the queues: 0.
create view sierra_view.hold_removed as
select h.id, h.patron_id + 481036337152 as patron_record_id,
  case h.record_type when 'b' then h.bib_id + 420906795008 else h.item_id + 450971566080 end as record_id,
  h.placed::timestamptz as placed_gmt, h.finished_date as removed_gmt, h.frozen as is_frozen,
  greatest(h.not_wanted_before - h.placed, 0) as delay_days, null::varchar(5) as location_code,
  h.not_needed_after::timestamptz as expires_gmt,
  (case when h.state = 'f' or h.finished_reason = 'not collected' then h.record_type else '0' end)::char(1) as status,
  false as is_ir, h.pickup_location::varchar(5) as pickup_location_code, false as is_ill, nullif(h.note, '')::varchar(128) as note,
  null::varchar(5) as ir_pickup_location_code, null::varchar(255) as ir_print_name, null::varchar(255) as ir_delivery_stop_name,
  false as is_ir_converted_request, 0 as patron_records_display_order, 0 as records_display_order,
  h.finished_reason::varchar(255) as removed_by_program, null::varchar(255) as removed_by_user,
  null::timestamptz as on_holdshelf_gmt, null::timestamptz as expire_holdshelf_gmt,
  (case when h.state = 'f' then 'p' end)::char(1) as holdshelf_status
from holds h
where h.state in ('x', 'c', 'f');

-- ---------------------------------------------------------------------------------------------
-- phrase_entry: Sierra's index of record keys, from what Carrel indexes: b barcodes (items' and
-- patrons'), t titles and a authors of bibs (normalized as bib_record_property's *_norm), i
-- their ISBNs and ISSNs. index_entry is lower case, as Sierra's; original_content the key as
-- written; insert_title a bib's title. id: the record's id * 1000 + the key's place (barcode 0
-- or a patron's barcode position, title 1, author 2, ISBNs from 100, ISSNs from 500).
-- A condition on index_tag leaves out the other parts before reading them; a barcode is found
-- through the indexes on the view's own expressions (above). Titles, authors and ISBNs are not
-- indexed: a lookup of one reads every bib.
create view sierra_view.phrase_entry as
select (i.id + 450971566080) * 1000 as id, i.id + 450971566080 as record_id, 'b'::varchar(20) as index_tag,
  'b'::char(1) as varfield_type_code, 0 as occurrence, false as is_permuted, null::integer as type2, null::char(1) as type3,
  lower(i.barcode)::varchar(512) as index_entry, null::varchar(256) as insert_title, null::integer as phrase_rule_rule_num,
  null::char(1) as phrase_rule_operation, null::varchar(50) as phrase_rule_subfield_list, i.barcode::varchar(1000) as original_content,
  null::bigint as parent_record_id, null::char(1) as insert_title_tag, null::integer as insert_title_occ
from items i
where i.deleted_date is null and i.barcode is not null
union all
select (pb.patron_id + 481036337152) * 1000 + least(pb.position, 99), pb.patron_id + 481036337152, 'b'::varchar(20), 'b'::char(1),
  pb.position, false, null::integer, null::char(1), lower(pb.barcode)::varchar(512), null::varchar(256), null::integer, null::char(1),
  null::varchar(50), pb.barcode::varchar(1000), null::bigint, null::char(1), null::integer
from patron_barcodes pb
union all
select (b.id + 420906795008) * 1000 + 1, b.id + 420906795008, 't'::varchar(20), 't'::char(1), 0, false, null::integer, null::char(1),
  carrel_sierra_norm(b.title)::varchar(512), b.title::varchar(256), null::integer, null::char(1), null::varchar(50),
  b.title::varchar(1000), null::bigint, null::char(1), null::integer
from bibs b
where b.deleted_date is null and b.title is not null
union all
select (b.id + 420906795008) * 1000 + 2, b.id + 420906795008, 'a'::varchar(20), 'a'::char(1), 0, false, null::integer, null::char(1),
  carrel_sierra_norm(b.author)::varchar(512), b.title::varchar(256), null::integer, null::char(1), null::varchar(50),
  b.author::varchar(1000), null::bigint, null::char(1), null::integer
from bibs b
where b.deleted_date is null and b.author is not null
union all
select (b.id + 420906795008) * 1000 + 99 + least(k.ord, 400), b.id + 420906795008, 'i'::varchar(20), 'i'::char(1), (k.ord - 1)::integer,
  false, null::integer, null::char(1), lower(k.code)::varchar(512), b.title::varchar(256), null::integer, null::char(1),
  null::varchar(50), k.code::varchar(1000), null::bigint, null::char(1), null::integer
from bibs b cross join lateral unnest(b.isbns) with ordinality k(code, ord)
where b.deleted_date is null
union all
select (b.id + 420906795008) * 1000 + 499 + least(k.ord, 500), b.id + 420906795008, 'i'::varchar(20), 'i'::char(1),
  (cardinality(b.isbns) + k.ord - 1)::integer, false, null::integer, null::char(1), lower(k.code)::varchar(512), b.title::varchar(256),
  null::integer, null::char(1), null::varchar(50), k.code::varchar(1000), null::bigint, null::char(1), null::integer
from bibs b cross join lateral unnest(b.issns) with ordinality k(code, ord)
where b.deleted_date is null;

-- ---------------------------------------------------------------------------------------------
-- Code tables. Statistics groups and agencies: Carrel keeps none (its records' agency is 0).

create view sierra_view.statistic_group_myuser as
select null::integer as code, null::varchar(5) as location_code, null::varchar(255) as name
where false;

create view sierra_view.agency_property_myuser as
select null::integer as code, null::integer as display_order, null::varchar(255) as name
where false;

-- The user-defined codes Carrel's records carry (0030): '-' (none) for pcode1, pcode2, bcode1
-- and scode1-4, 0 for pcode3; bcode2 is the material type (Sierra's MAT TYPE), named as
-- Carrel names them; bcode3 'n' is a bib suppressed from the public catalogue.
create view sierra_view.user_defined_pcode1_myuser as
select '-'::varchar(255) as code, null::integer as user_defined_category_id, 0 as display_order, 'none'::varchar(255) as name;

create view sierra_view.user_defined_pcode2_myuser as
select '-'::varchar(255) as code, null::integer as user_defined_category_id, 0 as display_order, 'none'::varchar(255) as name;

create view sierra_view.user_defined_pcode3_myuser as
select '0'::varchar(255) as code, null::integer as user_defined_category_id, 0 as display_order, 'none'::varchar(255) as name;

create view sierra_view.user_defined_bcode1_myuser as
select '-'::varchar(255) as code, null::integer as user_defined_category_id, 0 as display_order, 'none'::varchar(255) as name;

create view sierra_view.user_defined_bcode2_myuser as
select m.code::varchar(255) as code, null::integer as user_defined_category_id,
  (row_number() over (order by m.code collate "C") - 1)::integer as display_order, m.description::varchar(255) as name
from material_types m;

create view sierra_view.user_defined_bcode3_myuser as
select v.code::varchar(255) as code, null::integer as user_defined_category_id, v.display_order, v.name::varchar(255) as name
from (values ('-', 0, 'none'), ('n', 1, 'suppressed')) v(code, display_order, name);

create view sierra_view.user_defined_scode1_myuser as
select '-'::varchar(255) as code, null::integer as user_defined_category_id, 0 as display_order, 'none'::varchar(255) as name;

create view sierra_view.user_defined_scode2_myuser as
select '-'::varchar(255) as code, null::integer as user_defined_category_id, 0 as display_order, 'none'::varchar(255) as name;

create view sierra_view.user_defined_scode3_myuser as
select '-'::varchar(255) as code, null::integer as user_defined_category_id, 0 as display_order, 'none'::varchar(255) as name;

create view sierra_view.user_defined_scode4_myuser as
select '-'::varchar(255) as code, null::integer as user_defined_category_id, 0 as display_order, 'none'::varchar(255) as name;

-- ---------------------------------------------------------------------------------------------
-- Review files: Carrel keeps none yet.

create view sierra_view.bool_info as
select null::bigint as id, null::varchar(512) as name, null::integer as max, null::integer as count, null::char(1) as record_type_code,
  null::varchar(512) as record_range, null::timestamptz as bool_gmt, null::text as bool_query, null::text as sql_query,
  null::boolean as is_lookup_call, null::boolean as is_lookup_880, null::boolean as is_search_holdings, null::text as sorter_spec,
  null::text as lister_spec, null::char(1) as status_code, null::varchar(255) as iii_user_name, null::text as list_export_spec,
  null::varchar(255) as owner_iii_user_name, null::boolean as is_store_field, null::boolean as is_card_search
where false;

create view sierra_view.bool_set as
select null::bigint as id, null::bigint as record_metadata_id, null::bigint as bool_info_id, null::integer as display_order,
  null::varchar(255) as field_key, null::integer as occ_num
where false;

-- ---------------------------------------------------------------------------------------------
-- The variable-field types Carrel's records have (the field groups of varfield.varfield_type_code
-- and subfield.field_type_code, 0030): a bib's MARC field groups, a holdings record's, an item's
-- and a patron's fields. varfield_type (Sierra's, which varfield_type_name names by id) says
-- which record type and code each id is; ids are fixed here.
create view carrel_sierra_varfield_type as
select v.id, v.record_type_code, v.code, v.display_order, v.short_name, v.name
from (values
    (1, 'b', 'a', 0, 'AUTHOR', 'Author'), (2, 'b', 't', 1, 'TITLE', 'Title'), (3, 'b', 'd', 2, 'SUBJECT', 'Subject'),
    (4, 'b', 'n', 3, 'NOTE', 'Note'), (5, 'b', 'i', 4, 'STANDARD #', 'Standard Number'), (6, 'b', 'e', 5, 'EDITION', 'Edition'),
    (7, 'b', 'p', 6, 'IMPRINT', 'Imprint'), (8, 'b', 'r', 7, 'DESCRIPT', 'Physical Description'), (9, 'b', 's', 8, 'SERIES', 'Series'),
    (10, 'b', 'y', 9, 'MISC', 'Miscellaneous'),
    (11, 'c', 'c', 0, 'LOCATION', 'Location and Call Number'), (12, 'c', 'h', 1, 'LIB HAS', 'Library Has'),
    (13, 'c', 'n', 2, 'NOTE', 'Note'), (14, 'c', 'y', 3, 'MISC', 'Miscellaneous'),
    (15, 'i', 'b', 0, 'BARCODE', 'Barcode'), (16, 'i', 'c', 1, 'CALL #', 'Call Number'), (17, 'i', 'm', 2, 'MESSAGE', 'Message'),
    (18, 'p', 'b', 0, 'P BARCODE', 'Patron Barcode'), (19, 'p', 'n', 1, 'PATRN NAME', 'Patron Name'),
    (20, 'p', 'z', 2, 'EMAIL ADDR', 'Email Address'), (21, 'p', 't', 3, 'TELEPHONE', 'Telephone'),
    (22, 'p', 'p', 4, 'TELEPHONE2', 'Second Telephone'), (23, 'p', 'a', 5, 'ADDRESS', 'Address'),
    (24, 'p', 'h', 6, 'ADDRESS2', 'Second Address'), (25, 'p', 'u', 7, 'UNIQUE ID', 'Unique ID'), (26, 'p', 'x', 8, 'NOTE', 'Note'),
    (27, 'p', 'm', 9, 'MESSAGE', 'Message')
  ) v(id, record_type_code, code, display_order, short_name, name);

create view sierra_view.varfield_type as
select t.id::bigint as id, t.record_type_code::char(1) as record_type_code, t.code::char(1) as code, null::varchar(3) as marc_tag,
  true as is_enabled, t.display_order
from carrel_sierra_varfield_type t;

create view sierra_view.varfield_type_name as
select t.id::bigint as varfield_type_id, 1 as iii_language_id, t.short_name::varchar(20) as short_name, t.name::varchar(255) as name
from carrel_sierra_varfield_type t;
