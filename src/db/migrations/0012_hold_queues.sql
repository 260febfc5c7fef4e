-- Hold queues counted from the index alone (issue 5). A hold's priority and its queue's length
-- are counts over the queue's active holds (src/holds/repository.ts). A bib's queue is its active
-- *bib* holds, but item holds carry a bib_id too, so the count filtered on record_type and had to
-- visit every hold of the queue in the table: fifteen heap pages for a queue of fifteen, thousands
-- for a best seller's, for each hold on a patron's page. With record_type in the index's
-- predicate the count is an index-only scan. An item's queue is its active item holds, and
-- item_id is set exactly on item holds, so holds_item_queue already answers it by itself.
create index holds_bib_queue_b on holds (bib_id, id) where state in ('0', 't', 'r') and record_type = 'b';
drop index holds_bib_queue;
