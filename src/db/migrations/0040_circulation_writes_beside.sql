-- Check-out, check-in and renewal write beside each other. Each locks every row it writes, in one
-- order (the item's bibs by id, then the patron, then the item: HoldService.lockForCirculation),
-- so the writers' turn (WRITE, 7243102004, migration 0017) only kept apart what those row locks
-- keep apart already, and every kiosk and circulation desk queued behind every other. They take
-- WRITE shared, as an import's batches do: beside each other, and still in turns with every other
-- writer, which takes it alone. The change clock (CLOCK) is taken as every writer takes it, so a
-- harvest's horizon still falls only between committed writes.
--
-- Not beside an import's batches, which lock bibs in their own order (an item on two bibs could
-- deadlock with one). An import holds the import lock (7243102005) for its whole run: while it
-- runs, a circulation writer takes WRITE alone and takes turns with its batches, as before; while
-- a circulation writer holds the import lock shared, no import starts (it tries again shortly).
-- The tries never wait, so the two locks cannot deadlock.
create function change_clock_stamp_circulation() returns timestamptz language plpgsql volatile as $$
begin
  -- change_clock_stamp(true) takes WRITE shared, (false) alone; both then CLOCK shared (0017).
  return change_clock_stamp(pg_try_advisory_xact_lock_shared(7243102005));
end $$;
