-- Purchase orders: one title (bib) bought from a vendor on a fund, its copies shared out among
-- locations. Numbered like invoices and vendors (a sequence from 1000001; Sierra's record key is
-- 'o' and the number). Money is NUMERIC(18, 2) in the fund's currency, as for invoices.
--
-- status is Sierra's order status code: o on order, 1 selection list, q partly paid, a fully paid,
-- z cancelled (Sierra's e is not used). Receiving is shown by received_date and received_copies,
-- not by the status, as in Sierra.
--
-- encumbrance is what the order still holds on its fund: copies × estimated price when it is
-- placed, less what paid invoice lines have released, nothing once cancelled. The fund's own
-- encumbrance includes it (the order service moves both in one transaction).

create sequence order_ids start with 1000001;

create table orders (
  id bigint primary key default nextval('order_ids'),
  bib_id bigint not null references bibs (id),
  vendor_id bigint not null references vendors (id),
  fund_id integer not null references funds (id),
  copies integer not null check (copies between 1 and 100000),
  estimated_price numeric(18, 2) not null check (estimated_price > 0),
  encumbrance numeric(18, 2) not null check (encumbrance >= 0),
  line_reference text not null check (length(line_reference) between 1 and 40 and line_reference = btrim(line_reference)),
  status text not null default 'o' check (status in ('o', '1', 'q', 'a', 'z')),
  order_date date not null,
  received_date date,
  received_copies integer not null default 0 check (received_copies >= 0 and received_copies <= copies),
  paid_copies integer not null default 0 check (paid_copies >= 0),
  -- The vendor's last answer about this order line (an EDIFACT ORDRSP status, for example).
  vendor_status text check (length(vendor_status) between 1 and 40),
  vendor_status_date timestamptz,
  cancelled_date timestamptz,
  note text check (length(note) <= 1000),
  created_date timestamptz not null,
  updated_date timestamptz not null,
  deleted_date timestamptz,
  check ((status = 'z') = (cancelled_date is not null)),
  check ((received_copies > 0) = (received_date is not null)),
  check (status <> 'z' or encumbrance = 0),
  check (encumbrance <= copies * estimated_price)
);
alter sequence order_ids owned by orders.id;
-- A line reference names one open order: a vendor's answer or invoice finds its order by it.
create unique index orders_open_line_reference on orders (line_reference) where status not in ('a', 'z') and deleted_date is null;
create index orders_line_reference on orders (line_reference);
create index orders_bib on orders (bib_id);
create index orders_vendor on orders (vendor_id);
create index orders_fund on orders (fund_id);
create index orders_updated on orders (updated_date, id);
create index orders_created on orders (created_date, id);

-- Where an order's copies go: the copies of its locations add up to the order's.
create table order_locations (
  order_id bigint not null references orders (id),
  display_order integer not null check (display_order >= 0),
  location_code text not null references locations (code),
  copies integer not null check (copies >= 1),
  primary key (order_id, location_code),
  unique (order_id, display_order)
);

-- The order an invoice line pays, when its order reference names one.
alter table invoice_lines add column order_id bigint references orders (id);
create index invoice_lines_order on invoice_lines (order_id) where order_id is not null;
