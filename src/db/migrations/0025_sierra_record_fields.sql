-- Sierra's item fields read from loans (issue 19): an item's fixedFields count its checkouts and
-- give its last checkout and check-in, found through this index rather than every loan there is.
create index checkouts_item on checkouts (item_id, out_date);

-- A patron's unique ids (Sierra's varField u: a campus id, an external system's key), each held by
-- one live patron, as barcodes are: the legacy Patron API and GET /patrons/find look patrons up by them.
create table patron_unique_ids (
  unique_id text primary key check (length(unique_id) between 1 and 200),
  patron_id bigint not null references patrons (id),
  position integer not null
);
create index patron_unique_ids_patron on patron_unique_ids (patron_id, position);

-- Staff notes on a patron (varField x); a tombstone keeps none.
alter table patrons add column notes text[] not null default '{}';
alter table patrons drop constraint patrons_check;
alter table patrons add constraint patrons_check
  check (deleted_date is null or (pin_hash is null and cardinality(names) = 0 and cardinality(emails) = 0 and cardinality(notes) = 0));

-- A patron's fixedFields count all its checkouts (48 Total Checkouts), not only the open ones.
create index checkouts_patron_all on checkouts (patron_id, out_date);

-- Renewals (issue 19): how many times the loan was renewed, limited by its circulation rule.
alter table checkouts add column renewals integer not null default 0 check (renewals >= 0);

-- POST /patrons/validate with caseSensitivity false matches a barcode whatever its letter case.
create index patron_barcodes_folded on patron_barcodes (lower(barcode));

-- An item's message (Sierra's item varField m: shown to staff when it circulates).
alter table items add column message text check (length(message) <= 500);
