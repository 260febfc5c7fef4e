-- Each process keeps the facet values of every searchable bib (material type, language, decade;
-- src/search/facet-columns.ts) and counts a search's facets in memory. It keeps them current by
-- reading the docs written since the highest version it has read: the indexer gives each batch's
-- docs one version, drawn while it holds the docs' writing turn, so versions rise in commit order
-- and a reader never skips one committed after it read. Docs here before now are version 0: a
-- process reads them all the first time.
alter table search_docs add column version bigint not null default 0;
alter table search_docs alter column version drop default;
create index search_docs_version on search_docs (version);
