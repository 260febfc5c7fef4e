// Logins with a secret — POST /token's key and secret, a SIP2 kiosk's 93 — limited per client
// address and per account (the API key, the SIP2 account's name), in the database through the same
// counters as PIN validation (attempts.ts), so every server process shares them. Only failures
// count (kiosks behind one address or sharing one account log in together after a restart). Past
// half of a limit each failure's answer is held back a little longer; at the limit the login is
// refused until the window ends, without checking the secret; the right secret clears the
// account's failures, not the address's. Every check also passes the process's
// bound on scrypt work (src/shared/scrypt.ts): asked before the database, so a flood is turned
// away for nothing.
import type { LoginLimits } from '../config.ts';
import { addressKey } from '../shared/client-address.ts';
import { fail } from '../shared/errors.ts';
import { refuseIfScryptFull, ScryptBusy } from '../shared/scrypt.ts';
import { counted, type Counted, type FailedAttempts } from './attempts.ts';

/** Refusals this process remembers at most (the oldest forgotten first): a flood from many addresses stays bounded. */
const REMEMBERED_REFUSALS = 10_000;

/** Secret checks of one client address running at once, and waiting for their turn. */
const CHECKS_PER_ADDRESS = 1;
const WAITING_PER_ADDRESS = 32;

/** How much longer each failure past half a limit is held back, and the most. */
const SLOW_STEP_MS = 250;
const SLOW_MAX_MS = 4000;

/** What became of a login, for the door's log line. */
export interface LoginReport {
  /** ok; failed (a wrong secret or an unknown account); refused (the secret was not checked). */
  outcome: 'ok' | 'failed' | 'refused';
  /** What refused it: the address's limit, the account's, or the bound on scrypt work. */
  refusedBy?: 'address' | 'account' | 'busy';
  /** A failure: the address's failures in its window, this one included. */
  failures?: number;
  /** How long a failure's answer was held back. */
  slowedMs?: number;
}

export class LoginLimiter {
  /**
   * Addresses and accounts over a limit, until when: each later attempt is refused here without a
   * round trip to the database (a refusal stands until the window ends whatever else happens).
   */
  private readonly refusedUntil = new Map<string, number>();
  /** Each address's checks running and waiting (addresses with none are forgotten). */
  private readonly turns = new Map<string, { running: number; waiting: (() => void)[] }>();

  constructor(
    private readonly attempts: FailedAttempts,
    private readonly limits: LoginLimits,
    /** Which door's logins (token, sip): each door's addresses and accounts are counted apart. */
    private readonly door: string,
  ) {}

  /**
   * Runs `check` (the secret against the account's hash, or a dummy's) within the limits: answers
   * its value, or undefined for a failure (held back past half a limit). Throws tooManyAttempts
   * (429, Retry-After) when over a limit or when the bound on scrypt work is full, without checking.
   */
  async attempt<T>(
    address: string | undefined,
    account: string,
    check: () => Promise<T | undefined>,
    report: (r: LoginReport) => void = () => undefined,
    /** scrypt: false for a check that does no scrypt work (a public key's signature), which a full bound must not refuse. */
    o: { scrypt?: boolean } = {},
  ): Promise<T | undefined> {
    if (o.scrypt !== false) {
      try {
        refuseIfScryptFull();
      } catch (error) {
        report({ outcome: 'refused', refusedBy: 'busy' });
        throw error;
      }
    }
    const { addressFailures, accountFailures } = this.limits;
    const { source, target, keys } = this.subjects(address, account);
    this.remembered(keys, report);
    // One address's checks take turns: a flood from one address holds one check at a time of the
    // process's scrypt work, however many it sends at once, and each waits for the failures before
    // it to be counted.
    const failed = await this.ownTurn(keys.source, report, async () => {
      const over = await this.overLimit(source, target, keys, report);
      let value: T | undefined;
      try {
        value = await check();
      } catch (error) {
        if (error instanceof ScryptBusy) report({ outcome: 'refused', refusedBy: 'busy' }); // nothing was counted
        throw error;
      }
      if (value !== undefined) {
        if (over.targetFailed) await this.attempts.forget(target);
        report({ outcome: 'ok' });
        return { value };
      }
      return { failures: await this.attempts.failedLogin(source, target) };
    });
    if ('value' in failed) return failed.value;
    const { sourceFailures, targetFailures } = failed.failures;
    const past = Math.max(sourceFailures - addressFailures / 2, targetFailures - accountFailures / 2);
    const slowedMs = past > 0 ? Math.min(SLOW_MAX_MS, SLOW_STEP_MS * Math.ceil(past)) : 0;
    report({ outcome: 'failed', failures: sourceFailures, slowedMs });
    if (slowedMs > 0) await new Promise((resolve) => setTimeout(resolve, slowedMs));
    return undefined;
  }

  /**
   * Throws tooManyAttempts when the address or the account is over its limit, counting nothing:
   * for a step of a login that proves nothing by itself (asking whether a public key would do).
   */
  async refuseIfOver(address: string | undefined, account: string): Promise<void> {
    const { source, target, keys } = this.subjects(address, account);
    this.remembered(keys, () => undefined);
    await this.overLimit(source, target, keys, () => undefined);
  }

  private subjects(address: string | undefined, account: string) {
    const { addressFailures, accountFailures, windowSec } = this.limits;
    return {
      source: counted(`${this.door}-address`, addressKey(address), { failures: addressFailures, windowSec }),
      target: counted(`${this.door}-account`, account, { failures: accountFailures, windowSec }),
      keys: { source: `address ${addressKey(address)}`, target: `account ${account}` },
    };
  }

  private refusal(side: 'source' | 'target', retry: number, report: (r: LoginReport) => void): Error {
    report({ outcome: 'refused', refusedBy: side === 'source' ? 'address' : 'account' });
    const whose = side === 'source' ? 'from this address' : 'for this account';
    return fail.tooManyAttempts(retry, `too many failed logins ${whose}; try again in ${retry} s`);
  }

  /** Refuses, without a round trip to the database, an address or account this process found over its limit. */
  private remembered(keys: { source: string; target: string }, report: (r: LoginReport) => void): void {
    for (const side of ['source', 'target'] as const) {
      const until = this.refusedUntil.get(keys[side]) ?? 0;
      if (until > Date.now()) throw this.refusal(side, Math.ceil((until - Date.now()) / 1000), report);
    }
  }

  /** Refuses an address or account over its limit in the database (and remembers it); else whether the account has failures. */
  private async overLimit(
    source: Counted,
    target: Counted,
    keys: { source: string; target: string },
    report: (r: LoginReport) => void,
  ): Promise<{ targetFailed: boolean }> {
    this.remembered(keys, report);
    const over = await this.attempts.overLimit(source, target);
    if (over.refused) {
      this.remember(keys[over.refused], over.retryAfterSec);
      throw this.refusal(over.refused, over.retryAfterSec, report);
    }
    return over;
  }

  /**
   * Runs work when the address's turn comes: CHECKS_PER_ADDRESS at once, the rest waiting in a line
   * of the address's own (at most WAITING_PER_ADDRESS; past it refused at once, as a full bound on
   * scrypt work is).
   */
  private async ownTurn<R>(address: string, report: (r: LoginReport) => void, work: () => Promise<R>): Promise<R> {
    let line = this.turns.get(address);
    if (!line) this.turns.set(address, (line = { running: 0, waiting: [] }));
    if (line.running < CHECKS_PER_ADDRESS) line.running++;
    else {
      if (line.waiting.length >= WAITING_PER_ADDRESS) {
        report({ outcome: 'refused', refusedBy: 'busy' });
        throw new ScryptBusy();
      }
      // The turn is handed over by the check before it (running stays as it was).
      await new Promise<void>((resolve) => line.waiting.push(resolve));
    }
    try {
      return await work();
    } finally {
      const next = line.waiting.shift();
      if (next) next();
      else if (--line.running === 0) this.turns.delete(address);
    }
  }

  private remember(key: string, retryAfterSec: number): void {
    this.refusedUntil.delete(key);
    this.refusedUntil.set(key, Date.now() + retryAfterSec * 1000);
    for (const oldest of this.refusedUntil.keys()) {
      if (this.refusedUntil.size <= REMEMBERED_REFUSALS) break;
      this.refusedUntil.delete(oldest);
    }
  }
}
