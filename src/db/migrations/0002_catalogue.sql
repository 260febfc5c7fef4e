-- The change clock: every write transaction stamps its records here as its last step, holding this
-- row's lock until it commits, so stamps follow commit order. Harvest reads take a share lock on the
-- same row first, so every stamp at or before their "now" is committed and visible (see
-- src/catalogue/change-clock.ts).
create table change_clock (
  id boolean primary key default true check (id),
  stamped_date timestamptz not null default '-infinity'
);
insert into change_clock default values;

-- Material types: code and description, a default table the library may change.
create table material_types (
  code text primary key check (code ~ '^[a-z0-9-]{1,3}$'),
  description text not null
);
insert into material_types (code, description) values
  ('a', 'Books'), ('e', 'E-books'), ('s', 'Serials'), ('i', 'Audio (spoken)'), ('j', 'Music recordings'),
  ('c', 'Music scores'), ('m', 'Maps'), ('g', 'Video'), ('f', 'Computer files'), ('p', 'Mixed materials'),
  ('k', 'Pictures and graphics'), ('r', 'Objects'), ('o', 'Kits'), ('t', 'Manuscripts');

create sequence bib_ids start with 1000001;

-- Bibliographic records: MARC kept whole (MARC-in-JSON) with the fields derived from it beside.
create table bibs (
  id bigint primary key default nextval('bib_ids'),
  marc jsonb,
  title text,
  author text,
  publish_year integer,
  lang text,
  country text,
  bib_level text,
  material_type text references material_types (code),
  isbns text[] not null default '{}',
  issns text[] not null default '{}',
  control_number text,
  control_source text,
  system_numbers text[] not null default '{}',
  suppressed boolean not null default false,
  catalog_date date,
  created_date timestamptz not null,
  updated_date timestamptz not null,
  deleted_date timestamptz
);
alter sequence bib_ids owned by bibs.id;
create index bibs_updated on bibs (updated_date, id);
create index bibs_created on bibs (created_date, id);
create index bibs_deleted on bibs (deleted_date, id) where deleted_date is not null;
-- Matching on import compares (001, 003 or '') pairs: the index holds exactly that expression.
create index bibs_control on bibs (control_number, coalesce(control_source, '')) where deleted_date is null;
create index bibs_system_numbers on bibs using gin (system_numbers);
