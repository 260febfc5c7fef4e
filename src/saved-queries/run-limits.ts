// What one server process lets saved queries take. Their statements run on the main pool, which
// every other request needs too: so at most `running` runs hold a connection at once, at most
// `waiting` more wait their turn (each no longer than waitMs), and any other is refused at once,
// before it reads anything. Runs of public queries, which anyone may make, are also counted per
// minute by the caller's address and, with a token, by its key as well.
import { fail } from '../shared/errors.ts';

export interface RunLimits {
  /** Runs holding a connection at once. */
  running: number;
  /** Runs waiting for their turn; past them a run is refused. */
  waiting: number;
  /** The longest a run waits for its turn. */
  waitMs: number;
  /** Runs of public queries a minute, per client address and per API key. */
  publicPerMinute: number;
}

/** Runs beside each other: a bounded number at once and a bounded queue; the rest refused. */
export class RunGate {
  private inUse = 0;
  private readonly queue: { admit: () => void; timer: NodeJS.Timeout }[] = [];

  constructor(private readonly limits: Pick<RunLimits, 'running' | 'waiting' | 'waitMs'>) {}

  /** How many runs hold a turn, and how many wait for one. */
  get counts(): { running: number; waiting: number } {
    return { running: this.inUse, waiting: this.queue.length };
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await fn();
    } finally {
      this.release();
    }
  }

  private busy(): Error {
    const { running, waiting } = this.limits;
    return fail.tooManyAttempts(
      1,
      `saved queries are running as many at once as this server takes (${running}, and ${waiting} waiting): try again shortly`,
    );
  }

  private acquire(): Promise<void> {
    if (this.inUse < this.limits.running) {
      this.inUse++;
      return Promise.resolve();
    }
    if (this.queue.length >= this.limits.waiting) return Promise.reject(this.busy());
    return new Promise((resolve, reject) => {
      const waiter = {
        admit: resolve,
        timer: setTimeout(() => {
          this.queue.splice(this.queue.indexOf(waiter), 1);
          reject(this.busy());
        }, this.limits.waitMs),
      };
      this.queue.push(waiter);
    });
  }

  private release(): void {
    const next = this.queue.shift();
    if (!next) {
      this.inUse--;
      return;
    }
    // The turn passes straight to the longest waiter.
    clearTimeout(next.timer);
    next.admit();
  }
}

const MINUTE_MS = 60_000;
/** Callers counted in one minute; past this, new ones share one count (a flood from many addresses). */
const MAX_COUNTED = 100_000;

/** Runs of public queries per caller (its address, its key) in the current minute. */
export class PublicRunCounts {
  private minute = 0;
  private counts = new Map<string, number>();

  constructor(private readonly perMinute: number) {}

  /**
   * Counts one run for each of the callers named (`address …`, `key …`), or refuses it, counting
   * none, when one of them has had its runs this minute.
   */
  take(callers: { id: string; what: string }[], nowMs = Date.now()): void {
    const minute = Math.floor(nowMs / MINUTE_MS);
    if (minute !== this.minute) {
      this.minute = minute;
      this.counts = new Map();
    }
    const ids = callers.map((c) => (this.counts.has(c.id) || this.counts.size < MAX_COUNTED ? c.id : '*'));
    const over = callers.find((_, i) => (this.counts.get(ids[i]!) ?? 0) >= this.perMinute);
    if (over) {
      const retryAfterSec = Math.max(1, Math.ceil((MINUTE_MS - (nowMs % MINUTE_MS)) / 1000));
      throw fail.tooManyAttempts(
        retryAfterSec,
        `at most ${this.perMinute} runs of public queries a minute ${over.what}; try again in ${retryAfterSec} s`,
      );
    }
    for (const id of new Set(ids)) this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
  }
}
