-- Each document keeps the weight of each of its keys (search_docs.weights, in the order of terms):
-- a search of several words scores each match from its document, which it reads anyway for the
-- title, where it probed each query key's list for the bib (src/search/repository.ts, rankPool).
-- Existing documents start with none, and are scored by probes as before, with the same scores;
-- each bib indexed again gains its weights, and `carrel search reindex` gives them to all at once.
alter table search_docs add column weights real[] not null default '{}';
