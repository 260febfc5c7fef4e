-- Files received (README, "SFTP door and files"): what a vendor or a library dropped on the
-- platform, its bytes, what it was recognised as, and what became of it. A file is processed once:
-- a process claims it (status processing, with a lease until lease_until and its own claim token)
-- and only the holder of the claim may record the outcome; a claim whose lease ran out (its
-- process was killed) is taken again.
create table files (
  id bigint generated always as identity primary key,
  account text not null,
  name text not null check (length(name) between 1 and 255),
  sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  size bigint not null check (size >= 0),
  kind text not null check (kind in ('marc', 'edifact-invoic', 'edifact-ordrsp', 'edifact-orders', 'unknown')),
  status text not null default 'received' check (status in ('received', 'processing', 'loaded', 'refused', 'failed')),
  received_date timestamptz not null default now(),
  processed_date timestamptz,
  report jsonb,
  claim uuid,
  lease_until timestamptz,
  -- The bytes live with the row: the same on both engines, shared by every server process on
  -- PostgreSQL, written in the same transaction as the row that names them.
  content bytea not null
);

-- The claimer's question: which files wait, or were left by a process that died.
create index files_waiting on files (id) where status in ('received', 'processing');
create index files_account on files (account, id);
