-- Holdings records (Sierra's checkin records): what a library holds of a title as a whole, above
-- all of serials ("v.1-v.40 (1950-1989)"), in MARC 21 holdings form. They come from MARC holdings
-- records loaded beside their bibs (linked by 004 to the bib's 001) and from the holdings fields
-- a bib carries itself (852 with 853-868): `from_bib` says which, as a bib's own are replaced
-- whenever the bib is.
create sequence holding_ids start 1000001 maxvalue 2147483647;

create table holdings (
  id bigint primary key default nextval('holding_ids'),
  bib_id bigint not null references bibs (id),
  from_bib boolean not null,
  -- A holdings record's 001, by which loading it again replaces it (null for a bib's own).
  control_number text,
  -- 852 $b as written: a location the library may not have (yet).
  location_code text,
  marc json,
  suppressed boolean not null default false,
  created_date timestamptz not null,
  updated_date timestamptz not null,
  deleted_date timestamptz
);

create index holdings_bib on holdings (bib_id, id) where deleted_date is null;
create index holdings_updated on holdings (updated_date, id);
create index holdings_created on holdings (created_date, id);
create index holdings_deleted on holdings (deleted_date, id) where deleted_date is not null;
create unique index holdings_control on holdings (control_number) where deleted_date is null and not from_bib;
