-- Sierra's item fields read from loans (issue 19): an item's fixedFields count its checkouts and
-- give its last checkout and check-in, found through this index rather than every loan there is.
create index checkouts_item on checkouts (item_id, out_date);
