-- Orders sent to vendors as EDIFACT ORDERS (README, "Sending orders and fetching files"). An
-- interchange is recorded, with its bytes and the orders it carries, before it is uploaded
-- (status prepared) and marked sent once the upload and its rename succeeded. An order is in one
-- interchange at most (order_id is the key), so a retry never sends an order twice; a prepared
-- interchange left by a process that died is resolved before anything new is sent: the vendor's
-- server is asked whether its file arrived, and the same bytes are sent again only if not.
create sequence edi_control_references start with 1;

create table edi_interchanges (
  id bigint generated always as identity primary key,
  vendor_id bigint not null references vendors (id),
  -- UNB's interchange control reference (at most 14 characters): unique, increasing.
  control_reference text not null unique check (control_reference ~ '^[0-9]{1,14}$'),
  file_name text not null check (length(file_name) between 1 and 255),
  status text not null check (status in ('prepared', 'sent')),
  prepared_date timestamptz not null,
  sent_date timestamptz,
  -- Where it went: the vendor's server folder, or nowhere but here (no connection set).
  delivered_to text,
  content bytea not null,
  check ((status = 'sent') = (sent_date is not null))
);
create index edi_interchanges_vendor on edi_interchanges (vendor_id, id);

create table edi_order_sends (
  order_id bigint primary key references orders (id),
  interchange_id bigint not null references edi_interchanges (id) on delete cascade
);
create index edi_order_sends_interchange on edi_order_sends (interchange_id);
