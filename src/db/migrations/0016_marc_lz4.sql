-- A bib's MARC (MARC-in-JSON) is compressed with lz4 where this PostgreSQL was built with it
-- (Debian's is), rather than pglz: about a quarter of generated records, and most real ones with
-- many notes or subjects, are over the 2 kB at which PostgreSQL compresses a row, and pglz was
-- about a seventh of the time of an import's COPY of bibs (0.4 s of 2.9 s for 100,000 bibs);
-- lz4 also reads back faster when a harvest asks for varFields. Rows already stored keep their
-- compression until they are written again. The embedded engine has no lz4 and keeps pglz.
do $$
begin
  if exists (select from pg_settings where name = 'default_toast_compression' and 'lz4' = any(enumvals)) then
    alter table bibs alter column marc set compression lz4;
  end if;
end $$;
