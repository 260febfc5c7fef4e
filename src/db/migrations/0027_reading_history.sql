-- Reading history (issue 19): a patron who turns it on keeps a row for each checkout from then on,
-- until the row, or the history, is deleted; turning it off deletes it (a library keeps no record
-- of what a patron read unless the patron asked it to).
alter table patrons add column reading_history boolean not null default false;
create table reading_history (
  id bigint generated always as identity primary key,
  patron_id bigint not null references patrons (id),
  item_id bigint not null references items (id),
  bib_id bigint references bibs (id),
  out_date timestamptz not null
);
create index reading_history_patron on reading_history (patron_id, out_date desc, id desc);
