-- A vendor's EDI identity (README, "Vendors and EDI"). The party identifiers a vendor writes for
-- itself in an interchange's header and its NAD+SU segment: a SAN (qualifier 31B), a GLN (14), or
-- a number one side assigned (91, 92). One identifier names one vendor, so a file is matched to
-- its vendor by it.
create table vendor_party_ids (
  party_id text primary key check (party_id ~ '^[A-Za-z0-9 -]{1,35}$'),
  qualifier text not null check (qualifier in ('31B', '14', '91', '92')),
  vendor_id bigint not null references vendors (id) on delete cascade
);
create index vendor_party_ids_vendor on vendor_party_ids (vendor_id);

-- How Carrel reaches the vendor: the library's own identifier as this vendor knows it (the
-- interchange's sender, NAD+BY), and, for Carrel as the client of the vendor's server, its address,
-- login and folders. The password is sealed with a key kept outside the database (SecretBox).
create table vendor_edi (
  vendor_id bigint primary key references vendors (id) on delete cascade,
  library_party_id text check (library_party_id ~ '^[A-Za-z0-9 -]{1,35}$'),
  library_party_qualifier text check (library_party_qualifier in ('31B', '14', '91', '92')),
  protocol text check (protocol in ('sftp', 'ftp', 'ftps')),
  host text check (length(host) between 1 and 253),
  port integer check (port between 1 and 65535),
  username text check (length(username) between 1 and 200),
  password_sealed text,
  orders_folder text check (length(orders_folder) <= 500),
  files_folder text check (length(files_folder) <= 500),
  updated_date timestamptz not null,
  check ((library_party_id is null) = (library_party_qualifier is null)),
  check ((protocol is null) = (host is null))
);
