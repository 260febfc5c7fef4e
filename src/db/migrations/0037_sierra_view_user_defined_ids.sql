-- The user-defined code tables' category ids (schema sierra_view, 0032 and 0035). 0032 gave each
-- user_defined_*_myuser view a null user_defined_category_id; Sierra's is the id of the code's
-- category in user_defined_category, so that a _myuser row (category id, code) is the
-- user_defined_property row with that user_defined_category_id and code, as in Sierra. The
-- _myuser views have no other id column (code, user_defined_category_id, display_order, name).
--
-- One source: carrel_sierra_user_defined (0035), which numbers the categories as
-- user_defined_category does and from which user_defined_property and user_defined_property_name
-- are read. 0035 read it from the _myuser views; it now reads their rows from where 0032's views
-- read them (the same codes, orders and names), and the _myuser views read it, so the four cannot
-- disagree. Columns, their order and types are unchanged (create or replace view).

create or replace view carrel_sierra_user_defined as
select c.id as category_id, c.code as category_code, u.code, u.display_order, u.name
from (values (1, 'bcode1'), (2, 'bcode2'), (3, 'bcode3'), (4, 'pcode1'), (5, 'pcode2'), (6, 'pcode3'), (7, 'scode1'),
    (8, 'scode2'), (9, 'scode3'), (10, 'scode4')) c(id, code)
  join (
    -- '-' (none) for pcode1, pcode2, bcode1 and scode1-4, 0 for pcode3 (0030's records carry no other).
    select v.category, v.code::varchar(255) as code, 0 as display_order, 'none'::varchar(255) as name
    from (values ('bcode1', '-'), ('pcode1', '-'), ('pcode2', '-'), ('pcode3', '0'), ('scode1', '-'), ('scode2', '-'),
        ('scode3', '-'), ('scode4', '-')) v(category, code)
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

create or replace view sierra_view.user_defined_pcode1_myuser as
select u.code, u.category_id as user_defined_category_id, u.display_order, u.name
from carrel_sierra_user_defined u where u.category_code = 'pcode1';

create or replace view sierra_view.user_defined_pcode2_myuser as
select u.code, u.category_id as user_defined_category_id, u.display_order, u.name
from carrel_sierra_user_defined u where u.category_code = 'pcode2';

create or replace view sierra_view.user_defined_pcode3_myuser as
select u.code, u.category_id as user_defined_category_id, u.display_order, u.name
from carrel_sierra_user_defined u where u.category_code = 'pcode3';

create or replace view sierra_view.user_defined_bcode1_myuser as
select u.code, u.category_id as user_defined_category_id, u.display_order, u.name
from carrel_sierra_user_defined u where u.category_code = 'bcode1';

create or replace view sierra_view.user_defined_bcode2_myuser as
select u.code, u.category_id as user_defined_category_id, u.display_order, u.name
from carrel_sierra_user_defined u where u.category_code = 'bcode2';

create or replace view sierra_view.user_defined_bcode3_myuser as
select u.code, u.category_id as user_defined_category_id, u.display_order, u.name
from carrel_sierra_user_defined u where u.category_code = 'bcode3';

create or replace view sierra_view.user_defined_scode1_myuser as
select u.code, u.category_id as user_defined_category_id, u.display_order, u.name
from carrel_sierra_user_defined u where u.category_code = 'scode1';

create or replace view sierra_view.user_defined_scode2_myuser as
select u.code, u.category_id as user_defined_category_id, u.display_order, u.name
from carrel_sierra_user_defined u where u.category_code = 'scode2';

create or replace view sierra_view.user_defined_scode3_myuser as
select u.code, u.category_id as user_defined_category_id, u.display_order, u.name
from carrel_sierra_user_defined u where u.category_code = 'scode3';

create or replace view sierra_view.user_defined_scode4_myuser as
select u.code, u.category_id as user_defined_category_id, u.display_order, u.name
from carrel_sierra_user_defined u where u.category_code = 'scode4';
