-- Fines and payments (issue 19): charges a patron owes (an overdue loan's fine, assessed when the
-- item comes back or the overdue loan is renewed; a manual charge), and what was paid on each.
-- Sierra's charge types: 1 manual charge, 2 overdue, 3 replacement, 4 overdue adjustment, 5 lost
-- book, 6 overdue renewal, 7 rental, 8 rental adjustment, 9 debit, a notice, b credit card, p program.
-- A patron's money owed moves with them, in the same transaction (patrons.money_owed).
create sequence fine_ids start with 1000001;
create table fines (
  id bigint primary key default nextval('fine_ids'),
  patron_id bigint not null references patrons (id),
  item_id bigint references items (id),
  checkout_id bigint references checkouts (id),
  charge_type text not null check (charge_type in ('1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'p')),
  item_charge numeric(12, 2) not null check (item_charge >= 0),
  processing_fee numeric(12, 2) not null default 0 check (processing_fee >= 0),
  billing_fee numeric(12, 2) not null default 0 check (billing_fee >= 0),
  paid_amount numeric(12, 2) not null default 0 check (paid_amount >= 0),
  description text check (length(description) <= 500),
  location_code text,
  assessed_date timestamptz not null,
  -- When the last of it was paid: the fine is then no longer owed.
  paid_date timestamptz,
  check (paid_amount <= item_charge + processing_fee + billing_fee),
  check ((paid_date is not null) = (paid_amount = item_charge + processing_fee + billing_fee))
);
create index fines_patron_owed on fines (patron_id, id) where paid_date is null;
create index fines_checkout on fines (checkout_id) where checkout_id is not null;

create table fine_payments (
  id bigint generated always as identity primary key,
  fine_id bigint not null references fines (id),
  patron_id bigint not null references patrons (id),
  amount numeric(12, 2) not null check (amount > 0),
  -- Sierra's payment types: 1 cash, 2 check, 3 credit card.
  payment_type integer not null check (payment_type in (1, 2, 3)),
  paid_date timestamptz not null
);
create index fine_payments_fine on fine_payments (fine_id);
