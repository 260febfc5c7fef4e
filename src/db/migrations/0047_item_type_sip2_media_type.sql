-- SIP2's media type (CK) of each item type, as the library profile gives it (`sip2MediaType` on an
-- item type): self-check kiosks read it in Checkout, Checkin, Renew and Item Information answers to
-- handle discs and cassettes apart from books (3M SIP2 2.00: 000 other, 001 book, 002 magazine,
-- 003 bound journal, 004 audio tape, 005 video tape, 006 CD/CDROM, 007 diskette, 008 book with
-- diskette, 009 book with CD, 010 book with audio tape). Null: none is sent.
alter table item_types add column sip2_media_type text check (sip2_media_type ~ '^[0-9]{3}$');

-- The starter profile's types (profiles/starter.yaml gives them the same), where a library has not
-- renamed them into something else.
update item_types t set sip2_media_type = m.media
  from (values ('book', 'Book', '001'), ('serial', 'Serial', '002'), ('audiobook', 'Audiobook', '006'),
               ('music', 'Music recording', '006'), ('dvd', 'DVD', '006'), ('score', 'Score', '001'),
               ('map', 'Map', '000'), ('software', 'Software', '006'), ('kit', 'Kit', '000'),
               ('picture', 'Picture', '000'), ('archive', 'Archival material', '000'),
               ('manuscript', 'Manuscript', '000'), ('media', 'Media', '000')) m (code, name, media)
  where t.code = m.code and t.name = m.name;
