-- Saved queries (README, "Saved queries"): SQL a library wrote against the sierra_view views,
-- kept with a name and typed named parameters, run over REST (GET /v6/queries/{id}/results) as
-- the reader role. A public one runs without a token.
create table saved_queries (
  id bigint generated always as identity (start with 1000001) primary key,
  name text not null check (length(name) between 1 and 200),
  description text not null default '',
  statement text not null,
  -- [{"name", "type", "required", "default"?, "description"?}], in the order they were given.
  parameters jsonb not null default '[]',
  public boolean not null default false,
  created_date timestamptz not null default now(),
  updated_date timestamptz not null default now()
);
