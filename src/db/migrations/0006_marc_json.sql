-- MARC is stored as json (its text, checked) rather than jsonb (a parsed binary form): Carrel
-- reads a record's MARC whole and never queries inside it in SQL, and PostgreSQL takes json in
-- about half the time of jsonb, which is most of the cost of an import.
alter table bibs alter column marc type json using marc::json;
