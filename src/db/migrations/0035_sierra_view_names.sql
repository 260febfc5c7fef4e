-- The code tables' other halves (schema sierra_view, 0030_sierra_view.sql and 0032): Sierra keeps a
-- code list as a property view (id, code, display order, …), a name view (the property's id, the
-- language's id, the name) and a _myuser view (code and name together). 0030 and 0032 gave the
-- _myuser views and a few property views; these are the rest, so that report SQL joining
-- `x_property` to `x_property_name` by id answers what `x_myuser` answers by code. Sierra's view
-- names, columns, column order and types (UNT's catalog-api models of SierraDNA); names are in
-- English, iii_language_id 1, the one language iii_language lists.
--
-- Each base and name view is read from the same rows as its _myuser view (the _myuser view itself
-- where that is a fixed list), so the three cannot disagree. A property's id:
-- * item types: the type's number (itype_property's, 0030);
-- * patron types: the type + 1, as Sierra numbers them (reports join ptype_id = ptype_code + 1);
-- * branches: the branch's number, which is also its code_num (location.branch_code_num);
-- * item statuses, languages, countries, bib levels, material types: the place in code order
--   (display_order + 1), as 0030's location and material_property;
-- * user-defined codes: the category's id * 100000 + display_order + 1.

-- ---------------------------------------------------------------------------------------------
-- Item types (itype_property and itype_property_myuser are 0030's).

create view sierra_view.itype_property_name as
select t.code_num as itype_property_id, 1 as iii_language_id, t.name::varchar(255) as name
from item_types t;

-- ---------------------------------------------------------------------------------------------
-- Patron types. Carrel keeps no patron type categories, tagging or comment settings.

create view sierra_view.ptype_property as
select t.code + 1 as id, t.code::smallint as value, false as tagging_allowed, t.code as display_order,
  false as is_force_right_result_exact_allowed, false as is_comment_auto_approved, null::integer as ptype_category_id
from patron_types t;

create view sierra_view.ptype_property_name as
select t.code + 1 as ptype_id, t.description::varchar(255) as description, 1 as iii_language_id
from patron_types t;

-- ---------------------------------------------------------------------------------------------
-- Item statuses.

create view sierra_view.item_status_property as
select (row_number() over (order by s.code collate "C"))::bigint as id, s.code::char(1) as code,
  (row_number() over (order by s.code collate "C") - 1)::integer as display_order
from item_statuses s;

create view sierra_view.item_status_property_name as
select (row_number() over (order by s.code collate "C"))::bigint as item_status_property_id, 1 as iii_language_id,
  s.display::varchar(255) as name
from item_statuses s;

-- ---------------------------------------------------------------------------------------------
-- Branches. Carrel keeps a branch's name and address; no e-mail addresses or coordinates.

create view sierra_view.branch as
select b.id, b.address::varchar(300) as address, null::varchar(255) as email_source, null::varchar(255) as email_reply_to,
  null::varchar(32) as address_latitude, null::varchar(32) as address_longitude, b.id as code_num
from branches b;

create view sierra_view.branch_name as
select b.id as branch_id, b.name::varchar(255) as name, 1 as iii_language_id
from branches b;

create view sierra_view.branch_myuser as
select b.id as code, b.address::varchar(300) as address, null::varchar(255) as email_source, null::varchar(255) as email_reply_to,
  null::varchar(32) as address_latitude, null::varchar(32) as address_longitude, b.name::varchar(255) as name
from branches b;

-- ---------------------------------------------------------------------------------------------
-- Statistics groups: Carrel keeps none (statistic_group_myuser, 0032, is empty too).

create view sierra_view.statistic_group as
select null::integer as id, null::integer as code_num, null::varchar(5) as location_code
where false;

create view sierra_view.statistic_group_name as
select null::integer as statistic_group_id, null::integer as iii_language_id, null::varchar(255) as name
where false;

-- ---------------------------------------------------------------------------------------------
-- The MARC code lists and bib levels: 0030's _myuser views hold them.

create view sierra_view.language_property as
select l.display_order + 1 as id, l.code, l.display_order, l.is_public
from sierra_view.language_property_myuser l;

create view sierra_view.language_property_name as
select l.display_order + 1 as language_property_id, 1 as iii_language_id, l.name
from sierra_view.language_property_myuser l;

create view sierra_view.country_property as
select c.display_order + 1 as id, c.code, c.display_order
from sierra_view.country_property_myuser c;

create view sierra_view.country_property_name as
select c.display_order + 1 as country_property_id, 1 as iii_language_id, c.name
from sierra_view.country_property_myuser c;

create view sierra_view.bib_level_property as
select b.display_order + 1 as id, b.code, b.display_order
from sierra_view.bib_level_property_myuser b;

create view sierra_view.bib_level_property_name as
select b.display_order + 1 as bib_level_property_id, 1 as iii_language_id, b.name
from sierra_view.bib_level_property_myuser b;

-- ---------------------------------------------------------------------------------------------
-- Material types (material_property and material_property_myuser are 0030's). No facet text.

create view sierra_view.material_property_name as
select (row_number() over (order by m.code collate "C"))::integer as material_property_id, 1 as iii_language_id,
  m.description::varchar(255) as name, null::varchar(500) as facet_text
from material_types m;

-- ---------------------------------------------------------------------------------------------
-- The user-defined codes: one category for each of 0032's user_defined_*_myuser views (Sierra's
-- category codes are the fields' names), its codes and their names as those views give them.

create view carrel_sierra_user_defined as
select c.id as category_id, c.code as category_code, u.code, u.display_order, u.name
from (values (1, 'bcode1'), (2, 'bcode2'), (3, 'bcode3'), (4, 'pcode1'), (5, 'pcode2'), (6, 'pcode3'), (7, 'scode1'),
    (8, 'scode2'), (9, 'scode3'), (10, 'scode4')) c(id, code)
  join (
    select 'bcode1' as category, code, display_order, name from sierra_view.user_defined_bcode1_myuser
    union all select 'bcode2', code, display_order, name from sierra_view.user_defined_bcode2_myuser
    union all select 'bcode3', code, display_order, name from sierra_view.user_defined_bcode3_myuser
    union all select 'pcode1', code, display_order, name from sierra_view.user_defined_pcode1_myuser
    union all select 'pcode2', code, display_order, name from sierra_view.user_defined_pcode2_myuser
    union all select 'pcode3', code, display_order, name from sierra_view.user_defined_pcode3_myuser
    union all select 'scode1', code, display_order, name from sierra_view.user_defined_scode1_myuser
    union all select 'scode2', code, display_order, name from sierra_view.user_defined_scode2_myuser
    union all select 'scode3', code, display_order, name from sierra_view.user_defined_scode3_myuser
    union all select 'scode4', code, display_order, name from sierra_view.user_defined_scode4_myuser
  ) u on u.category = c.code;

create view sierra_view.user_defined_category as
select v.id, v.code::varchar(255) as code
from (values (1, 'bcode1'), (2, 'bcode2'), (3, 'bcode3'), (4, 'pcode1'), (5, 'pcode2'), (6, 'pcode3'), (7, 'scode1'),
    (8, 'scode2'), (9, 'scode3'), (10, 'scode4')) v(id, code);

create view sierra_view.user_defined_property as
select u.category_id * 100000 + u.display_order + 1 as id, u.category_id as user_defined_category_id, u.code, u.display_order
from carrel_sierra_user_defined u;

create view sierra_view.user_defined_property_name as
select u.category_id * 100000 + u.display_order + 1 as user_defined_property_id, 1 as iii_language_id, u.name
from carrel_sierra_user_defined u;

-- ---------------------------------------------------------------------------------------------
-- The languages names are kept in: English, id 1 (every name view's iii_language_id).

create view sierra_view.iii_language as
select 1 as id, 'eng'::varchar(3) as code, 'English'::varchar(64) as description, true as staff_enabled, true as public_enabled,
  0 as display_order, false as is_right_to_left;

-- ---------------------------------------------------------------------------------------------
-- The fixed-length fields Carrel's records have, by number, with their short labels (Sierra's
-- names there): src/shared/fixed-fields.ts, every record type's (a number means the same field in
-- each). display_order is the number - 1, as Sierra's.

create view sierra_view.fixfld_type_myuser as
select v.code::varchar(3) as code, v.code::integer - 1 as display_order, v.name::varchar(255) as name
from (values
    ('24', 'LANG'), ('25', 'SKIP'), ('26', 'LOCATION'), ('27', 'COPIES'), ('28', 'CAT DATE'), ('29', 'BIB LVL'),
    ('30', 'MAT TYPE'), ('31', 'BCODE3'), ('35', 'LABEL TYPE'), ('36', 'SCODE1'), ('37', 'SCODE2'), ('38', 'COPIES'),
    ('39', 'CLAIMON'), ('40', 'LOCATION'), ('41', 'RECV LOC'), ('42', 'VENDOR'), ('43', 'EXP DATE'), ('44', 'PCODE1'),
    ('45', 'PCODE2'), ('46', 'PCODE3'), ('47', 'P TYPE'), ('48', 'TOT CHKOUT'), ('49', 'TOT RENWAL'),
    ('50', 'CUR CHKOUT'), ('51', 'BIRTH DATE'), ('53', 'HOME LIBR'), ('54', 'PMESSAGE'), ('56', 'MBLOCK'),
    ('57', 'BIB HOLD'), ('58', 'COPY #'), ('59', 'ICODE1'), ('60', 'ICODE2'), ('61', 'I TYPE'), ('62', 'PRICE'),
    ('63', 'OUT DATE'), ('64', 'OUT LOC'), ('65', 'DUE DATE'), ('68', 'LCHKIN'), ('70', 'IN LOC'), ('71', '# RENEWALS'),
    ('76', 'TOT CHKOUT'), ('77', 'TOT RENEW'), ('78', 'LOUTDATE'), ('79', 'LOCATION'), ('80', 'REC TYPE'),
    ('81', 'RECORD #'), ('83', 'CREATED'), ('84', 'UPDATED'), ('85', 'REVISIONS'), ('86', 'AGENCY'), ('88', 'STATUS'),
    ('89', 'COUNTRY'), ('93', 'INTL USE'), ('94', 'COPY USE'), ('95', 'CL RTRND'), ('96', 'MONEY OWED'),
    ('97', 'IMESSAGE'), ('98', 'PDATE'), ('102', 'CUR ITEMA'), ('103', 'CUR ITEMB'), ('107', 'MARC TYPE'),
    ('108', 'OPACMSG'), ('109', 'YTDCIRC'), ('110', 'LYRCIRC'), ('118', 'SCODE3'), ('119', 'SCODE4'),
    ('120', 'UPDATE CNT'), ('121', 'PIECE CNT'), ('124', 'CUR ITEMC'), ('125', 'CUR ITEMD'), ('126', 'PCODE4'),
    ('137', 'ECHECKIN'), ('159', 'MEDIA TYPE'), ('163', 'CIRCACTIVE'), ('266', 'INHERIT LOC'), ('268', 'NOTICE PREF')
  ) v(code, name);
