// SQL for vendors' EDI identity and connection (migrations 0055, 0063).
import type { Queryable } from '../../db/types.ts';

export interface PartyIdRow {
  party_id: string;
  qualifier: string;
}

export interface VendorEdiRow {
  library_party_id: string | null;
  library_party_qualifier: string | null;
  protocol: string | null;
  host: string | null;
  port: number | null;
  username: string | null;
  password_sealed: string | null;
  orders_folder: string | null;
  files_folder: string | null;
  orders_pickup: boolean;
  /** The SFTP server's host key fingerprint expected (SHA256:…). */
  host_key: string | null;
  updated_date: Date;
}

export function partyIds(db: Queryable, vendorId: string): Promise<PartyIdRow[]> {
  return db.query<PartyIdRow>('select party_id, qualifier from vendor_party_ids where vendor_id = $1 order by party_id', [vendorId]);
}

export async function vendorEdi(db: Queryable, vendorId: string): Promise<VendorEdiRow | undefined> {
  return (
    await db.query<VendorEdiRow>(
      `select library_party_id, library_party_qualifier, protocol, host, port, username, password_sealed, orders_folder,
         files_folder, orders_pickup, host_key, updated_date from vendor_edi where vendor_id = $1`,
      [vendorId],
    )
  )[0];
}

/** The vendors other than this one that already hold any of these identifiers. */
export function partyIdsHeldElsewhere(db: Queryable, vendorId: string, ids: string[]): Promise<{ party_id: string; code: string }[]> {
  return db.query<{ party_id: string; code: string }>(
    `select p.party_id, v.code from vendor_party_ids p join vendors v on v.id = p.vendor_id
     where p.party_id = any($1::text[]) and p.vendor_id <> $2 order by p.party_id`,
    [ids, vendorId],
  );
}

export async function replacePartyIds(tx: Queryable, vendorId: string, ids: { id: string; qualifier: string }[]): Promise<void> {
  await tx.query('delete from vendor_party_ids where vendor_id = $1', [vendorId]);
  await tx.query(
    `insert into vendor_party_ids (party_id, qualifier, vendor_id)
     select p.id, p.qualifier, $2 from jsonb_to_recordset($1::jsonb) as p(id text, qualifier text)`,
    [ids, vendorId],
  );
}

export async function upsertVendorEdi(tx: Queryable, vendorId: string, row: Omit<VendorEdiRow, 'updated_date'>, at: Date): Promise<void> {
  await tx.query(
    `insert into vendor_edi (vendor_id, library_party_id, library_party_qualifier, protocol, host, port, username, password_sealed,
       orders_folder, files_folder, orders_pickup, host_key, updated_date)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     on conflict (vendor_id) do update set library_party_id = excluded.library_party_id,
       library_party_qualifier = excluded.library_party_qualifier, protocol = excluded.protocol, host = excluded.host,
       port = excluded.port, username = excluded.username, password_sealed = excluded.password_sealed,
       orders_folder = excluded.orders_folder, files_folder = excluded.files_folder,
       orders_pickup = excluded.orders_pickup, host_key = excluded.host_key, updated_date = excluded.updated_date`,
    [
      vendorId,
      row.library_party_id,
      row.library_party_qualifier,
      row.protocol,
      row.host,
      row.port,
      row.username,
      row.password_sealed,
      row.orders_folder,
      row.files_folder,
      row.orders_pickup,
      row.host_key,
      at,
    ],
  );
}

/**
 * Records the host key a server offered on the first connection, only while none is expected and
 * the vendor still points at that server (a change made meanwhile is not overwritten); true when recorded.
 */
export async function recordHostKey(
  db: Queryable,
  vendorId: string,
  server: { protocol: string; host: string; port: number },
  hostKey: string,
  at: Date,
): Promise<boolean> {
  const rows = await db.query<{ vendor_id: string }>(
    `update vendor_edi set host_key = $5, updated_date = $6
     where vendor_id = $1 and host_key is null and protocol = $2 and host = $3 and port = $4 returning vendor_id::text`,
    [vendorId, server.protocol, server.host, server.port, hostKey, at],
  );
  return rows.length > 0;
}

/** The vendor an identifier names: by its party identifiers, else by its code. */
export async function vendorByParty(db: Queryable, id: string): Promise<{ id: string; code: string } | undefined> {
  return (
    await db.query<{ id: string; code: string }>(
      `select id, code from (
         select v.id::text, v.code, 0 as rank from vendor_party_ids p join vendors v on v.id = p.vendor_id where p.party_id = $1
         union all select v.id::text, v.code, 1 from vendors v where v.code = lower($1)) found
       order by rank limit 1`,
      [id],
    )
  )[0];
}
