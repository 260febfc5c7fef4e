-- Acquisitions: use tax codes, funds, vendors, invoices and their line items.
-- Money is NUMERIC with two decimals; a use tax rate is NUMERIC with no scale modifier, so it keeps
-- the digits the library gave it ('7.75' stays 7.75, '8.125' stays 8.125, '0' stays 0).

create table use_tax_codes (
  code text primary key check (code ~ '^[a-z0-9]{1,3}$'),
  rate numeric not null check (rate >= 0 and rate <= 100 and scale(rate) <= 6),
  description text check (length(description) <= 200),
  created_date timestamptz not null default now(),
  updated_date timestamptz not null default now()
);

-- Funds: appropriation is set by the library; expenditure and encumbrance are kept by invoices
-- (an unpaid invoice's lines encumber their funds; paying moves them to expenditure).
create table funds (
  id integer generated always as identity primary key,
  code text not null unique check (code ~ '^[a-z0-9]{1,15}$'),
  fund_name text not null check (length(fund_name) between 1 and 100),
  accounting_unit integer not null default 0 check (accounting_unit between 0 and 999),
  currency text not null default 'USD' check (currency ~ '^[A-Z]{3}$'),
  appropriation numeric(18, 2) not null default 0 check (appropriation >= 0),
  expenditure numeric(18, 2) not null default 0 check (expenditure >= 0),
  encumbrance numeric(18, 2) not null default 0 check (encumbrance >= 0),
  note text check (length(note) <= 500),
  created_date timestamptz not null,
  updated_date timestamptz not null
);

create sequence vendor_ids start with 1000001;

create table vendors (
  id bigint primary key default nextval('vendor_ids'),
  code text not null unique check (code ~ '^[a-z0-9]{1,15}$'),
  vendor_name text not null check (length(vendor_name) between 1 and 200),
  accounting_unit integer not null default 0 check (accounting_unit between 0 and 999),
  address1 text check (length(address1) <= 500),
  address2 text check (length(address2) <= 500),
  contact text check (length(contact) <= 200),
  email text check (length(email) <= 200),
  phone text check (length(phone) <= 100),
  acct_num text check (length(acct_num) <= 100),
  created_date timestamptz not null,
  updated_date timestamptz not null
);
alter sequence vendor_ids owned by vendors.id;
create index vendors_updated on vendors (updated_date, id);

create sequence invoice_ids start with 1000001;

-- Invoices. Status: o open, s suspended (not payable until reopened), p paid. The use tax rate is
-- the code's rate when the invoice was last written, kept so later rate changes do not alter it.
create table invoices (
  id bigint primary key default nextval('invoice_ids'),
  inv_num text not null check (length(inv_num) between 1 and 40 and inv_num = btrim(inv_num)),
  inv_date date not null,
  status text not null default 'o' check (status in ('o', 's', 'p')),
  vendor_id bigint not null references vendors (id),
  accounting_unit integer not null default 0 check (accounting_unit between 0 and 999),
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  use_tax_code text references use_tax_codes (code),
  use_tax_rate numeric,
  shipping numeric(18, 2) not null default 0 check (shipping >= 0),
  discount numeric(18, 2) not null default 0 check (discount >= 0),
  note text check (length(note) <= 1000),
  paid_date timestamptz,
  created_date timestamptz not null,
  updated_date timestamptz not null,
  deleted_date timestamptz,
  check ((status = 'p') = (paid_date is not null)),
  check ((use_tax_code is null) = (use_tax_rate is null)),
  check (status <> 'p' or deleted_date is null)
);
alter sequence invoice_ids owned by invoices.id;
-- One live invoice per vendor and invoice number: the same bill cannot be entered (and paid) twice.
create unique index invoices_vendor_number on invoices (vendor_id, inv_num) where deleted_date is null;
create index invoices_updated on invoices (updated_date, id);
create index invoices_created on invoices (created_date, id);
create index invoices_paid on invoices (paid_date, id) where paid_date is not null;
create index invoices_inv_date on invoices (inv_date, id);
create index invoices_inv_num on invoices (inv_num);

create sequence invoice_line_ids start with 1000001;

-- Line items. amount is the unit price; every derived figure is stored and checked against the
-- others, so the database itself refuses a line whose arithmetic does not add up:
--   subtotal = amount × quantity
--   use tax  = round(subtotal × rate / 100, 2), halves away from zero (PostgreSQL's round)
--   total    = subtotal + use tax + shipping share − discount share
create table invoice_lines (
  id bigint primary key default nextval('invoice_line_ids'),
  invoice_id bigint not null references invoices (id),
  line_number integer not null check (line_number >= 1),
  fund_id integer not null references funds (id),
  amount numeric(18, 2) not null check (amount >= 0),
  quantity integer not null check (quantity >= 1),
  subtotal numeric(18, 2) not null,
  use_tax boolean not null,
  use_tax_rate numeric,
  use_tax_amount numeric(18, 2) not null,
  shipping numeric(18, 2) not null default 0 check (shipping >= 0),
  discount numeric(18, 2) not null default 0 check (discount >= 0),
  total numeric(18, 2) not null check (total >= 0),
  note text check (length(note) <= 500),
  bib_id bigint references bibs (id),
  order_ref text check (length(order_ref) between 1 and 40),
  unique (invoice_id, line_number),
  check (subtotal = amount * quantity),
  check (case when use_tax then use_tax_rate is not null and use_tax_amount = round(subtotal * use_tax_rate * 0.01, 2)
              else use_tax_rate is null and use_tax_amount = 0 end),
  check (total = subtotal + use_tax_amount + shipping - discount)
);
alter sequence invoice_line_ids owned by invoice_lines.id;
create index invoice_lines_fund on invoice_lines (fund_id);
create index invoice_lines_bib on invoice_lines (bib_id) where bib_id is not null;

-- A paid invoice is final: besides the service's own refusal, the database refuses any change to a
-- paid invoice or to the lines of one.
create function refuse_paid_invoice_change() returns trigger language plpgsql as $$
begin
  if tg_table_name = 'invoices' then
    if old.status = 'p' then
      raise exception 'invoice % is paid and cannot be changed', old.id using errcode = 'P0001';
    end if;
    return case when tg_op = 'DELETE' then old else new end;
  end if;
  if exists (select 1 from invoices where id = case when tg_op = 'INSERT' then new.invoice_id else old.invoice_id end and status = 'p') then
    raise exception 'the lines of a paid invoice cannot be changed' using errcode = 'P0001';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end $$;

create trigger invoices_paid_final before update or delete on invoices
  for each row execute function refuse_paid_invoice_change();
create trigger invoice_lines_paid_final before insert or update or delete on invoice_lines
  for each row execute function refuse_paid_invoice_change();
