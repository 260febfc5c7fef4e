-- Every change to branches or locations is announced on the channel carrel_branches_changed, once
-- per transaction at its commit: each server process keeps the branches with their locations in
-- memory (src/branches/service.ts) and forgets them when told, whoever made the change (a
-- `carrel library apply`, the demo loader, a person with psql).
create function carrel_branches_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('carrel_branches_changed', '');
  return null;
end $$;

create trigger branches_changed after insert or update or delete or truncate on branches
  for each statement execute function carrel_branches_changed();
create trigger locations_changed after insert or update or delete or truncate on locations
  for each statement execute function carrel_branches_changed();

-- Only its triggers call it (a trigger's function runs whatever its privileges): PUBLIC may not
-- send Carrel's servers notices (README, "SQL logins").
revoke execute on function carrel_branches_changed() from public;
