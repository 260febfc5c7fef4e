-- Vendors that collect their orders from the library (README, "Sending orders and fetching
-- files"): their interchanges wait in out/ of their SFTP account on Carrel's door rather than being
-- uploaded to their server. An interchange waiting for collection is prepared with pickup set, and
-- marked sent once the vendor has read all of it; an order is still in one interchange at most.
alter table vendor_edi add column orders_pickup boolean not null default false;
alter table edi_interchanges add column pickup boolean not null default false;
create index edi_interchanges_pickup on edi_interchanges (vendor_id, id) where pickup and status = 'prepared';
