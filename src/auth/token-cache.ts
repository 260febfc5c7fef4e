// Bearer tokens this process has checked lately, so that a busy server does not ask the database
// about the same token on every call (it was one of three round trips of a patron's holds page).
// Entries are keyed by the token's SHA-256, as the database keys them: the token itself is never
// kept. An entry lives until the earlier of its token's expiry and maxAgeMs, and every entry goes
// when a key is revoked (AuthService drops them: at once for a revocation in this process, on the
// database's notification for one in another process, and whenever that notification channel
// reconnects, since notifications sent while it was down are lost). maxAgeMs bounds how long a
// revocation can go unseen if a notification is lost on a connection that has not dropped yet.
import type { Principal } from './service.ts';

/** Enough for every client of a large library many times over; past it, the oldest entries go first. */
const MAX_ENTRIES = 10_000;

export class TokenCache {
  private readonly entries = new Map<string, { principal: Principal; until: number }>();

  constructor(private readonly maxAgeMs: number) {}

  get(hash: Buffer): Principal | undefined {
    const key = hash.toString('base64');
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (Date.now() < entry.until) return entry.principal;
    this.entries.delete(key);
    return undefined;
  }

  set(hash: Buffer, principal: Principal): void {
    const until = Math.min(Date.now() + this.maxAgeMs, principal.expiresDate.getTime());
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(hash.toString('base64'), { principal, until });
  }

  clear(): void {
    this.entries.clear();
  }
}
