-- The public catalogue's sessions (src/patron-sessions/). The cookie carries a random id; only its
-- SHA-256 is kept, so a copy of this table (a backup, a SQL login that reached it) signs no one
-- in. A session is a signed-in patron's: a visitor who has not signed in has no row (the sign-in
-- form's CSRF token is a cookie the form repeats), so opening the sign-in page writes nothing.
-- Signing in makes a new session (a new id) and deletes the one before it.
create table catalog_sessions (
  id_hash bytea primary key check (length(id_hash) = 32),
  patron_id bigint not null references patrons (id) on delete cascade,
  -- The token every form of the session carries in a hidden field (random, base64url).
  csrf_token text not null,
  created timestamptz not null,
  last_seen timestamptz not null
);

-- The sweep deletes sessions idle too long or too old: both read by their time.
create index catalog_sessions_last_seen on catalog_sessions (last_seen);
create index catalog_sessions_created on catalog_sessions (created);
create index catalog_sessions_patron on catalog_sessions (patron_id);
