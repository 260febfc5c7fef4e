// Admission to a pool of connections. At most `size` statements or transactions hold a connection
// at a time; the rest wait their turn, and none waits longer than waitMs: it fails as the database
// being unavailable (503 at the REST door), where postgres.js would keep it queued for as long as
// it takes (minutes, when the database hangs).
import { DatabaseUnavailableError } from './errors.ts';

interface Waiter {
  admit: () => void;
  timer: NodeJS.Timeout;
}

export class PoolGate {
  private inUse = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly size: number,
    private readonly waitMs: number,
  ) {}

  /** Runs fn holding one of the pool's connections. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await fn();
    } finally {
      this.release();
    }
  }

  /** Takes a connection's turn; answers once it is taken (call release() once). */
  acquire(): Promise<void> {
    if (this.inUse < this.size) {
      this.inUse++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        admit: resolve,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          const sec = Math.round(this.waitMs / 100) / 10;
          reject(new DatabaseUnavailableError(`no database connection came free within ${sec} s (all ${this.size} busy)`, 'POOL_TIMEOUT'));
        }, this.waitMs),
      };
      this.waiting.push(waiter);
    });
  }

  release(): void {
    const next = this.waiting.shift();
    if (!next) {
      this.inUse--;
      return;
    }
    // The turn passes straight to the longest waiter: inUse is unchanged.
    clearTimeout(next.timer);
    next.admit();
  }
}
