-- Requests per minute per API key: null takes the server's default (CARREL_RATE_LIMIT), 0 means
-- unlimited. The counts are shared by every server process: each adds its own about once a second.
alter table api_keys add column rate_limit integer check (rate_limit >= 0);

create table rate_counts (
  key_id bigint not null references api_keys (id) on delete cascade,
  -- The route family: the first segment of the path after /v6 (bibs, patrons, invoices…).
  family text not null,
  -- Minutes since 1970: one row per key, family and minute.
  minute bigint not null,
  count integer not null,
  primary key (key_id, family, minute)
);
