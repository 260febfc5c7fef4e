// SFTP accounts: who may log in to the SFTP door, with a random password shown once and kept as an
// scrypt hash (as SIP2 accounts' are), or an OpenSSH public key; failed logins, by password or by
// a key's signature, are limited per client address and per account name as token requests are
// (src/auth/logins.ts).
import ssh2 from 'ssh2';
import type { LoginLimiter } from '../auth/logins.ts';
import { hashSecret, randomToken, verifySecret } from '../auth/secrets.ts';
import type { Db } from '../db/types.ts';
import type { LoadSettings } from '../files/index.ts';
import { fail } from '../shared/errors.ts';
import type { SecretBox } from '../shared/secret-box.ts';
import { selfSignedCertificate } from '../shared/self-signed.ts';
import { ed25519KeyPair } from './key-pair.ts';
import * as repo from './repository.ts';

export interface SftpAccount {
  name: string;
  vendor: string | null;
  publicKey: boolean;
  items: boolean;
  createMissing: boolean;
  created: string;
  revoked: string | null;
}

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const VENDOR = /^[\x21-\x7e]{1,64}$/;
/** What the server's private host key is sealed for (SecretBox): it opens as nothing else. */
const HOST_KEY_PURPOSE = 'sftp-host-key:ssh-ed25519';
/** The FTP door's certificate and key, kept beside the host key (as one sealed JSON value) and sealed for this. */
const FTPS_CERT = 'ftps-ecdsa-p256';
const FTPS_CERT_PURPOSE = `ftps-certificate:${FTPS_CERT}`;

const present = (row: repo.SftpAccountRow): SftpAccount => ({
  name: row.name,
  vendor: row.vendor,
  publicKey: row.public_key !== null,
  items: row.load_items,
  createMissing: row.create_missing,
  created: row.created_date.toISOString(),
  revoked: row.revoked_date?.toISOString() ?? null,
});

/** An OpenSSH public key line (`ssh-ed25519 AAAA… comment`), checked and kept without its comment. */
function publicKeyLine(text: string): string {
  const parsed = ssh2.utils.parseKey(text.trim());
  if (parsed instanceof Error || parsed.isPrivateKey())
    throw fail.invalidInput(`--public-key: not an OpenSSH public key (${parsed instanceof Error ? parsed.message : 'a private key'})`);
  return `${parsed.type} ${parsed.getPublicSSH().toString('base64')}`;
}

export class SftpAccountService {
  constructor(
    private readonly db: Db,
    private readonly logins: LoginLimiter,
    /** Seals the host key's private half in the database (src/shared/secret-box.ts). */
    private readonly box: SecretBox,
  ) {}

  async create(
    name: string,
    o: { vendor?: string; publicKey?: string; items?: boolean; createMissing?: boolean } = {},
  ): Promise<{ name: string; password: string }> {
    if (!NAME.test(name))
      throw fail.invalidInput(`an SFTP account's name is 1 to 64 letters, digits, '_', '.' or '-'; got ${JSON.stringify(name)}`);
    if (o.vendor !== undefined && !VENDOR.test(o.vendor)) throw fail.invalidInput('--vendor is 1 to 64 printable characters, no spaces');
    const password = randomToken(18).replace(/[-_]/g, 'x');
    const created = await repo.insertAccount(this.db, {
      name,
      password_hash: await hashSecret(password),
      public_key: o.publicKey === undefined ? null : publicKeyLine(o.publicKey),
      vendor: o.vendor ?? null,
      load_items: o.items ?? true,
      create_missing: o.createMissing ?? false,
    });
    if (!created) throw fail.conflict(0, `an SFTP account named ${name} already exists`);
    return { name, password };
  }

  async list(): Promise<SftpAccount[]> {
    return (await repo.listAccounts(this.db)).map(present);
  }

  async revoke(name: string): Promise<void> {
    if (!(await repo.revokeAccount(this.db, name)))
      throw fail.notFound(`no SFTP account still allowed in is named ${JSON.stringify(name)}`);
  }

  /** Of these account names, those still allowed in (the door ends the sessions of the others). */
  active(names: string[]): Promise<Set<string>> {
    return repo.activeNames(this.db, names);
  }

  /** The vendor an account is tied to (--vendor), if any. */
  async vendorOf(name: string): Promise<string | null> {
    const [row] = await repo.findActiveAccount(this.db, name);
    return row?.vendor ?? null;
  }

  /** The accounts allowed in that are tied to a vendor: those that may collect its orders. */
  forVendor(code: string): Promise<string[]> {
    return repo.activeForVendor(this.db, code);
  }

  /** How the account's MARC files load; an account gone loads with the defaults. */
  async loadSettings(name: string): Promise<LoadSettings> {
    const [row] = await repo.findAccount(this.db, name);
    return { items: row?.load_items ?? true, createMissing: row?.create_missing ?? false };
  }

  /**
   * True when the name and password match an account allowed in (the same work either way). Over
   * a limit of failures, or when the bound on scrypt work is full: tooManyAttempts, unchecked.
   */
  async passwordLogin(name: string, password: string, address?: string): Promise<boolean> {
    const ok = await this.logins.attempt(address, name, async () => {
      const [row] = await repo.findActiveAccount(this.db, name);
      return (await verifySecret(password, row?.password_hash)) && row ? true : undefined;
    });
    return ok === true;
  }

  /**
   * True when the account is allowed in and its public key is this one (algorithm and key bytes):
   * the client only asks whether the key would do, proving nothing, so a wrong key is not counted
   * (OpenSSH offers each key it holds this way); an address or account over its limit of failed
   * logins is refused all the same (tooManyAttempts).
   */
  async publicKeyWouldDo(name: string, key: { algo: string; data: Buffer }, address?: string): Promise<boolean> {
    await this.logins.refuseIfOver(address, name);
    return (await this.publicKeyOf(name, key)) !== undefined;
  }

  /**
   * True when the account is allowed in, its public key is this one and the signature verifies
   * with it. A signed attempt that fails counts as a failed login, per address and per account,
   * as a wrong password does; over a limit: tooManyAttempts, unchecked.
   */
  async publicKeyLogin(
    name: string,
    key: { algo: string; data: Buffer; blob: Buffer; signature: Buffer; hashAlgo?: string },
    address?: string,
  ): Promise<boolean> {
    const ok = await this.logins.attempt(
      address,
      name,
      async () => ((await this.publicKeyOf(name, key))?.verify(key.blob, key.signature, key.hashAlgo) ? true : undefined),
      undefined,
      { scrypt: false },
    );
    return ok === true;
  }

  /** The account's public key when the account is allowed in and its key is this one. */
  private async publicKeyOf(name: string, key: { algo: string; data: Buffer }): Promise<ssh2.ParsedKey | undefined> {
    const [row] = await repo.findActiveAccount(this.db, name);
    if (!row?.public_key) return undefined;
    const parsed = ssh2.utils.parseKey(row.public_key);
    if (parsed instanceof Error || parsed.type !== key.algo || !parsed.getPublicSSH().equals(key.data)) return undefined;
    return parsed;
  }

  /**
   * The door's host key (OpenSSH private key text): made once, by the first server to open the
   * door, and kept in the database, sealed, so that every server of the library shows the same key
   * and a restart never changes it, while a copy of the database alone does not give it away.
   */
  async hostKey(): Promise<string> {
    const kept = (await repo.hostKey(this.db, 'ssh-ed25519')) ?? (await this.makeHostKey());
    try {
      return this.box.open(kept, HOST_KEY_PURPOSE);
    } catch {
      throw new Error('the SFTP host key in the database was sealed with another key: give every server the same CARREL_SECRETS_KEY');
    }
  }

  /**
   * The FTP door's TLS certificate and key when it is given none: made once, self-signed, and kept
   * in the database as the host key is, so every server shows the same certificate and clients
   * that pinned it are never asked again.
   */
  async ftpsCertificate(): Promise<{ cert: string; key: string }> {
    const kept =
      (await repo.hostKey(this.db, FTPS_CERT)) ??
      (await repo.keepHostKey(this.db, FTPS_CERT, this.box.seal(JSON.stringify(selfSignedCertificate('carrel-ftps')), FTPS_CERT_PURPOSE)));
    try {
      return JSON.parse(this.box.open(kept, FTPS_CERT_PURPOSE)) as { cert: string; key: string };
    } catch {
      throw new Error('the FTPS certificate in the database was sealed with another key: give every server the same CARREL_SECRETS_KEY');
    }
  }

  private makeHostKey(): Promise<string> {
    const made = ed25519KeyPair();
    return repo.keepHostKey(this.db, 'ssh-ed25519', this.box.seal(made.private, HOST_KEY_PURPOSE));
  }
}
