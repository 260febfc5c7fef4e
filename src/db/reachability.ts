// What a process knows about whether its database can be reached. Once a connection attempt fails
// (refused, timed out, login refused), statements fail at once with that failure instead of each
// trying to connect and waiting: GET /api says Unhealthy at once, a request is answered 503 at
// once. One statement at a time is let through as a probe, first 50 ms after the failure and then
// at doubling intervals up to 500 ms, so recovery is seen within half a second and a database
// coming back is not met by every waiting request at the same moment.
import { DatabaseUnavailableError, describeDbError, isUnreachable } from './errors.ts';

const FIRST_WAIT_MS = 50;
const LONGEST_WAIT_MS = 500;

interface Down {
  failure: DatabaseUnavailableError;
  probeAt: number;
  waitMs: number;
}

export class Reachability {
  private down: Down | undefined;
  private probing = false;

  /**
   * Before a statement: throws the last failure while the database is known unreachable, unless it
   * is time for a probe. Answers whether this statement is that probe (pass it to settled()).
   */
  admit(): boolean {
    const down = this.down;
    if (!down) return false;
    if (this.probing || performance.now() < down.probeAt) {
      const { failure } = down;
      throw new DatabaseUnavailableError(failure.message, failure.code, { cause: failure.cause });
    }
    this.probing = true;
    return true;
  }

  /** After a statement: error is its failure (undefined on success). */
  settled(probe: boolean, error?: unknown): void {
    if (probe) this.probing = false;
    if (error === undefined || !isUnreachable(error)) {
      // A statement that reached the database proves it reachable; any other failure is its own.
      if (error === undefined || probe) this.down = undefined;
      return;
    }
    const waitMs = this.down ? Math.min(LONGEST_WAIT_MS, this.down.waitMs * 2) : FIRST_WAIT_MS;
    const failure =
      error instanceof DatabaseUnavailableError
        ? error
        : new DatabaseUnavailableError(describeDbError(error), 'UNREACHABLE', { cause: error });
    // Jitter: processes that lost the same database do not all probe it at the same moment.
    this.down = { failure, waitMs, probeAt: performance.now() + waitMs * (0.75 + Math.random() / 4) };
  }
}
