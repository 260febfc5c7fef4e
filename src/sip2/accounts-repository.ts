// SQL for SIP2 accounts (table sip_accounts).
import type { Queryable } from '../db/types.ts';

export interface SipAccountRow {
  name: string;
  password_hash: string;
  institution: string;
  location: string | null;
  /** own: its institution's patrons only; all: every patron. */
  patrons: 'own' | 'all';
  created_date: Date;
}

export async function insertAccount(db: Queryable, row: Omit<SipAccountRow, 'created_date'>): Promise<boolean> {
  const rows = await db.query(
    `insert into sip_accounts (name, password_hash, institution, location, patrons) values ($1, $2, $3, $4, $5)
     on conflict (name) do nothing returning name`,
    [row.name, row.password_hash, row.institution, row.location, row.patrons],
  );
  return rows.length > 0;
}

export function findAccount(db: Queryable, name: string): Promise<SipAccountRow[]> {
  return db.query<SipAccountRow>('select * from sip_accounts where name = $1', [name]);
}

export function listAccounts(db: Queryable): Promise<SipAccountRow[]> {
  return db.query<SipAccountRow>('select * from sip_accounts order by name');
}

export async function deleteAccount(db: Queryable, name: string): Promise<boolean> {
  return (await db.query('delete from sip_accounts where name = $1 returning name', [name])).length > 0;
}

export async function setPatrons(db: Queryable, name: string, patrons: SipAccountRow['patrons']): Promise<boolean> {
  return (await db.query('update sip_accounts set patrons = $2 where name = $1 returning name', [name, patrons])).length > 0;
}
