-- An import writes bibs five hundred at a time: one trigger per statement queues them all with
-- one insert, where the per-row trigger of 0009 ran a PL/pgSQL function and an insert for each
-- row. The effect is the same: every bib a statement inserts or updates is queued for indexing.
-- (A trigger with a transition table takes one event, so inserts and updates get one each.)
drop trigger bibs_search_enqueue on bibs;
drop function search_enqueue();

create function search_enqueue_rows() returns trigger language plpgsql as $$
begin
  insert into search_queue (bib_id) select id from changed_bibs on conflict do nothing;
  return null;
end $$;

create trigger bibs_search_enqueue_insert after insert on bibs
  referencing new table as changed_bibs for each statement execute function search_enqueue_rows();
create trigger bibs_search_enqueue_update after update on bibs
  referencing new table as changed_bibs for each statement execute function search_enqueue_rows();
