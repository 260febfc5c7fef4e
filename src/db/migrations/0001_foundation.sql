-- API keys: the public key id and a slow hash of the secret (never the secret itself).
create table api_keys (
  id bigint generated always as identity primary key,
  key text not null unique,
  name text not null,
  secret_hash text not null,
  roles text[] not null,
  created_date timestamptz not null default now(),
  revoked_date timestamptz
);

-- Bearer tokens, kept only as SHA-256 of the token (tokens are 256 random bits, so a fast hash is enough).
create table access_tokens (
  token_hash bytea primary key,
  key_id bigint not null references api_keys (id) on delete cascade,
  issued_date timestamptz not null default now(),
  expires_date timestamptz not null
);
create index access_tokens_expires on access_tokens (expires_date);

-- The operator's switch, shared by every server process of one database.
create table service_state (
  id boolean primary key default true check (id),
  maintenance boolean not null default false,
  updated_date timestamptz not null default now()
);
insert into service_state default values;
