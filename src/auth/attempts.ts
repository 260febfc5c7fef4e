// Failed attempts at a secret — a patron's PIN, an API key's secret, a SIP2 account's password —
// counted in the database, so that every server process shares the counts. Each attempt has a
// source (who tries: an API key validating PINs, a client address) and a target (what is tried: a
// patron, an account); each has a limit of failures in a fixed window from its first. A source
// over its limit is refused before anything is counted against the target, so it cannot lock a
// target out; a target over its limit is refused whoever tries, even with the right secret.
//
// Two ways of counting. A PIN is short, so every guess counts: begin() counts each attempt
// before its check, so attempts at the same moment cannot pass the limit, and takes it back from
// the source when the PIN is right. A login's secret is a long random string, so its limits are
// against floods and kiosks sharing an address or an account may log in at the same moment:
// overLimit() before the check, failed() after a failure (attempts at the same moment may pass
// the limit by what the bound on scrypt work lets run or wait).
import crypto from 'node:crypto';
import type { Db } from '../db/types.ts';
import * as repo from './repository.ts';

export interface AttemptLimit {
  failures: number;
  windowSec: number;
}

/** Whom an attempt is counted against: a SHA-256 of a kind and a value, so the table never holds a barcode, name or address tried. */
export interface Counted {
  subject: Buffer;
  limit: AttemptLimit;
}

export const counted = (kind: string, value: string, limit: AttemptLimit): Counted => ({
  subject: crypto.createHash('sha256').update(`${kind}:${value}`).digest(),
  limit,
});

export type Begun =
  /** Over a limit: the secret must not be checked. */
  | { refused: 'source' | 'target'; retryAfterSec: number }
  /** Counted: attempts in each one's window, this one included. */
  | { refused?: undefined; sourceAttempts: number; targetAttempts: number };

export class FailedAttempts {
  constructor(private readonly db: Db) {}

  /** Counts an attempt before its secret is checked (so attempts at the same moment cannot all slip under a limit). */
  async begin(source: Counted, target: Counted): Promise<Begun> {
    const counts = await repo.beginAttempt(
      this.db,
      target.subject,
      target.limit.windowSec,
      source.subject,
      source.limit.windowSec,
      source.limit.failures,
    );
    if (!counts.sourceCounted) return { refused: 'source', retryAfterSec: counts.sourceRetrySec };
    if (counts.targetAttempts > target.limit.failures) {
      await repo.takeBackAttempt(this.db, source.subject); // the secret is not checked: not a failure of the source
      return { refused: 'target', retryAfterSec: counts.targetRetrySec };
    }
    return { sourceAttempts: counts.sourceAttempts, targetAttempts: counts.targetAttempts };
  }

  /** The right secret: the target's failures are forgotten, and the source's attempt taken back. */
  succeeded(source: Counted, target: Counted): Promise<void> {
    return repo.attemptSucceeded(this.db, target.subject, source.subject);
  }

  /** The secret was not checked after all (the bound on scrypt work refused it): neither is charged. */
  notChecked(source: Counted, target: Counted): Promise<void> {
    return repo.takeBackAttempts(this.db, source.subject, target.subject);
  }

  /** Logins: which is over its limit of failures now, if either, with the seconds to wait; else whether the target has failures. */
  async overLimit(
    source: Counted,
    target: Counted,
  ): Promise<{ refused: 'source' | 'target'; retryAfterSec: number } | { refused?: undefined; targetFailed: boolean }> {
    const rows = await repo.failuresOf(this.db, source.subject, source.limit.windowSec, target.subject, target.limit.windowSec);
    const [ofSource, ofTarget] = [rows.find((r) => r.first), rows.find((r) => !r.first)];
    if (ofSource && ofSource.failures >= source.limit.failures) return { refused: 'source', retryAfterSec: ofSource.retry_sec };
    if (ofTarget && ofTarget.failures >= target.limit.failures) return { refused: 'target', retryAfterSec: ofTarget.retry_sec };
    return { targetFailed: ofTarget !== undefined };
  }

  /** Logins: a failure counted against both, after its check; answers each one's failures in its window, this one included. */
  async failedLogin(source: Counted, target: Counted): Promise<{ sourceFailures: number; targetFailures: number }> {
    const rows = await repo.addFailures(this.db, source.subject, source.limit.windowSec, target.subject, target.limit.windowSec);
    await this.failed(source, target);
    return {
      sourceFailures: rows.find((r) => r.first)?.failures ?? 1,
      targetFailures: rows.find((r) => !r.first)?.failures ?? 1,
    };
  }

  /** Logins: the right secret, so the target's failures are forgotten (the source's are kept: one good login does not excuse others' guesses). */
  forget(target: Counted): Promise<void> {
    return repo.forgetFailures(this.db, target.subject);
  }

  /** A failure stays counted against both; now and then, counters long expired are swept. */
  async failed(source: Counted, target: Counted): Promise<void> {
    if (Math.random() < 0.01) await repo.sweepFailures(this.db, Math.max(source.limit.windowSec, target.limit.windowSec));
  }
}
