-- SQL logins (README, "SQL"): each is a PostgreSQL role; its SCRAM-SHA-256 verifier is kept here
-- too, for Carrel's own wire door to check a client's proof against (reading the role's own in
-- pg_authid takes a superuser). A verifier, not a password: the password is shown once and kept
-- nowhere.
create table sql_logins (
  name text primary key,
  verifier text not null check (verifier like 'SCRAM-SHA-256$%'),
  created_date timestamptz not null default now()
);
