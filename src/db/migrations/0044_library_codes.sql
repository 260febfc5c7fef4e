-- Codes a library defines (README, "Your own library"): its item statuses, with what each means
-- to circulation, and its patron fixed fields (patron codes, notice preference, fields its sites
-- added) with their code lists. Both are written by `carrel profile apply`.

-- An item status is one character, as Sierra's are. What it means: available (an item in it may
-- be checked out), holdable (it may fill a hold), on the shelf (a patron could find it there), and
-- the SIP2 circulation status (field 18 of Item Information) a kiosk is told. The standard codes
-- keep the meaning Carrel's rules gave them.
alter table item_statuses
  add column available boolean not null default false,
  add column holdable boolean not null default false,
  add column on_shelf boolean not null default false,
  add column sip2_status text not null default '01' check (sip2_status ~ '^(0[1-9]|1[0-3])$'),
  add constraint item_statuses_one_character check (char_length(code) = 1);

update item_statuses set available = true, holdable = true, on_shelf = true, sip2_status = '03' where code = '-';
update item_statuses set holdable = true, on_shelf = true where code = 'o';
update item_statuses set holdable = true where code in ('p', 't', '!');
update item_statuses set sip2_status = '08' where code = '!';
update item_statuses set sip2_status = '10' where code = 't';
update item_statuses set sip2_status = '06' where code = 'p';
update item_statuses set sip2_status = '11' where code = 'z';
update item_statuses set sip2_status = '12' where code in ('l', 'n', '$');
update item_statuses set sip2_status = '13' where code = 'm';

-- A patron fixed field the library defines: its number (Sierra's), labels, and, when it has
-- one, the list of codes its value must be one of.
create table patron_fixed_fields (
  number integer primary key check (number between 1 and 999),
  label text not null check (length(label) between 1 and 100),
  short text not null check (length(short) between 1 and 20)
);

create table patron_fixed_field_codes (
  field_number integer not null references patron_fixed_fields (number) on delete cascade,
  code text not null check (length(code) between 1 and 20),
  name text not null,
  primary key (field_number, code)
);

-- A patron's value of each defined field it has.
create table patron_fixed_values (
  patron_id bigint not null references patrons (id),
  field_number integer not null references patron_fixed_fields (number),
  value text not null check (length(value) between 1 and 255),
  primary key (patron_id, field_number)
);
-- Counting a field's or a code's uses (a profile removing one) and queries on a field.
create index patron_fixed_values_field on patron_fixed_values (field_number, value);
