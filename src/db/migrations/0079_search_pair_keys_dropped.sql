-- Each quoted phrase's word pairs ("*~civil war": two words one after the other in a bib's text)
-- had a list of their own, kept for narrowing phrases, which no search reads: a phrase is checked
-- on its matches' folded text. They were 62% of the keys and 43% of the lists' bytes of the
-- 100,000-bib index. The indexer no longer makes them; these go. (The docs still name their ids in
-- search_docs.terms until each bib is indexed again: the indexer reads a doc's keys through
-- search_terms, which no longer holds them, so they are passed over.)
delete from search_segments s using search_terms t where t.id = s.term_id and t.key like '*~% %';
delete from search_terms where key like '*~% %';
