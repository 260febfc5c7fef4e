-- The change clock becomes two advisory locks (src/db/change-clock.ts), so that an import can write
-- batches side by side. Before, every write transaction held the clock row's lock from its stamp
-- to its commit: an import wrote one batch at a time, and PostgreSQL used one core of the two.
--
-- (The keys are listed with Carrel's others in src/db/lock-keys.ts.)
-- CLOCK (7243102003): every writer holds it shared until it commits; a harvest read's horizon takes
-- it alone, so it waits for every writer in progress to commit, and the writers that come after
-- it wait for it (PostgreSQL queues a shared request behind a waiting exclusive one) and stamp
-- later. So every stamp before a horizon is committed when the horizon is read, and every stamp
-- after it is later.
-- WRITE (7243102004): a writer takes it alone, as every writer took the clock row before (writes
-- still take turns, and nothing written for that order changes); an import's batches take it
-- shared, beside each other only (each batch's rows are its own: src/bibs/import.ts).
--
-- Every process must then run code that knows this: a server started before this migration still
-- stamps through the row's lock, and neither kind waits for the other. Stop servers to upgrade.
--
-- The row keeps the latest horizon: a floor for the stamps after it, so a system clock set back
-- cannot stamp a change into a window a harvester has already read. Each function reads it in a
-- statement after its locks are granted, so with a snapshot that sees the horizon before it.
create function change_clock_stamp(batch boolean) returns timestamptz language plpgsql volatile as $$
begin
  if batch then
    perform pg_advisory_xact_lock_shared(7243102004);
  else
    perform pg_advisory_xact_lock(7243102004);
  end if;
  perform pg_advisory_xact_lock_shared(7243102003);
  return (select greatest(clock_timestamp(), stamped_date + interval '1 microsecond') from change_clock);
end $$;

create function change_clock_horizon() returns timestamptz language plpgsql volatile as $$
declare
  now timestamptz;
begin
  -- Its commit need not wait for the disk: the row is only a floor against a clock set back, and
  -- harvest reads, which take the clock alone, then do not queue behind each other's flushes.
  set local synchronous_commit = off;
  perform pg_advisory_xact_lock(7243102003);
  update change_clock set stamped_date = greatest(clock_timestamp(), stamped_date) returning stamped_date into now;
  return now;
end $$;
