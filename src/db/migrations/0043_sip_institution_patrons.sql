-- Patrons belong to institutions (README, "SIP2"): a branch of the library profile may name the
-- SIP2 institution id (AO) it belongs to, and a patron belongs to the institution of its home
-- library's branch. A SIP2 account acts on its own institution's patrons ('own') or on every
-- patron ('all').
alter table branches add column institution text
  check (length(institution) between 1 and 64 and position('|' in institution) = 0);

-- Accounts made before this acted on every patron, and no branch names an institution yet: they
-- keep doing so (scoping them now would make every running kiosk answer "unknown patron" to every
-- card). Accounts made from now on act on their own institution's patrons unless made otherwise.
alter table sip_accounts add column patrons text not null default 'all' check (patrons in ('own', 'all'));
alter table sip_accounts alter column patrons set default 'own';
