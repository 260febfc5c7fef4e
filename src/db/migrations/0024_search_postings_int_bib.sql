-- A posting names its bib in 4 bytes, not 8: postings are most of the index (about 90 a bib), and
-- an 8-byte id after the 4-byte key id cost each row 4 bytes of padding as well, so each heap row
-- shrinks from 48 bytes to 40 and each entry of the key index from 32 to 24. Bib ids come only from
-- bib_ids, which starts at 1,000,001 (Sierra's record numbers); capping it keeps every id in range.
alter sequence bib_ids maxvalue 2147483647;
alter table search_postings alter column bib_id type integer;
