// SQL for SFTP accounts (table sftp_accounts) and the door's host key (sftp_host_keys).
import type { Queryable } from '../db/types.ts';

export interface SftpAccountRow {
  name: string;
  password_hash: string;
  public_key: string | null;
  vendor: string | null;
  load_items: boolean;
  create_missing: boolean;
  created_date: Date;
  revoked_date: Date | null;
}

export async function insertAccount(db: Queryable, row: Omit<SftpAccountRow, 'created_date' | 'revoked_date'>): Promise<boolean> {
  const rows = await db.query(
    `insert into sftp_accounts (name, password_hash, public_key, vendor, load_items, create_missing) values ($1, $2, $3, $4, $5, $6)
     on conflict (name) do nothing returning name`,
    [row.name, row.password_hash, row.public_key, row.vendor, row.load_items, row.create_missing],
  );
  return rows.length > 0;
}

/** The account if it may log in (not revoked). */
export function findActiveAccount(db: Queryable, name: string): Promise<SftpAccountRow[]> {
  return db.query<SftpAccountRow>('select * from sftp_accounts where name = $1 and revoked_date is null', [name]);
}

export function findAccount(db: Queryable, name: string): Promise<SftpAccountRow[]> {
  return db.query<SftpAccountRow>('select * from sftp_accounts where name = $1', [name]);
}

export function listAccounts(db: Queryable): Promise<SftpAccountRow[]> {
  return db.query<SftpAccountRow>('select * from sftp_accounts order by name');
}

export async function revokeAccount(db: Queryable, name: string): Promise<boolean> {
  const rows = await db.query('update sftp_accounts set revoked_date = now() where name = $1 and revoked_date is null returning name', [
    name,
  ]);
  return rows.length > 0;
}

/** Of these names, the accounts still allowed in. */
export async function activeNames(db: Queryable, names: string[]): Promise<Set<string>> {
  const rows = await db.query<{ name: string }>('select name from sftp_accounts where name = any($1::text[]) and revoked_date is null', [
    names,
  ]);
  return new Set(rows.map((r) => r.name));
}

/** The names of the accounts allowed in that are tied to this vendor. */
export async function activeForVendor(db: Queryable, vendor: string): Promise<string[]> {
  const rows = await db.query<{ name: string }>('select name from sftp_accounts where vendor = $1 and revoked_date is null order by name', [
    vendor,
  ]);
  return rows.map((r) => r.name);
}

/** The host key: the one kept, or this one kept when there was none (the first server to ask wins). */
export async function keepHostKey(db: Queryable, algorithm: string, privateKey: string): Promise<string> {
  await db.query('insert into sftp_host_keys (algorithm, private_key) values ($1, $2) on conflict (algorithm) do nothing', [
    algorithm,
    privateKey,
  ]);
  const [row] = await db.query<{ private_key: string }>('select private_key from sftp_host_keys where algorithm = $1', [algorithm]);
  return row!.private_key;
}

export async function hostKey(db: Queryable, algorithm: string): Promise<string | undefined> {
  const [row] = await db.query<{ private_key: string }>('select private_key from sftp_host_keys where algorithm = $1', [algorithm]);
  return row?.private_key;
}
