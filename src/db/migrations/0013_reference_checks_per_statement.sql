-- The catalogue's references (a bib's material type; an item's status and location; an item's
-- bibs) are checked once per statement instead of once per row. An import writes a batch of bibs
-- and items with one COPY each, and PostgreSQL's foreign keys checked and locked the referenced
-- row for every one of them: about half of the database's time in an import.
--
-- The guarantee is the same under READ COMMITTED, Carrel's only isolation level:
-- * child side (after insert or update, per statement): every value the statement wrote names
--   an existing row, or the statement fails with SQLSTATE 23503 as a foreign key would;
-- * parent side (before delete or a change of key, per row): a key some child row still names
--   cannot go. The child table is locked in SHARE mode first, so the check waits for every
--   transaction still writing children and then sees what they committed; a writer that comes
--   later waits for this transaction and then, checking with a fresh snapshot, finds the key gone.
-- Bibs and items themselves are never deleted by Carrel (a deletion is a tombstone), so the
-- parent side only ever guards a hand-made delete.

alter table bibs drop constraint bibs_material_type_fkey;
alter table items drop constraint items_location_code_fkey, drop constraint items_status_fkey;
alter table item_bibs drop constraint item_bibs_item_id_fkey, drop constraint item_bibs_bib_id_fkey;

-- Arguments: the child's column, the parent table, the parent's key column. The statement's rows
-- are the transition table new_rows.
create function check_reference() returns trigger language plpgsql as $$
declare
  missing text;
begin
  execute format(
    'select n.%1$I::text from new_rows n where n.%1$I is not null and not exists (select from %2$I p where p.%3$I = n.%1$I) limit 1',
    tg_argv[0], tg_argv[1], tg_argv[2]) into missing;
  if missing is not null then
    raise foreign_key_violation using
      message = format('insert or update on table "%s" violates foreign key constraint "%s"', tg_table_name, tg_name),
      detail = format('Key (%s)=(%s) is not present in table "%s".', tg_argv[0], missing, tg_argv[1]);
  end if;
  return null;
end $$;

-- Arguments: the child table, the child's column, this (parent) table's key column.
create function refuse_referenced_key() returns trigger language plpgsql as $$
declare
  used boolean;
begin
  if tg_op = 'UPDATE' then
    execute format('select $1.%1$I is not distinct from $2.%1$I', tg_argv[2]) using old, new into used;
    if used then return new; end if;
  end if;
  execute format('lock table %I in share mode', tg_argv[0]);
  execute format('select exists (select from %1$I c where c.%2$I = $1.%3$I)', tg_argv[0], tg_argv[1], tg_argv[2]) using old into used;
  if used then
    raise foreign_key_violation using
      message = format('update or delete on table "%s" violates foreign key constraint "%s" on table "%s"', tg_table_name, tg_name, tg_argv[0]),
      detail = format('Key is still referenced from table "%s".', tg_argv[0]);
  end if;
  return case tg_op when 'DELETE' then old else new end;
end $$;

-- A trigger with a transition table takes one event, so inserts and updates get one each.
create trigger bibs_material_type_ref after insert on bibs
  referencing new table as new_rows for each statement execute function check_reference('material_type', 'material_types', 'code');
create trigger bibs_material_type_ref_update after update on bibs
  referencing new table as new_rows for each statement execute function check_reference('material_type', 'material_types', 'code');
create trigger items_status_ref after insert on items
  referencing new table as new_rows for each statement execute function check_reference('status', 'item_statuses', 'code');
create trigger items_status_ref_update after update on items
  referencing new table as new_rows for each statement execute function check_reference('status', 'item_statuses', 'code');
create trigger items_location_ref after insert on items
  referencing new table as new_rows for each statement execute function check_reference('location_code', 'locations', 'code');
create trigger items_location_ref_update after update on items
  referencing new table as new_rows for each statement execute function check_reference('location_code', 'locations', 'code');
create trigger item_bibs_item_ref after insert on item_bibs
  referencing new table as new_rows for each statement execute function check_reference('item_id', 'items', 'id');
create trigger item_bibs_item_ref_update after update on item_bibs
  referencing new table as new_rows for each statement execute function check_reference('item_id', 'items', 'id');
create trigger item_bibs_bib_ref after insert on item_bibs
  referencing new table as new_rows for each statement execute function check_reference('bib_id', 'bibs', 'id');
create trigger item_bibs_bib_ref_update after update on item_bibs
  referencing new table as new_rows for each statement execute function check_reference('bib_id', 'bibs', 'id');

create trigger material_types_referenced before delete or update of code on material_types
  for each row execute function refuse_referenced_key('bibs', 'material_type', 'code');
create trigger item_statuses_referenced before delete or update of code on item_statuses
  for each row execute function refuse_referenced_key('items', 'status', 'code');
create trigger locations_referenced_by_items before delete or update of code on locations
  for each row execute function refuse_referenced_key('items', 'location_code', 'code');
create trigger items_referenced_by_item_bibs before delete or update of id on items
  for each row execute function refuse_referenced_key('item_bibs', 'item_id', 'id');
create trigger bibs_referenced_by_item_bibs before delete or update of id on bibs
  for each row execute function refuse_referenced_key('item_bibs', 'bib_id', 'id');

-- Like the foreign keys before them, the parent-side checks have no index of items by status or
-- location: deleting a code is rare and may scan items, where two more indexes would cost every
-- item written.

-- New MARC is compressed with LZ4 where the server has it (several times faster than pglz on the
-- records over 2 kB); a build without it keeps pglz.
do $$
begin
  alter table bibs alter column marc set compression lz4;
exception when feature_not_supported or invalid_parameter_value then
  null;
end $$;
