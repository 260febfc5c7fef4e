-- SFTP accounts (README, "SFTP door and files"): who may log in to the SFTP door, with a password
-- shown once and kept only as a slow hash, and/or a public key; the vendor whose files they drop;
-- how their MARC files load. A revoked account is kept (its files name it) but cannot log in.
create table sftp_accounts (
  name text primary key check (name ~ '^[A-Za-z0-9_.-]{1,64}$'),
  password_hash text not null,
  public_key text,
  vendor text,
  load_items boolean not null default true,
  create_missing boolean not null default false,
  created_date timestamptz not null default now(),
  revoked_date timestamptz
);

-- The SFTP door's host key, made once by the first server to open the door and shared by every
-- server process of the database, so clients that have pinned it never see it change. The private
-- key is sealed (src/shared/secret-box.ts): a copy of the database alone does not hold it.
create table sftp_host_keys (
  algorithm text primary key,
  private_key text not null,
  created_date timestamptz not null default now()
);
