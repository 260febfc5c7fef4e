-- Holds, checkouts, and the days a location is closed (issue 5, part 2).
--
-- A hold waits in a queue: a bib hold in its bib's queue, an item hold in its item's queue, in
-- placement order (the id, drawn while the bib row is locked, see src/holds/service.ts). Its place
-- (`priority`) is computed when read, counting only active holds, so there is no gap to keep.
-- state: '0' on hold, 't' in transit, 'r' ready for pickup (shown as b or i), and the finished
-- states 'x' expired, 'c' cancelled, 'f' filled (checked out to the patron).

create table location_closed_days (
  location_code text not null references locations (code) on delete cascade,
  weekday integer not null check (weekday between 0 and 6), -- 0 Sunday … 6 Saturday
  primary key (location_code, weekday)
);

create table location_closed_dates (
  location_code text not null references locations (code) on delete cascade,
  closed_date date not null,
  primary key (location_code, closed_date)
);

create sequence hold_ids start with 406001;

create table holds (
  id bigint primary key default nextval('hold_ids'),
  patron_id bigint not null references patrons (id),
  record_type text not null check (record_type in ('b', 'i')),
  -- The queue's bib: the bib held, or for an item hold the item's (first) bib.
  bib_id bigint not null references bibs (id),
  item_id bigint references items (id),
  pickup_location text not null references locations (code),
  state text not null default '0' check (state in ('0', 't', 'r', 'x', 'c', 'f')),
  frozen boolean not null default false,
  placed date not null,
  not_wanted_before date not null,
  not_needed_after date not null,
  note text not null default '' check (length(note) <= 500),
  -- The item trapped for the hold (in transit or on the hold shelf).
  trapped_item_id bigint references items (id),
  pickup_by date,
  -- When and why a hold left the active states.
  finished_date timestamptz,
  finished_reason text,
  created_date timestamptz not null default clock_timestamp(),
  check ((record_type = 'i') = (item_id is not null)),
  check ((state = 'r') = (pickup_by is not null)),
  check ((state in ('t', 'r')) = (trapped_item_id is not null))
);
alter sequence hold_ids owned by holds.id;
create index holds_patron on holds (patron_id, id);
create index holds_bib_queue on holds (bib_id, id) where state in ('0', 't', 'r');
create index holds_item_queue on holds (item_id, id) where state in ('0', 't', 'r') and item_id is not null;
create index holds_trapped on holds (trapped_item_id) where trapped_item_id is not null;
create index holds_active_expiry on holds (not_needed_after) where state = '0';
create index holds_ready_expiry on holds (pickup_by) where state = 'r';
-- A patron holds a record once while the hold is active.
create unique index holds_one_per_record on holds (patron_id, record_type, coalesce(item_id, bib_id)) where state in ('0', 't', 'r');
-- An item is trapped for at most one hold.
create unique index holds_one_trap on holds (trapped_item_id) where state in ('t', 'r');

create sequence checkout_ids start with 700001;

create table checkouts (
  id bigint primary key default nextval('checkout_ids'),
  patron_id bigint not null references patrons (id),
  item_id bigint not null references items (id),
  out_date timestamptz not null,
  due_date date not null,
  returned_date timestamptz
);
alter sequence checkout_ids owned by checkouts.id;
create unique index checkouts_one_per_item on checkouts (item_id) where returned_date is null;
create index checkouts_patron on checkouts (patron_id, id) where returned_date is null;
