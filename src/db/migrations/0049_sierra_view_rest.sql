-- The rest of Sierra's views that published library report SQL names (schema sierra_view; 0030's
-- conventions: Sierra's view names, columns, column order and types; a column Carrel has nothing
-- for is a typed null or Sierra's default; a view of records Carrel does not keep answers no rows).
-- Course reserves, serial check-in cards, staff logins (iii_user), agencies, bookings, catalogue
-- maintenance (headings reports), order statuses, numbered loan rules and record locks: Carrel
-- keeps none, so these are there with
-- Sierra's columns and no rows, and a report that joins them runs and finds nothing. Holdings
-- records (holding_view), invoices' vendor summaries and the types of patrons' phones and
-- addresses are Carrel's own data. And item_view's check-in statistics group takes Sierra's name
-- (circ_trans.ptype_code takes Sierra's type in 0050, which changes that view again).

-- ---------------------------------------------------------------------------------------------
-- Course reserves (record type r): Carrel keeps no courses. bib_record.is_on_course_reserve is
-- false for every bib, as these say.

create view sierra_view.course_record as
select null::bigint as id, null::bigint as record_id, null::timestamp as begin_date, null::timestamp as end_date,
  null::varchar(5) as location_code, null::char(1) as ccode1, null::char(1) as ccode2, null::char(1) as ccode3
where false;

create view sierra_view.course_view as
select c.id, 'r'::char(1) as record_type_code, null::integer as record_num, c.begin_date, c.end_date, c.location_code, c.ccode1,
  c.ccode2, c.ccode3, null::timestamptz as record_creation_date_gmt
from sierra_view.course_record c;

create view sierra_view.course_record_bib_record_link as
select null::bigint as id, null::bigint as course_record_id, null::bigint as bib_record_id, null::integer as bibs_display_order,
  null::timestamp as status_change_date, null::char(1) as status_code
where false;

create view sierra_view.course_record_item_record_link as
select null::bigint as id, null::bigint as course_record_id, null::bigint as item_record_id, null::integer as items_display_order,
  null::timestamp as status_change_date, null::char(1) as status_code
where false;

-- ---------------------------------------------------------------------------------------------
-- Holdings records: holding_view is holding_record with the record's type, number and creation
-- date (Carrel's holdings records, 0029). Serial check-in (cards, their links and boxes) and items
-- attached to holdings records: Carrel keeps none.

create view sierra_view.holding_view as
select h.id, 'c'::char(1) as record_type_code, carrel_sierra_num(h.id - 425201762304) as record_num, h.is_inherit_loc,
  h.allocation_rule_code, h.accounting_unit_code_num, h.label_code, h.scode1, h.scode2, h.claimon_date_gmt, h.receiving_location_code,
  h.vendor_code, h.scode3, h.scode4, h.update_cnt, h.piece_cnt, h.echeckin_code, h.media_type_code, h.is_suppressed,
  (select m.created_date from holdings m where m.id + 425201762304 = h.id) as record_creation_date_gmt
from sierra_view.holding_record h;

create view sierra_view.holding_record_card as
select null::bigint as id, null::bigint as holding_record_id, null::char(1) as status_code, null::char(1) as display_mode,
  null::boolean as is_suppress_opac_display, null::bigint as order_record_id, null::boolean as is_create_item,
  null::boolean as is_usmarc, null::boolean as is_marc, null::boolean as is_use_default_enum, null::boolean as is_use_default_date,
  null::char(1) as update_method_code
where false;

create view sierra_view.holding_record_cardlink as
select null::bigint as id, null::bigint as holding_record_card_id, null::char(1) as card_type_code, null::integer as link_count,
  null::integer as enum_level_count, null::integer as alt_enum_level_count, null::integer as chron_level_count,
  null::integer as alt_chron_level_count, null::boolean as is_use_autumn, null::varchar(256) as enum_level_a,
  null::varchar(256) as enum_level_b, null::varchar(256) as enum_level_c, null::varchar(256) as enum_level_d,
  null::varchar(256) as enum_level_e, null::varchar(256) as enum_level_f, null::varchar(256) as alt_enum_level_g,
  null::varchar(256) as alt_enum_level_h, null::varchar(256) as chron_level_i, null::varchar(256) as chron_level_j,
  null::varchar(256) as chron_level_k, null::varchar(256) as chron_level_l, null::varchar(256) as alt_chron_level_m,
  null::varchar(256) as calendar_change, null::char(1) as frequency_code
where false;

create view sierra_view.holding_record_box as
select null::bigint as id, null::bigint as holding_record_cardlink_id, null::integer as box_count, null::varchar(256) as enum_level_a,
  null::varchar(256) as enum_level_b, null::varchar(256) as enum_level_c, null::varchar(256) as enum_level_d,
  null::varchar(256) as enum_level_e, null::varchar(256) as enum_level_f, null::varchar(256) as enum_level_g,
  null::varchar(256) as enum_level_h, null::varchar(256) as chron_level_i, null::varchar(256) as chron_level_j,
  null::varchar(256) as chron_level_k, null::varchar(256) as chron_level_l, null::varchar(256) as chron_level_m,
  null::varchar(256) as chron_level_i_trans_date, null::varchar(256) as chron_level_j_trans_date,
  null::varchar(256) as chron_level_k_trans_date, null::varchar(256) as chron_level_l_trans_date,
  null::varchar(256) as chron_level_m_trans_date, null::varchar(256) as note, null::char(1) as box_status_code,
  null::integer as claim_cnt, null::integer as copies_cnt, null::varchar(256) as url, null::boolean as is_suppressed,
  null::varchar(256) as staff_note
where false;

create view sierra_view.holding_record_item_record_link as
select null::bigint as id, null::bigint as holding_record_id, null::bigint as item_record_id, null::integer as items_display_order
where false;

-- ---------------------------------------------------------------------------------------------
-- Agencies: every Carrel record's agency is 0 and Carrel defines none (agency_property_myuser, 0032).

create view sierra_view.agency_property as
select null::integer as id, null::integer as code_num, null::integer as display_order
where false;

create view sierra_view.agency_property_name as
select null::integer as agency_property_id, null::integer as iii_language_id, null::varchar(255) as name
where false;

-- ---------------------------------------------------------------------------------------------
-- Staff logins and their settings: Carrel's callers are API keys, SQL logins and SIP2 accounts,
-- none of them a Sierra staff login, so these views have no rows (and name no key or account).

create view sierra_view.iii_user as
select null::bigint as id, null::varchar(255) as name, null::varchar(255) as full_name, null::integer as iii_language_id,
  null::integer as account_unit, null::integer as statistic_group_code_num, null::integer as system_option_group_code_num,
  null::boolean as is_new_account, null::timestamptz as last_password_change_gmt, null::boolean as is_suspended
where false;

create view sierra_view.iii_user_desktop_option as
select null::bigint as id, null::bigint as iii_user_id, null::integer as desktop_option_id, null::varchar(4096) as value
where false;

create view sierra_view.iii_user_permission_myuser as
select null::varchar(255) as user_name, null::integer as permission_num, null::varchar(255) as permission_name,
  null::varchar(255) as permission_category_name, null::varchar(255) as permission_value
where false;

create view sierra_view.iii_user_application_myuser as
select null::bigint as iii_user_id, null::varchar(255) as user_name, null::varchar(255) as application_name, null::boolean as is_enabled
where false;

-- ---------------------------------------------------------------------------------------------
-- Bookings and catalogue maintenance (Sierra's headings reports): Carrel keeps neither.

create view sierra_view.booking as
select null::bigint as id, null::bigint as item_record_id, null::bigint as patron_record_id, null::timestamptz as created_gmt,
  null::timestamptz as start_gmt, null::timestamptz as end_gmt, null::char(1) as type_code, null::integer as prep_period,
  null::varchar(5) as location_code, null::smallint as delivery_code, null::varchar(255) as location_note, null::varchar(255) as note,
  null::varchar(255) as event_name
where false;

create view sierra_view.catmaint as
select null::bigint as id, null::boolean as is_locked, null::boolean as is_viewed, null::integer as condition_code_num,
  null::varchar(20) as index_tag, null::varchar(20001) as index_entry, null::bigint as record_metadata_id,
  null::integer as statistics_group_code_num, null::timestamptz as process_gmt, null::varchar(255) as program_code,
  null::varchar(255) as iii_user_name, null::varchar(20001) as one_xx_entry, null::bigint as authority_record_metadata_id,
  null::varchar(20001) as old_field, null::varchar(20001) as new_240_field, null::varchar(20001) as field,
  null::timestamptz as cataloging_date_gmt, null::varchar(20001) as index_prev, null::varchar(20001) as index_next,
  null::varchar(20001) as correct_heading, null::varchar(20001) as author, null::varchar(20001) as title,
  null::bigint as phrase_entry_id
where false;

-- ---------------------------------------------------------------------------------------------
-- Order statuses: Carrel keeps no orders (order_record, 0032), so it defines no order status.

create view sierra_view.order_status_property as
select null::integer as id, null::varchar(3) as code, null::integer as display_order
where false;

create view sierra_view.order_status_property_name as
select null::integer as order_status_property_id, null::integer as iii_language_id, null::varchar(255) as name
where false;

create view sierra_view.order_status_property_myuser as
select null::varchar(3) as code, null::integer as display_order, null::varchar(255) as name
where false;

-- ---------------------------------------------------------------------------------------------
-- An invoice's vendor: one row per live invoice, with its vendor's code and address lines (a
-- Carrel vendor has two). id: the invoice's record id. voucher_num: Carrel numbers no vouchers.

create view sierra_view.invoice_record_vendor_summary as
select n.id + 472446402560 as id, n.id + 472446402560 as invoice_record_id, v.code::varchar(15) as vendor_code,
  v.address1::varchar(1000) as vendor_address_line1, v.address2::varchar(1000) as vendor_address_line2,
  null::varchar(1000) as vendor_address_line3, null::varchar(1000) as vendor_address_line4, null::integer as voucher_num,
  (select coalesce(sum(l.total), 0) from invoice_lines l where l.invoice_id = n.id)::numeric(30, 6) as voucher_total
from invoices n join vendors v on v.id = n.vendor_id
where n.deleted_date is null;

-- ---------------------------------------------------------------------------------------------
-- The types of patrons' phones and addresses, by the ids patron_record_phone and
-- patron_record_address give them (0030): 1 a telephone (t) or an address (a), 2 the second ones.

create view sierra_view.patron_record_phone_type as
select v.id::bigint as id, v.code::char(1) as code
from (values (1, 't'), (2, 'p')) v(id, code);

create view sierra_view.patron_record_address_type as
select v.id::bigint as id, v.code::char(1) as code
from (values (1, 'a'), (2, 'h')) v(id, code);

-- ---------------------------------------------------------------------------------------------
-- pcode4's codes (patron_record.pcode4, fixed field 126, 0045): those the library lists for field
-- 126, in code order, else 0 named as pcode3's 0 is.

create view sierra_view.user_defined_pcode4_myuser as
select '0'::varchar(255) as code, null::integer as user_defined_category_id, 0 as display_order, 'none'::varchar(255) as name
where not exists (select 1 from patron_fixed_field_codes c where c.field_number = 126)
union all
select c.code::varchar(255), null::integer, (row_number() over (order by c.code collate "C") - 1)::integer, c.name::varchar(255)
from patron_fixed_field_codes c
where c.field_number = 126;

-- ---------------------------------------------------------------------------------------------
-- Record number ranges (Sierra's record ranges report), one row per record type Carrel keeps:
-- its first and last numbers, its live and deleted records, and Carrel's highest record number
-- (record_num is an integer); size is the numbers from the first to that highest.

create view sierra_view.record_range as
select (row_number() over (order by r.record_type_code))::integer as id, r.record_type_code, 0 as accounting_unit_code_num,
  r.start_num, r.last, r.current_count, r.deleted_count, 2147483647 as max_num, 2147483647 - r.start_num as size
from (
  select m.record_type_code, min(m.record_num) as start_num, max(m.record_num) as last,
    (count(*) filter (where m.deletion_date_gmt is null))::integer as current_count,
    (count(*) filter (where m.deletion_date_gmt is not null))::integer as deleted_count
  from sierra_view.record_metadata m
  group by m.record_type_code
) r;

-- Loan rules by number, and records locked by staff in the desktop client: Carrel's circulation
-- rules have no numbers (checkout.loanrule_code_num is null) and nothing locks a record, so none.

create view sierra_view.circ_loan_rule as
select null::integer as id, null::integer as loan_rule_num, null::varchar(255) as name, null::integer as loan_period,
  null::integer as max_renewal, null::integer as holds_allowed
where false;

create view sierra_view.record_lock as
select null::bigint as id, null::varchar(255) as iii_user_name, null::timestamptz as lock_gmt
where false;

-- ---------------------------------------------------------------------------------------------
-- Sierra's names and types where published reports rely on them.

-- item_view spells the check-in statistics group as item_record does ("statistics"): reports
-- written against Sierra read item_view.checkin_statistics_group_code_num.
alter view sierra_view.item_view rename column checkin_statistic_group_code_num to checkin_statistics_group_code_num;
