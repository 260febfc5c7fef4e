-- Searches are evaluated in each process from its kept posting lists (src/search/evaluate.ts),
-- which counts every search's matches as it ranks them: the counts kept between searches are no
-- longer read.
drop table search_counts;
