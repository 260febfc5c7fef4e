-- The library's own setup (issue 22, README "Your own library"): its codes, item types, the
-- circulation rules matrix, hold rules, blocks and time zone. `carrel profile apply` writes these
-- tables from one file; src/library/ reads them.

-- Codes are the library's own: Sierra's five characters are the common case, a library moving
-- from another system brings longer ones (hunt-audio). Kept as written, up to 20 characters.
alter table locations drop constraint locations_code_check;
alter table locations add constraint locations_code_check check (code ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,19}$');

-- A new code follows the library's code pattern (src/library/profile.ts); one an earlier import
-- wrote into items.item_type (free text then) is kept as it was, never lost.
create table item_types (
  code text primary key check (code <> ''),
  name text not null check (length(name) between 1 and 200)
);
-- The types the generator and the demo write, and whatever items already name.
insert into item_types (code, name) values
  ('book', 'Book'), ('ebook', 'E-book'), ('serial', 'Serial'), ('audiobook', 'Audiobook'), ('music', 'Music recording'),
  ('score', 'Score'), ('map', 'Map'), ('dvd', 'DVD'), ('software', 'Software'), ('archive', 'Archival material'),
  ('picture', 'Picture'), ('kit', 'Kit'), ('manuscript', 'Manuscript'), ('media', 'Media');
insert into item_types (code, name)
  select distinct item_type, left(item_type, 200) from items where item_type <> '' on conflict do nothing;
update items set item_type = null where item_type = '';

-- Checked per statement, as an item's location is (0013_reference_checks_per_statement.sql).
create trigger items_item_type_ref after insert on items
  referencing new table as new_rows for each statement execute function check_reference('item_type', 'item_types', 'code');
create trigger items_item_type_ref_update after update on items
  referencing new table as new_rows for each statement execute function check_reference('item_type', 'item_types', 'code');
create trigger item_types_referenced before delete or update of code on item_types
  for each row execute function refuse_referenced_key('items', 'item_type', 'code');

alter table patron_types add constraint patron_types_description_check check (length(description) between 1 and 200);

-- One row: the settings that are the library's, not the server's.
create table library_settings (
  id boolean primary key default true check (id),
  -- An IANA zone name: "today" for due dates, hold dates and pickup-by dates is the day there.
  time_zone text not null default 'UTC',
  -- Hold rules: the most active holds a patron may have (a rule's holdLimit may set another), and
  -- how long a hold placed without neededBy is wanted.
  hold_limit integer not null default 50 check (hold_limit between 0 and 10000),
  hold_months integer not null default 3 check (hold_months between 1 and 60),
  -- Blocks: a patron owing more than this, or with at least this many overdue items, may not
  -- borrow or place holds (null: no such block).
  max_money_owed numeric(18, 2) check (max_money_owed >= 0),
  max_overdue_items integer check (max_overdue_items >= 1),
  -- Set once a server or command has opened the database: one with no branches then starts from
  -- the starter profile (src/library/starter.yaml).
  started boolean not null default false
);
insert into library_settings default values;

-- The circulation rules matrix: patron type × item type × location, null meaning any. For each
-- value a checkout, renewal, hold or fine needs, the most specific matching row that sets it
-- wins (location before item type before patron type); the default row (all three null) sets
-- every value.
create table circulation_rules (
  id integer generated always as identity primary key,
  patron_type integer references patron_types (code),
  item_type text references item_types (code),
  location_code text references locations (code),
  loan_days integer check (loan_days between 1 and 3650),
  renewals integer check (renewals between 0 and 999),
  holdable boolean,
  hold_limit integer check (hold_limit between 0 and 10000),
  fine_per_day numeric(18, 2) check (fine_per_day >= 0),
  max_fine numeric(18, 2) check (max_fine >= 0),
  grace_days integer check (grace_days between 0 and 365),
  check (
    patron_type is not null or item_type is not null or location_code is not null
    or (loan_days is not null and renewals is not null and holdable is not null and fine_per_day is not null and grace_days is not null)
  )
);
create unique index circulation_rules_key on circulation_rules (coalesce(patron_type, -1), coalesce(item_type, ''), coalesce(location_code, ''));
insert into circulation_rules (loan_days, renewals, holdable, fine_per_day, grace_days) values (21, 3, true, 0, 0);

-- The rule for one loan, resolved as the comment above says: the one place that order is written.
create function circulation_rule(patron integer, itype text, location text)
returns table (loan_days integer, renewals integer, holdable boolean, hold_limit integer, fine_per_day numeric, max_fine numeric, grace_days integer)
language sql stable as $$
  select (array_agg(r.loan_days order by r.rank) filter (where r.loan_days is not null))[1],
    (array_agg(r.renewals order by r.rank) filter (where r.renewals is not null))[1],
    (array_agg(r.holdable order by r.rank) filter (where r.holdable is not null))[1],
    (array_agg(r.hold_limit order by r.rank) filter (where r.hold_limit is not null))[1],
    (array_agg(r.fine_per_day order by r.rank) filter (where r.fine_per_day is not null))[1],
    (array_agg(r.max_fine order by r.rank) filter (where r.max_fine is not null))[1],
    (array_agg(r.grace_days order by r.rank) filter (where r.grace_days is not null))[1]
  from (
    select c.*, (case when c.location_code is null then 4 else 0 end) + (case when c.item_type is null then 2 else 0 end)
      + (case when c.patron_type is null then 1 else 0 end) as rank
    from circulation_rules c
    where (c.patron_type is null or c.patron_type = patron) and (c.item_type is null or c.item_type = itype)
      and (c.location_code is null or c.location_code = location)
  ) r
$$;

-- An import refreshes this every few seconds while it runs, and server processes leave search
-- indexing until it has stopped (a minute without a refresh: an import that died): on the
-- embedded engine the server and the import share one database engine, and indexing beside the
-- import made it several times slower. The import's bibs are indexed when it ends.
alter table service_state add column import_seen timestamptz;
