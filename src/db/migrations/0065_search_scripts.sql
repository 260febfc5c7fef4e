-- Bibs whose words the search now reads differently are indexed again (by a running server, or
-- `carrel search reindex` at once): those with an 880 field (indexed now as the field it links to),
-- and those with text in Han, kana, Hangul (now cut into overlapping pairs, kana keeping its voicing
-- marks, Hangul kept whole) or Arabic (its stretching stroke now dropped). Their old postings are
-- replaced as each is indexed. Only these: the rest are read as before, and queueing a large
-- catalogue whole would keep the indexer busy for an hour.
insert into search_queue (bib_id)
select id from bibs
where deleted_date is null
  and marc::text ~ '"880"|[\u0640\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff65-\uff9f\U00020000-\U0003134f]'
on conflict do nothing;
