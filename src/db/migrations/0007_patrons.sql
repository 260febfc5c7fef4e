-- Patrons: names, barcodes, contact details, patron type, home library, expiration, blocks and the
-- money they owe. The PIN is kept only as a slow hash (scrypt, see src/patrons/pin.ts). A deleted
-- patron leaves a tombstone (id and dates; everything personal cleared, its barcodes released).

create table patron_types (
  code integer primary key check (code between 0 and 255),
  description text not null
);
insert into patron_types (code, description) values
  (0, 'Adult'), (1, 'Juvenile'), (2, 'Senior'), (3, 'Staff'), (4, 'Non-resident'), (5, 'Institution');

create sequence patron_ids start with 1000001;

create table patrons (
  id bigint primary key default nextval('patron_ids'),
  names text[] not null default '{}',
  emails text[] not null default '{}',
  -- [{"number": "555-0100", "type": "t"}] and [{"lines": ["1 Main St", "Springfield"], "type": "a"}]
  phones jsonb not null default '[]',
  addresses jsonb not null default '[]',
  patron_type integer not null default 0 references patron_types (code),
  home_library_code text references locations (code),
  expiration_date date,
  birth_date date,
  -- Manual block: '-' none; the codes are listed in GET /patrons/metadata (blockInfo).
  block_code text not null default '-' check (block_code in ('-', 'm', 'c', 'l', 'x')),
  money_owed numeric(18, 2) not null default 0 check (money_owed >= 0),
  message text check (length(message) <= 500),
  pin_hash text,
  suppressed boolean not null default false,
  created_date timestamptz not null,
  updated_date timestamptz not null,
  deleted_date timestamptz,
  check (deleted_date is null or (pin_hash is null and cardinality(names) = 0 and cardinality(emails) = 0))
);
alter sequence patron_ids owned by patrons.id;
create index patrons_updated on patrons (updated_date, id);
create index patrons_created on patrons (created_date, id);
create index patrons_names on patrons using gin (names) with (fastupdate = off);
create index patrons_emails on patrons using gin (emails) with (fastupdate = off);

-- A barcode belongs to at most one live patron (a tombstone's barcodes are removed).
create table patron_barcodes (
  barcode text primary key check (length(barcode) between 1 and 64),
  patron_id bigint not null references patrons (id),
  position integer not null
);
create index patron_barcodes_patron on patron_barcodes (patron_id, position);

-- Failed PIN validations, counted per barcode and per API key in fixed windows, shared by every
-- server process. One row per subject: SHA-256 of 'barcode:' || barcode or 'key:' || key id (so the
-- table never holds a barcode someone merely tried).
create table patron_validation_failures (
  subject bytea primary key,
  window_start timestamptz not null,
  failures integer not null
);
