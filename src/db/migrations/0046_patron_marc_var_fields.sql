-- Patron varFields written in MARC form (self-registration integrations send the name as 100 with
-- subfields): kept as given, beside the values derived from them (names, emails, notes, …), so a
-- read answers them as they came. One entry per field: its tag, its place among that tag's values,
-- its MARC tag, indicators and subfields. A tombstone keeps none, as it keeps no name.
alter table patrons add column marc_fields jsonb not null default '[]';
alter table patrons drop constraint patrons_check;
alter table patrons add constraint patrons_check
  check (deleted_date is null or (pin_hash is null and cardinality(names) = 0 and cardinality(emails) = 0 and cardinality(notes) = 0
    and marc_fields = '[]'::jsonb));
