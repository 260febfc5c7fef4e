-- Each client's last write (an API key's, a catalogue session's), as the primary's WAL position
-- after its commit: with read replicas (DATABASE_READ_URLS), a client's reads go to a replica only
-- once it has replayed that far. Unlogged: written on every write, read only on the primary.
create unlogged table read_marks (
  client text primary key,
  lsn pg_lsn not null,
  written_at timestamptz not null
);
