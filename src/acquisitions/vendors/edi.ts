// Rules for a vendor's EDI identity (the party identifiers it writes in an interchange, the
// library's own identifier as this vendor knows it) and for Carrel reaching the vendor's server
// (address, login, folders, the SFTP host key expected). The password is sealed at rest and never
// answered or printed.
import { stamp } from '../../db/change-clock.ts';
import type { Db } from '../../db/types.ts';
import { fail } from '../../shared/errors.ts';
import type { SecretBox } from '../../shared/secret-box.ts';
import { refuse } from '../refusals.ts';
import * as repo from './edi-repository.ts';

/** EDIFACT code list 3055 as the book trade uses it: SAN, GLN, or an identifier the supplier (91) or buyer (92) assigned. */
export const QUALIFIERS = ['31B', '14', '91', '92'] as const;
export type Qualifier = (typeof QUALIFIERS)[number];
export const PROTOCOLS = ['sftp', 'ftp', 'ftps'] as const;
export type Protocol = (typeof PROTOCOLS)[number];
const DEFAULT_PORT: Record<Protocol, number> = { sftp: 22, ftp: 21, ftps: 21 };
/** What a vendor's password is sealed for: its vendor's row, so it opens nowhere else. */
const passwordPurpose = (vendorId: string) => `vendor-edi-password:${vendorId}`;

export interface PartyId {
  qualifier: Qualifier;
  id: string;
}

export interface ConnectionInput {
  protocol: Protocol;
  host: string;
  port?: number;
  user: string;
  /** Absent: the password already kept stays. */
  password?: string;
  ordersFolder?: string;
  filesFolder?: string;
  /**
   * The SFTP server's host key fingerprint (SHA256:…, as `ssh-keygen -lf` prints it). Absent: the
   * one kept stays while the server is the same; null: forgotten, the next connection records it.
   */
  hostKey?: string | null;
}

export interface VendorEdiInput {
  /** Replaces the vendor's list. */
  partyIds?: PartyId[];
  libraryPartyId?: PartyId | null;
  connection?: ConnectionInput | null;
  ordersPickup?: boolean;
}

export interface Connection {
  protocol: Protocol;
  host: string;
  port: number;
  user: string;
  passwordSet: boolean;
  ordersFolder: string;
  filesFolder: string;
  /** The SFTP host key expected; null: the next connection records the one offered. */
  hostKey: string | null;
}

export interface VendorEdi {
  partyIds: PartyId[];
  libraryPartyId: PartyId | null;
  connection: Connection | null;
  /**
   * The vendor collects its orders from out/ of its SFTP account on Carrel's door; otherwise
   * Carrel uploads them to the vendor's server (or keeps them, when none is set).
   */
  ordersPickup: boolean;
}

/** A SAN's check character: weights 7 to 2 over its six digits, modulus 11 (10 is X). */
function sanCheck(digits: string): string {
  const sum = [...digits].reduce((total, d, i) => total + Number(d) * (7 - i), 0);
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'X' : String(check);
}

/** A GLN's check digit: GS1's modulus 10, weights 3 and 1 from the right. */
function glnCheck(digits: string): string {
  const sum = [...digits].reverse().reduce((total, d, i) => total + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
  return String((10 - (sum % 10)) % 10);
}

/** An identifier as kept: SANs and GLNs without the spaces and hyphens people write in them; refused naming `at`. */
export function parsePartyId(at: string, raw: { qualifier?: unknown; id?: unknown }): PartyId {
  const qualifier = raw.qualifier;
  if (typeof qualifier !== 'string' || !(QUALIFIERS as readonly string[]).includes(qualifier))
    throw fail.invalidInput(`${at}.qualifier: must be one of ${QUALIFIERS.join(', ')} (31B SAN, 14 GLN, 91/92 assigned)`);
  if (typeof raw.id !== 'string') throw fail.invalidInput(`${at}.id: must be text`);
  const q = qualifier as Qualifier;
  if (q === '31B' || q === '14') {
    const id = raw.id.replace(/[\s-]/g, '').toUpperCase();
    const ok =
      q === '31B'
        ? /^\d{6}[\dX]$/.test(id) && sanCheck(id.slice(0, 6)) === id[6]
        : /^\d{13}$/.test(id) && glnCheck(id.slice(0, 12)) === id[12];
    if (!ok)
      throw fail.invalidInput(
        `${at}.id: "${raw.id}" is not a ${q === '31B' ? 'SAN (7 characters, a valid check character)' : 'GLN (13 digits, a valid check digit)'}`,
      );
    return { qualifier: q, id };
  }
  const id = raw.id.trim();
  if (!/^[A-Za-z0-9 -]{1,35}$/.test(id)) throw fail.invalidInput(`${at}.id: 1 to 35 letters, digits, spaces or hyphens`);
  return { qualifier: q, id };
}

function text(at: string, raw: unknown, max: number, optional = false): string {
  if (optional && (raw === undefined || raw === null || raw === '')) return '';
  if (typeof raw !== 'string' || !raw.trim() || raw.length > max) throw fail.invalidInput(`${at}: 1 to ${max} characters`);
  return raw.trim();
}

/** A remote folder: a plain path, no way up out of it. */
function folder(at: string, raw: unknown): string {
  const value = text(at, raw, 500, true);
  if (value.split('/').some((part) => part === '..') || /[\0\r\n]/.test(value))
    throw fail.invalidInput(`${at}: a folder path without ".." or control characters`);
  return value;
}

const FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}$/;

/** A host key fingerprint as OpenSSH prints it; its base64 padding, if copied, dropped. */
export function parseHostKey(at: string, raw: unknown): string {
  const trimmed = typeof raw === 'string' ? raw.trim() : '';
  // The base64 of 32 bytes ends with one padding character, which OpenSSH leaves out.
  const value = trimmed.endsWith('=') ? trimmed.slice(0, -1) : trimmed;
  if (!FINGERPRINT.test(value))
    throw fail.invalidInput(`${at}: a host key fingerprint as ssh-keygen -lf prints it, SHA256: and 43 base64 characters`);
  return value;
}

function host(raw: unknown): string {
  const value = text('connection.host', raw, 253);
  if (!/^[A-Za-z0-9.:-]+$/.test(value)) throw fail.invalidInput('connection.host: a host name or an address');
  return value;
}

export class VendorEdiService {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
  ) {}

  async get(vendorId: string): Promise<VendorEdi> {
    const [ids, row] = await Promise.all([repo.partyIds(this.db, vendorId), repo.vendorEdi(this.db, vendorId)]);
    return present(ids, row);
  }

  /** Changes what the input names, in one transaction; answers the whole of it as kept. */
  async set(vendorId: string, input: VendorEdiInput): Promise<VendorEdi> {
    if (input.ordersPickup !== undefined && typeof input.ordersPickup !== 'boolean') throw fail.invalidInput('ordersPickup: true or false');
    const partyIds = input.partyIds?.map((p, i) => parsePartyId(`partyIds[${i}]`, p));
    const seen = new Set<string>();
    for (const [i, p] of (partyIds ?? []).entries()) {
      if (seen.has(p.id)) throw fail.invalidInput(`partyIds[${i}].id: ${p.id} is given twice`);
      seen.add(p.id);
    }
    const library = input.libraryPartyId ? parsePartyId('libraryPartyId', input.libraryPartyId) : input.libraryPartyId;
    const c = input.connection;
    let connection:
      Omit<repo.VendorEdiRow, 'updated_date' | 'library_party_id' | 'library_party_qualifier' | 'orders_pickup'> | null | undefined;
    if (c === null) connection = null;
    else if (c !== undefined) {
      if (!(PROTOCOLS as readonly string[]).includes(c.protocol))
        throw fail.invalidInput(`connection.protocol: one of ${PROTOCOLS.join(', ')}`);
      if (c.port !== undefined && (!Number.isInteger(c.port) || c.port < 1 || c.port > 65535))
        throw fail.invalidInput('connection.port: a port number from 1 to 65535');
      if (c.password !== undefined && (typeof c.password !== 'string' || !c.password || c.password.length > 1000))
        throw fail.invalidInput('connection.password: 1 to 1000 characters');
      if (c.hostKey && c.protocol !== 'sftp') throw fail.invalidInput('connection.hostKey: only an SFTP server has a host key to check');
      connection = {
        protocol: c.protocol,
        host: host(c.host),
        port: c.port ?? DEFAULT_PORT[c.protocol],
        username: text('connection.user', c.user, 200),
        password_sealed: c.password === undefined ? null : this.box.seal(c.password, passwordPurpose(vendorId)),
        orders_folder: folder('connection.ordersFolder', c.ordersFolder) || null,
        files_folder: folder('connection.filesFolder', c.filesFolder) || null,
        host_key: c.hostKey ? parseHostKey('connection.hostKey', c.hostKey) : null,
      };
    }
    await this.db.transaction(async (tx) => {
      if (partyIds) {
        const taken = await repo.partyIdsHeldElsewhere(
          tx,
          vendorId,
          partyIds.map((p) => p.id),
        );
        if (taken[0]) throw refuse.partyIdTaken(taken[0].party_id, taken[0].code);
        await repo.replacePartyIds(tx, vendorId, partyIds);
      }
      if (library === undefined && connection === undefined && input.ordersPickup === undefined) return;
      const now = await repo.vendorEdi(tx, vendorId);
      // A password given for one server and login is never sent to another: changing any of them
      // without a new password forgets the one kept. A host key belongs to the server (address and
      // port): another server's key is not expected of it.
      const sameHost =
        !!connection && !!now && now.protocol === connection.protocol && now.host === connection.host && now.port === connection.port;
      const sameServer = sameHost && now?.username === connection?.username;
      const keptPassword = connection && !connection.password_sealed && sameServer ? (now?.password_sealed ?? null) : null;
      const keptHostKey = c?.hostKey === undefined && sameHost ? (now?.host_key ?? null) : null;
      await repo.upsertVendorEdi(
        tx,
        vendorId,
        {
          library_party_id: library === undefined ? (now?.library_party_id ?? null) : (library?.id ?? null),
          library_party_qualifier: library === undefined ? (now?.library_party_qualifier ?? null) : (library?.qualifier ?? null),
          orders_pickup: input.ordersPickup ?? now?.orders_pickup ?? false,
          ...(connection === undefined
            ? {
                protocol: now?.protocol ?? null,
                host: now?.host ?? null,
                port: now?.port ?? null,
                username: now?.username ?? null,
                password_sealed: now?.password_sealed ?? null,
                orders_folder: now?.orders_folder ?? null,
                files_folder: now?.files_folder ?? null,
                host_key: now?.host_key ?? null,
              }
            : connection === null
              ? {
                  protocol: null,
                  host: null,
                  port: null,
                  username: null,
                  password_sealed: null,
                  orders_folder: null,
                  files_folder: null,
                  host_key: null,
                }
              : {
                  ...connection,
                  password_sealed: connection.password_sealed ?? keptPassword,
                  host_key: connection.host_key ?? keptHostKey,
                }),
        },
        await stamp(tx),
      );
    });
    return this.get(vendorId);
  }

  /** The vendor an interchange's party identifier names (or whose code it is). */
  findByParty(id: string): Promise<{ id: string; code: string } | undefined> {
    const trimmed = id.trim();
    if (!trimmed || trimmed.length > 35) return Promise.resolve(undefined);
    return repo.vendorByParty(this.db, /^[\d\s-]+X?$/i.test(trimmed) ? trimmed.replace(/[\s-]/g, '').toUpperCase() : trimmed);
  }

  /**
   * Records the host key an SFTP server offered on the first connection (when none was expected),
   * as OpenSSH's accept-new does; a key set or recorded meanwhile, or a server changed, is kept.
   */
  async recordHostKey(vendorId: string, server: { protocol: string; host: string; port: number }, hostKey: string): Promise<boolean> {
    const key = parseHostKey('hostKey', hostKey);
    return this.db.transaction(async (tx) => repo.recordHostKey(tx, vendorId, server, key, await stamp(tx)));
  }

  /** The connection with its password opened, for Carrel as the vendor server's client; undefined when none is set. */
  async connectionWithPassword(vendorId: string): Promise<(Connection & { password: string | undefined }) | undefined> {
    const row = await repo.vendorEdi(this.db, vendorId);
    const connection = row && present([], row).connection;
    if (!connection) return undefined;
    return { ...connection, password: row.password_sealed ? this.box.open(row.password_sealed, passwordPurpose(vendorId)) : undefined };
  }
}

function present(ids: repo.PartyIdRow[], row: repo.VendorEdiRow | undefined): VendorEdi {
  return {
    partyIds: ids.map((p) => ({ qualifier: p.qualifier as Qualifier, id: p.party_id })),
    libraryPartyId:
      row?.library_party_id && row.library_party_qualifier
        ? { qualifier: row.library_party_qualifier as Qualifier, id: row.library_party_id }
        : null,
    connection:
      row?.protocol && row.host
        ? {
            protocol: row.protocol as Protocol,
            host: row.host,
            port: row.port ?? DEFAULT_PORT[row.protocol as Protocol],
            user: row.username ?? '',
            passwordSet: row.password_sealed !== null,
            ordersFolder: row.orders_folder ?? '',
            filesFolder: row.files_folder ?? '',
            hostKey: row.host_key,
          }
        : null,
    ordersPickup: row?.orders_pickup ?? false,
  };
}
