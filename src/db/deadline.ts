// A statement's time-out where the engine cannot enforce one: the embedded engine (PGlite) runs
// in one session and cannot interrupt a statement, so one that outruns its time-out is ended by
// starting the engine again (Db.interrupt). PostgreSQL's statement_timeout needs no help.
import type { Db } from './types.ts';

/** How long past its time-out a statement may run before the engine is started again. */
const GRACE_MS = 1000;

/**
 * Runs work, which must already hold the engine (inside a transaction or a session's turn) so that
 * what is ended is work's own statement; on an engine that cannot cancel a statement, one still
 * running timeoutMs (and a second) later is ended, and work fails with 57014.
 */
export async function withinTime<T>(db: Pick<Db, 'interrupt'>, timeoutMs: number, work: () => Promise<T>): Promise<T> {
  const interrupt = db.interrupt;
  if (!interrupt) return work();
  const timer = setTimeout(() => void interrupt(`it ran past its time-out (${timeoutMs} ms)`).catch(() => undefined), timeoutMs + GRACE_MS);
  try {
    return await work();
  } finally {
    clearTimeout(timer);
  }
}
