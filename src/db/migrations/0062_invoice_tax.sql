-- Tax the vendor charges on an invoice (VAT, GST, sales tax), beside the library's own use tax.
-- As Sierra does by default, the invoice's tax is shared out to its lines in proportion to their
-- subtotals (or given per line, when the vendor states each line's tax), so each line's fund is
-- charged its share with the rest of the line:
--   total = subtotal + use tax + shipping share + tax share − discount share
-- A vendor's zero-rated tax is a tax of 0.
alter table invoices add column tax numeric(18, 2) not null default 0 check (tax >= 0);
alter table invoice_lines add column tax numeric(18, 2) not null default 0 check (tax >= 0);

do $$
declare
  found text;
begin
  select conname into found from pg_constraint
  where conrelid = 'invoice_lines'::regclass and contype = 'c'
    and pg_get_constraintdef(oid) like '%(total = (((subtotal + use_tax_amount) + shipping) - discount))%';
  if found is null then
    raise exception 'invoice_lines: the check on total was not found';
  end if;
  execute format('alter table invoice_lines drop constraint %I', found);
end $$;

alter table invoice_lines add constraint invoice_lines_total_adds_up
  check (total = subtotal + use_tax_amount + shipping + tax - discount);
