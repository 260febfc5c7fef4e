-- Searches are evaluated in each process from its kept posting lists (src/search/evaluate.ts),
-- which counts every search's matches as it ranks them and reads each list whole: the counts kept
-- between searches, and the longer lists' bitmaps (read by the ranking statements that checked a
-- few bibs against a list), are no longer read.
drop table search_counts;
drop table search_bitmaps;
alter table search_terms drop column bitmap;
