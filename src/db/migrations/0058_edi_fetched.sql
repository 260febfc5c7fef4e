-- Files fetched from a vendor's server (README, "Sending orders and fetching files"): the files
-- a vendor leaves in its folder are remembered by name, size and modification time, so that one
-- is fetched once however often the folder is listed, and fetched again only when the vendor
-- replaces it. The row is written in the transaction that keeps the file (files.id).
create table edi_fetched (
  vendor_id bigint not null references vendors (id),
  name text not null check (length(name) between 1 and 255),
  size bigint not null check (size >= 0),
  mtime bigint not null,
  file_id bigint not null references files (id),
  fetched_date timestamptz not null default now(),
  primary key (vendor_id, name, size, mtime)
);
