-- What PUBLIC may call here (README, "SQL logins"). Roles belong to the whole PostgreSQL cluster,
-- so PUBLIC is every role that can connect: a SQL login of another Carrel database on the same
-- cluster too.
--
-- carrel_sierra_fields runs as its owner (0033) and answers a patron's barcodes, names, emails,
-- phones and addresses for any id: it is this database's reader role's only, which the views call
-- it as. src/sql/roles-repository.ts grants it where it makes the role; a reader made before this
-- migration is granted it here.
revoke execute on function carrel_sierra_fields(text, bigint, json) from public;
do $$
declare
  reader text := 'carrel_reader_' || left(md5(current_database()), 12);
begin
  if exists (select 1 from pg_roles where rolname = reader) then
    execute format('grant execute on function carrel_sierra_fields(text, bigint, json) to %I', reader);
  end if;
end $$;

-- Functions only Carrel's own statements and triggers call (a trigger's function runs whatever its
-- privileges): the change clock's takes advisory locks before it reads a table, so a caller could
-- hold Carrel's writers' turn. The others PUBLIC keeps compute from their arguments alone (the
-- views' helpers), or are sierra_view's, whose schema only the reader may use.
revoke execute on function change_clock_stamp(boolean), change_clock_horizon(), change_clock_stamp_circulation(),
  circulation_rule(integer, text, text), check_reference(), refuse_referenced_key(), refuse_paid_invoice_change(),
  search_enqueue_rows() from public;

-- Advisory locks are how Carrel's writers take turns (src/db/lock-keys.ts): a login connected straight
-- to PostgreSQL holding one for its session would stop every write. They are Carrel's user's (and the
-- database owner's) alone. Only their owner (a superuser) can revoke them; a Carrel running as a
-- lesser user leaves them as they are.
do $$
declare
  f regprocedure;
begin
  for f in
    select p.oid::regprocedure from pg_proc p
    where p.pronamespace = 'pg_catalog'::regnamespace and (p.proname like 'pg\_advisory\_%' or p.proname like 'pg\_try\_advisory\_%')
  loop
    execute format('grant execute on function %s to current_user, pg_database_owner', f);
    execute format('revoke execute on function %s from public', f);
  end loop;
exception when insufficient_privilege then
  null;
end $$;
