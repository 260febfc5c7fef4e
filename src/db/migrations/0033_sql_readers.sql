-- SQL readers (README, "SQL"): saved queries, `carrel sql` and SQL logins act as a role that reads
-- the sierra_view views and nothing else (src/sql/roles-repository.ts makes it).

-- Writing large objects is open to every role by default, and a SQL login may write temporary
-- tables, so its session is not read-only: close them to all but Carrel's own user. Only their
-- owner (a superuser) can; a Carrel running as a lesser user leaves them as they are.
do $$
begin
  revoke execute on function lo_create(oid), lo_creat(integer), lo_from_bytea(oid, bytea), lo_put(oid, bigint, bytea),
    lo_unlink(oid), lowrite(integer, bytea), lo_truncate(integer, integer), lo_truncate64(integer, bigint) from public;
exception when insufficient_privilege then
  null;
end $$;

-- SQL readers act as a role that cannot read Carrel's tables (README, "SQL"); the views read them
-- as the views' owner, but a function a view calls runs as its caller. This one reads items and
-- patrons for their varfields, so it runs as its owner, on a fixed search path.
alter function carrel_sierra_fields(text, bigint, json) security definer set search_path = public, pg_catalog;
