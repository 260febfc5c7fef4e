-- PostgreSQL lets every role UPDATE the pg_settings view, and its rule calls set_config for the
-- whole session, not the transaction. A SQL login's statements run on a session Carrel shares (the
-- embedded engine) or that Carrel opened (the SQL door on PostgreSQL): an update there could change
-- Carrel's search path, make every later transaction read-only or lift the statement time-out.
-- Nothing of Carrel's writes to pg_settings. Where Carrel's database user does not own the view (a
-- PostgreSQL server whose superuser is someone else), PostgreSQL warns and changes nothing: the SQL
-- door then still refuses such an update by its parse tree and puts the session's settings back
-- after every batch.
revoke update on pg_catalog.pg_settings from public;
