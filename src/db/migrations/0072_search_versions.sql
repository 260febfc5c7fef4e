-- A key's list version (search_terms.version) is now drawn from one sequence, for every key whose
-- bibs change and for every key a rebuild makes, where it was counted up from 0 for the stem keys
-- alone. No key id is then ever given the same version for two different lists, whatever process
-- kept a list under it (src/search/list-cache.ts), and across rebuilds that number the keys anew.
create sequence search_versions as bigint;

alter table search_terms
  alter column version type bigint,
  alter column version set default nextval('search_versions');
update search_terms set version = nextval('search_versions');

-- The counts kept under the old versions would never be read again: dropped, and counted again
-- when first searched.
truncate search_counts;
alter table search_counts alter column versions type bigint[];
