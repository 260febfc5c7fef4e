-- Facet counts read each match's material type, language and year (src/search/repository.ts,
-- facetCounts). From this index alone, once vacuum has marked the documents' pages all-visible,
-- instead of from the documents' rows with their text: a common word's counts (700,000 matches
-- at a million bibs) took half as long.
create index search_docs_facets on search_docs (bib_id) include (material_type, lang, year);
