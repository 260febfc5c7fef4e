-- Writes sent with an Idempotency-Key: the key (per API key), what the request was, and the answer
-- given, written in the same transaction as the write itself (src/http/idempotency.ts). Kept 24 h.
create table idempotent_requests (
  key_id bigint not null references api_keys (id) on delete cascade,
  idempotency_key text not null,
  -- SHA-256 of the method, the address and the body: the same key with another request is refused.
  fingerprint text not null,
  status_code integer,
  content_type text,
  body text,
  created_date timestamptz not null default now(),
  primary key (key_id, idempotency_key)
);
create index idempotent_requests_created on idempotent_requests (created_date);
