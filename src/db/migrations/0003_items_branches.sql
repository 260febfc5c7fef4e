-- Branches and their locations. A location where patrons collect holds is a pickup location, with
-- the number of days a hold waits on its shelf.
create table branches (
  id integer generated always as identity (start with 1) primary key,
  name text not null,
  address text
);

create table locations (
  code text primary key check (code ~ '^[a-z0-9]{1,5}$'),
  name text not null,
  branch_id integer not null references branches (id),
  pickup boolean not null default false,
  hold_shelf_days integer not null default 7 check (hold_shelf_days between 1 and 90)
);

-- Item statuses as the established platform codes them.
create table item_statuses (
  code text primary key,
  display text not null
);
insert into item_statuses (code, display) values
  ('-', 'AVAILABLE'), ('m', 'MISSING'), ('z', 'CLMS RETD'), ('o', 'LIB USE ONLY'), ('n', 'BILLED NOTPAID'),
  ('$', 'BILLED PAID'), ('t', 'IN TRANSIT'), ('!', 'ON HOLDSHELF'), ('l', 'LOST'), ('w', 'WITHDRAWN'), ('p', 'IN PROCESSING'), ('d', 'DAMAGED');

create sequence item_ids start with 1000001;

create table items (
  id bigint primary key default nextval('item_ids'),
  barcode text,
  call_number text,
  location_code text references locations (code),
  status text not null default '-' references item_statuses (code),
  item_type text,
  due_date timestamptz,
  suppressed boolean not null default false,
  created_date timestamptz not null,
  updated_date timestamptz not null,
  deleted_date timestamptz
);
alter sequence item_ids owned by items.id;
create unique index items_barcode on items (barcode) where deleted_date is null and barcode is not null;
create index items_updated on items (updated_date, id);
create index items_created on items (created_date, id);

-- An item belongs to one bib, or to several (a bound-with volume).
create table item_bibs (
  item_id bigint not null references items (id),
  bib_id bigint not null references bibs (id),
  primary key (item_id, bib_id)
);
create index item_bibs_bib on item_bibs (bib_id);
