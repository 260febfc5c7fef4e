-- Searches are evaluated in each process from its kept posting lists (src/search/evaluate.ts),
-- which counts every search's matches as it ranks them and reads each list whole: the counts kept
-- between searches, the longer lists' bitmaps (read by the ranking statements that checked a few
-- bibs against a list) and the docs' weights are no longer read.
drop table search_counts;
drop table search_bitmaps;
-- (A reindex stopped before 0075 may have left its bitmaps' build table, which no reindex now drops.)
drop table if exists search_bitmaps_build;
alter table search_terms drop column bitmap;
-- Each doc's weights beside its keys scored a pool's matches from the doc; the evaluator scores
-- from the lists. Its keys stay: a bib's postings are found through them when it changes.
alter table search_docs drop column weights;
