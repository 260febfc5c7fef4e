// API keys and OAuth 2 client-credentials tokens.
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

function checkRateLimit(rateLimit: number | null): void {
  if (rateLimit !== null && (!Number.isSafeInteger(rateLimit) || rateLimit < 0)) {
    throw fail.invalidParameter('a rate limit is a whole number of requests per minute (0: unlimited)');
  }
}

export class AuthService {
  /** Present in a server with CARREL_TOKEN_CACHE_MS > 0 on an engine that delivers revocations to it. */
  private readonly cache: TokenCache | undefined;
  /** The cache is used only while this process hears revocations. */
  private listening = false;
  private subscribing: Promise<void> | undefined;
  /** Counts cache clearings, so that a lookup that raced a revocation does not put its answer back. */
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly tokenLifetimeSec: number,
    tokenCacheMs = 0,
    /** Limits on failed token requests per address and per key (the domain always gives them; a test building the service alone may not). */
    private readonly logins?: LoginLimiter,
  ) {
    this.cache = tokenCacheMs > 0 && db.listen ? new TokenCache(tokenCacheMs) : undefined;
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
    this.forget();
    return changed;
  }

  async revokeKey(key: string): Promise<boolean> {
    const revoked = await repo.revokeKey(this.db, key);
    this.forget();
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
    // Always hash, also for an unknown key, so the time taken does not tell which keys exist.
    const check = async () => {
      const row = await repo.findActiveKey(this.db, key);
      const ok = await verifySecret(secret, row?.secret_hash);
      return ok && row ? row : undefined;
    };
    const row = this.logins ? await this.logins.attempt(address, key, check, report) : await check();
    if (!row) throw fail.unauthenticated('invalid client credentials');
    const token = randomToken(32);
    await repo.deleteExpiredTokens(this.db);
    await repo.insertToken(this.db, tokenHash(token), row.id, this.tokenLifetimeSec);
    return { access_token: token, token_type: 'bearer', expires_in: this.tokenLifetimeSec };
  }

  /** Every protected call: a bearer token in, the key's principal out. */
  async authenticate(token: string): Promise<Principal> {
    const hash = tokenHash(token);
    const cached = this.listening ? this.cache?.get(hash) : undefined;
    if (cached) return cached;
    const generation = this.generation;
    const row = await repo.findLiveToken(this.db, hash);
    if (!row) throw fail.invalidToken('the access token is invalid, expired or revoked');
    const principal = {
      keyId: row.key,
      keyRowId: row.key_id,
      rateLimit: row.rate_limit,
      roles: row.roles,
      permissions: permissionsOf(row.roles),
      expiresDate: row.expires_date,
    };
    if (this.cache) {
      this.subscribe();
      if (this.listening && generation === this.generation) this.cache.set(hash, principal);
    }
    return principal;
  }

  /** Starts hearing revocations from other processes (once; tried again on a later call if it fails). */
  private subscribe(): void {
    if (this.subscribing || !this.db.listen) return;
    this.subscribing = this.db
      .listen(
        repo.REVOCATIONS,
        () => this.forget(),
        () => {
          this.forget(); // (re)connected: what was announced meanwhile is lost
          this.listening = true;
        },
      )
      .catch(() => {
        this.subscribing = undefined;
      });
  }

  private forget(): void {
    this.generation++;
    this.cache?.clear();
  }
}
