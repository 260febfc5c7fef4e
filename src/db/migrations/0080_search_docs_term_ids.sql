-- A doc's key ids (search_docs.terms, int[]) become term_ids: the same ids as bytes, ascending, each
-- the difference from the one before in unsigned LEB128 (src/search/term-ids.ts). About 90 bytes a
-- bib where the array took 305: 21 MB less at 100,000 bibs, most of what the embedded engine's data
-- directory was over its 500 MB. Converted here, in one rewrite of the table, so no bib needs
-- indexing again.
create function pg_temp.term_ids(ids integer[]) returns bytea language sql immutable strict as $$
  select coalesce(decode(string_agg(lpad(to_hex(((d >> (7 * k)) & 127) | (case when d >> (7 * (k + 1)) > 0 then 128 else 0 end)), 2, '0'),
                                    '' order by id, k), 'hex'), '\x'::bytea)
    from (select id, id::bigint - coalesce(lag(id) over (order by id), 0) as d from unnest(ids) as u(id)) as deltas
    cross join generate_series(0, 4) as k
   where k = 0 or d >> (7 * k) > 0
$$;
alter table search_docs alter column terms drop default;
alter table search_docs alter column terms type bytea using pg_temp.term_ids(terms);
alter table search_docs rename column terms to term_ids;
-- PostgreSQL 18 names a column's NOT NULL (the embedded engine's is 18): the name follows the
-- column, as a table created with term_ids would have it (a rebuild creates one).
do $$
begin
  if exists (select from pg_constraint where conname = 'search_docs_terms_not_null' and conrelid = 'search_docs'::regclass) then
    alter table search_docs rename constraint search_docs_terms_not_null to search_docs_term_ids_not_null;
  end if;
end $$;
