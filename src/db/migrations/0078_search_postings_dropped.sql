-- A row per posting (a key's bib and its weight) was most of the search index: 961 MB of the
-- 1,226 MB index of 100,000 bibs, with its two indexes. Searches read the keys' lists from their
-- compressed segments (search_segments) instead, the indexer learns what leaves a key's list from
-- the old document's keys (search_docs.terms), and a rebuild sorts its postings in a scratch table
-- of its own: nothing reads these rows any more.
drop table search_postings;

-- The documents' facet values by bib (migration 0015) were for counting a search's facets in a
-- statement joining its postings to the documents. Each process now counts them in memory, from
-- the documents written since it last read (by version, search_docs_version): nothing reads this
-- index any more either.
drop index search_docs_facets;
