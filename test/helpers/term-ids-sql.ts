// search_docs.term_ids decoded in SQL, for tests that join a doc's keys to search_terms. Written
// apart from src/search/term-ids.ts (a loop over the bytes in PL/pgSQL), so each checks the other.
import type { Queryable } from '../../src/db/types.ts';

/** Installs doc_term_ids(bytea) → integer[] (the ids, ascending) in the test's database. */
export async function installDocTermIds(db: Queryable): Promise<void> {
  await db.exec(`create or replace function doc_term_ids(b bytea) returns integer[] language plpgsql immutable strict as $$
    declare
      ids integer[] := '{}';
      previous bigint := 0;
      delta bigint := 0;
      shift integer := 0;
      byte integer;
    begin
      for i in 0 .. length(b) - 1 loop
        byte := get_byte(b, i);
        delta := delta | ((byte & 127)::bigint << shift);
        if byte >= 128 then
          shift := shift + 7;
        else
          previous := previous + delta;
          ids := ids || previous::integer;
          delta := 0;
          shift := 0;
        end if;
      end loop;
      if shift <> 0 then raise exception 'truncated term ids'; end if;
      return ids;
    end $$`);
}
