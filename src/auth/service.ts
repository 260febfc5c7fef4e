// API keys and OAuth 2 client-credentials tokens.
import crypto from 'node:crypto';
import { ChangeNotices } from '../db/change-notices.ts';
import type { Db } from '../db/types.ts';
import { fail } from '../shared/errors.ts';
import type { LoginLimiter, LoginReport } from './logins.ts';
import * as repo from './repository.ts';
import { isRole, permissionsOf, ROLES, type Permission } from './roles.ts';
import { hashSecret, randomKeyId, randomToken, tokenHash, verifySecret } from './secrets.ts';
import { TokenCache } from './token-cache.ts';

export interface NewKey {
  id: string;
  key: string;
  secret: string;
  name: string;
  roles: string[];
  /** Requests per minute: null, the server's default; 0, unlimited. */
  rateLimit: number | null;
}

export interface KeySummary {
  key: string;
  name: string;
  roles: string[];
  rateLimit: number | null;
  createdDate: Date;
  revokedDate: Date | null;
}

export interface IssuedToken {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
}

export interface Principal {
  /** The public key id (never the secret). */
  keyId: string;
  /** The key's row (rate counts are kept by it). */
  keyRowId: string;
  /** Requests per minute: null, the server's default; 0, unlimited. */
  rateLimit: number | null;
  roles: string[];
  permissions: Set<Permission>;
  expiresDate: Date;
}

/** Keys and secrets proven right that this process remembers (the oldest forgotten first). */
const REMEMBERED_SECRETS = 10_000;

/** A principal from a key and secret sent with the call itself lasts as long as the key. */
const NO_EXPIRY = new Date(8.64e15);

function principalOf(row: { key: string; id: string; rate_limit: number | null; roles: string[] }, expiresDate: Date): Principal {
  return {
    keyId: row.key,
    keyRowId: row.id,
    rateLimit: row.rate_limit,
    roles: row.roles,
    permissions: permissionsOf(row.roles),
    expiresDate,
  };
}

function checkRateLimit(rateLimit: number | null): void {
  if (rateLimit !== null && (!Number.isSafeInteger(rateLimit) || rateLimit < 0)) {
    throw fail.invalidParameter('a rate limit is a whole number of requests per minute (0: unlimited)');
  }
}

export class AuthService {
  /** Present in a server with CARREL_TOKEN_CACHE_MS > 0 on an engine that delivers revocations to it. */
  private readonly cache: TokenCache | undefined;
  /** The cache is used only while this process hears revocations. */
  private readonly revocations: ChangeNotices;
  /** For authenticateKey: sha256(key NUL secret), as base64, to the secret_hash it was proven against. */
  private readonly provenSecrets = new Map<string, string>();

  constructor(
    private readonly db: Db,
    private readonly tokenLifetimeSec: number,
    tokenCacheMs = 0,
    /** Limits on failed token requests per address and per key (the domain always gives them; a test building the service alone may not). */
    private readonly logins?: LoginLimiter,
  ) {
    this.cache = tokenCacheMs > 0 && db.listen ? new TokenCache(tokenCacheMs) : undefined;
    this.revocations = new ChangeNotices(db, repo.REVOCATIONS, () => this.cache?.clear());
  }

  async createKey(name: string, roles: string[], rateLimit: number | null = null): Promise<NewKey> {
    checkRateLimit(rateLimit);
    const trimmed = name.trim();
    if (!trimmed) throw fail.invalidParameter('a key needs a name');
    if (roles.length === 0) throw fail.invalidParameter(`a key needs at least one role (${Object.keys(ROLES).join(', ')})`);
    const unknown = roles.filter((role) => !isRole(role));
    if (unknown.length > 0) {
      throw fail.invalidParameter(`unknown role ${unknown.join(', ')}; roles are ${Object.keys(ROLES).join(', ')}`);
    }
    const key = randomKeyId(18);
    const secret = randomToken(24);
    const row = await repo.insertKey(this.db, key, trimmed, await hashSecret(secret), [...new Set(roles)], rateLimit);
    return { id: row.id, key, secret, name: row.name, roles: row.roles, rateLimit: row.rate_limit };
  }

  async listKeys(): Promise<KeySummary[]> {
    return (await repo.listKeys(this.db)).map((row) => ({
      key: row.key,
      name: row.name,
      roles: row.roles,
      rateLimit: row.rate_limit,
      createdDate: row.created_date,
      revokedDate: row.revoked_date,
    }));
  }

  /** Sets a key's requests per minute (null: the server's default, 0: unlimited); false when no active key has that id. */
  async setRateLimit(key: string, rateLimit: number | null): Promise<boolean> {
    checkRateLimit(rateLimit);
    const changed = await repo.setRateLimit(this.db, key, rateLimit);
    this.revocations.changed();
    return changed;
  }

  async revokeKey(key: string): Promise<boolean> {
    const revoked = await repo.revokeKey(this.db, key);
    this.revocations.changed();
    return revoked;
  }

  /**
   * POST /token: a key and its secret in, a bearer token out. Failures are limited per client
   * address and per key (logins.ts): over a limit, tooManyAttempts without checking the secret.
   */
  async issueToken(
    { key, secret }: { key: string; secret: string },
    address?: string,
    report?: (r: LoginReport) => void,
  ): Promise<IssuedToken> {
    const row = await this.checkSecret(key, secret, address, report);
    const token = randomToken(32);
    await repo.deleteExpiredTokens(this.db);
    await repo.insertToken(this.db, tokenHash(token), row.id, this.tokenLifetimeSec);
    return { access_token: token, token_type: 'bearer', expires_in: this.tokenLifetimeSec };
  }

  /** Every protected call: a bearer token in, the key's principal out. */
  async authenticate(token: string): Promise<Principal> {
    const hash = tokenHash(token);
    const cached = this.cachedByHash(hash);
    if (cached) return cached;
    const generation = this.revocations.mark();
    const row = await repo.findLiveToken(this.db, hash);
    if (!row) throw fail.invalidToken('the access token is invalid, expired or revoked');
    return this.remember(hash, principalOf({ ...row, id: row.key_id }, row.expires_date), generation);
  }

  /** The principal of a token this process has checked lately, without a round trip; else undefined (then authenticate). */
  cached(token: string): Principal | undefined {
    return this.cachedByHash(tokenHash(token));
  }

  private cachedByHash(hash: Buffer): Principal | undefined {
    return this.cache && this.revocations.listening() ? this.cache.get(hash) : undefined;
  }

  /**
   * A key and its secret sent with every call (SOAP's WS-Security UsernameToken or HTTP Basic) in,
   * the key's principal out. The first check of a pair is issueToken's: scrypt, within the same
   * limits on failed logins per address and per key. scrypt takes tens of milliseconds, too long
   * for every call of a client that sends its secret each time, so a pair proven right is
   * remembered as the SHA-256 of key and secret (never the secret) with the key's secret_hash at
   * that moment; a later call reads the key's row and is taken when its secret_hash is still that
   * one. A revoked key has no active row and a changed secret a new hash, so either takes effect
   * on the next call. While this process hears revocations, the token cache answers without the
   * read, as it does for bearer tokens (keyed by that SHA-256: a token, which holds no NUL, never
   * hashes to a key's).
   */
  async authenticateKey(key: string, secret: string, address?: string, report?: (r: LoginReport) => void): Promise<Principal> {
    const proof = crypto.createHash('sha256').update(`${key}\0${secret}`).digest();
    const remembered = this.provenSecrets.get(proof.toString('base64'));
    if (remembered !== undefined) {
      const cached = this.cache && this.revocations.listening() ? this.cache.get(proof) : undefined;
      if (cached) return cached;
      const generation = this.revocations.mark();
      const row = await repo.findActiveKey(this.db, key);
      if (row && row.secret_hash === remembered) return this.remember(proof, principalOf(row, NO_EXPIRY), generation);
      this.provenSecrets.delete(proof.toString('base64'));
    }
    const generation = this.revocations.mark();
    const row = await this.checkSecret(key, secret, address, report);
    if (this.provenSecrets.size >= REMEMBERED_SECRETS) this.provenSecrets.delete(this.provenSecrets.keys().next().value!);
    this.provenSecrets.set(proof.toString('base64'), row.secret_hash);
    return this.remember(proof, principalOf(row, NO_EXPIRY), generation);
  }

  /** The key's row when the secret is its own (scrypt, within the limits on failed logins); else unauthenticated. */
  private async checkSecret(key: string, secret: string, address: string | undefined, report?: (r: LoginReport) => void) {
    // Always hash, also for an unknown key, so the time taken does not tell which keys exist.
    const check = async () => {
      const row = await repo.findActiveKey(this.db, key);
      const ok = await verifySecret(secret, row?.secret_hash);
      return ok && row ? row : undefined;
    };
    const row = this.logins ? await this.logins.attempt(address, key, check, report) : await check();
    if (!row) throw fail.unauthenticated('invalid client credentials');
    return row;
  }

  /** Keeps a principal in the token cache (when there is one and this process hears revocations). */
  private remember(hash: Buffer, principal: Principal, generation: number): Principal {
    if (this.cache && this.revocations.listening() && this.revocations.fresh(generation)) this.cache.set(hash, principal);
    return principal;
  }
}
