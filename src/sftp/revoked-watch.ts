// Sessions of accounts revoked meanwhile (by any process sharing the database) are ended by the
// door that holds them: a revoked account's logins are refused, and the ones open must not go on.
import type { SftpAccountService } from './accounts.ts';

/** How often a door looks for sessions of accounts revoked meanwhile. */
export const REVOKED_CHECK_MS = 5_000;

/** Every REVOKED_CHECK_MS, `end`s the sessions (each with its account's name) whose account is revoked; returns the stop. */
export function watchRevoked<S>(
  accounts: SftpAccountService,
  sessions: Map<S, string>,
  end: (session: S, name: string) => void,
): () => void {
  const timer = setInterval(() => {
    const names = [...new Set(sessions.values())];
    if (names.length === 0) return;
    accounts.active(names).then(
      (active) => {
        for (const [session, name] of sessions) if (!active.has(name)) end(session, name);
      },
      () => undefined,
    );
  }, REVOKED_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
