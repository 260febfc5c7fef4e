-- SIP2 accounts (README, "SIP2"): the login (93: CN, CO) of a self-check kiosk, PC reservation or
-- sorter, with the institution id (AO) its messages must carry and an optional location. The
-- password is shown once and kept only as a slow hash.
create table sip_accounts (
  name text primary key check (name ~ '^[A-Za-z0-9_.-]{1,64}$'),
  password_hash text not null,
  institution text not null check (length(institution) between 1 and 64),
  location text,
  created_date timestamptz not null default now()
);
