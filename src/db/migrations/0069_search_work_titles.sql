-- Every bib is indexed again (by a running server, or `carrel search reindex` at once): the stemmer
-- now takes -ing and -ed forms to their verb ("learning" finds "learn"), which changes the keys of
-- nearly every bib (most have a "published" or an "illustrated" somewhere), and the titles of works
-- in name-title added entries (7XX $t) and contents notes (505 $t) are now titles. Their old
-- postings are replaced as each is indexed; until the indexer reaches a bib, a search by another
-- form of a word, or by a work's title, may miss it.
insert into search_queue (bib_id)
select id from bibs
where deleted_date is null
on conflict do nothing;
