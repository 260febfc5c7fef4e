// Requests per minute per API key and route family, shared by every server process. Each process
// counts its own requests at once and adds them to the database's counts about once a second,
// learning there what the others have counted. A request is refused when the key's last minute,
// estimated as a sliding window (the current minute's count plus the part of the previous
// minute's still inside the last 60 s), would pass the key's limit. So the limit holds across
// processes to within what the others did in the last second: a process entering a new minute
// carries the last one's count as it last heard it, and hears the others' on its first flush.
import { AsyncResource } from 'node:async_hooks';
import type { Db } from '../db/types.ts';
import { addRequestCounts, dropRequestCountsBefore } from './repository.ts';

const MINUTE_MS = 60_000;

interface Counter {
  keyId: string;
  family: string;
  minute: number;
  /** Every process's count for the minute, as last heard from the database (this one's included). */
  known: number;
  /** This process's requests not yet added to the database. */
  pending: number;
  /**
   * This process's requests being added to the database now: still counted until the database's
   * answer (which includes them) is heard, or a busy database's slow answer would let them go uncounted.
   */
  sending: number;
  /** The previous minute's count, all processes. */
  previous: number;
}

export class RateLimiter {
  private readonly counters = new Map<string, Counter>();
  /** Counts of minutes gone by before they were added. */
  private carried: Counter[] = [];
  private flushing: Promise<void> | undefined;
  private scheduled = false;
  private lastDropped = 0;
  // Flushes run outside the request that scheduled them: not in its transaction (src/db/ambient.ts).
  private readonly later = AsyncResource.bind(() => {
    setTimeout(() => void this.flush(), this.flushMs).unref();
  });

  constructor(
    private readonly db: Db,
    /** Requests per minute for a key with no limit of its own; 0: unlimited. */
    private readonly defaultPerMinute: number,
    private readonly flushMs = 1000,
  ) {}

  /**
   * Counts a request of the key (its database id) in a route family. Answers undefined when it
   * may go ahead; over the limit (then it is not counted), the limit and the seconds to wait.
   */
  take(
    keyId: string,
    keyLimit: number | null,
    family: string,
    nowMs = Date.now(),
  ): { perMinute: number; retryAfterSec: number } | undefined {
    const perMinute = keyLimit ?? this.defaultPerMinute;
    if (perMinute === 0) return undefined;
    const minute = Math.floor(nowMs / MINUTE_MS);
    const id = `${keyId}\u0000${family}`;
    let counter = this.counters.get(id);
    if (!counter) {
      counter = { keyId, family, minute, known: 0, pending: 0, sending: 0, previous: 0 };
      this.counters.set(id, counter);
    } else if (counter.minute !== minute) {
      // (Pending requests of the minute gone stay pending: the next flush adds them to it.)
      counter.previous = counter.minute === minute - 1 ? counter.known + counter.sending + counter.pending : 0;
      if (counter.pending > 0) this.carried.push({ ...counter });
      Object.assign(counter, { minute, known: 0, pending: 0, sending: 0 });
    }
    const into = (nowMs % MINUTE_MS) / MINUTE_MS;
    const lastMinute = counter.previous * (1 - into) + counter.known + counter.sending + counter.pending;
    if (lastMinute + 1 > perMinute) {
      // Until enough of the previous minute has slid out, or this one ends.
      return { perMinute, retryAfterSec: Math.max(1, Math.ceil((MINUTE_MS - (nowMs % MINUTE_MS)) / 1000)) };
    }
    counter.pending++;
    if (!this.scheduled) {
      this.scheduled = true;
      this.later();
    }
    return undefined;
  }

  /** Adds this process's pending counts to the database's (tests call it to stand in for the timer). */
  flush(): Promise<void> {
    this.flushing ??= this.addPending().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async addPending(): Promise<void> {
    this.scheduled = false;
    const live = [...this.counters.values()].filter((c) => c.pending > 0);
    const batch = [...this.carried, ...live].map((c) => ({ keyId: c.keyId, family: c.family, minute: c.minute, count: c.pending }));
    this.carried = [];
    if (batch.length === 0) return;
    const sent = live.map((c) => ({ c, minute: c.minute, count: c.pending }));
    for (const c of live) {
      c.sending += c.pending;
      c.pending = 0;
    }
    // What was sent stops counting as sending once the database's totals (which hold it) are heard,
    // or, on failure, is pending again; unless the counter has moved on to another minute meanwhile.
    let settled = false;
    const settle = (failed: boolean) => {
      settled = true;
      for (const { c, minute, count } of sent) {
        if (c.minute !== minute) continue;
        c.sending -= count;
        if (failed) c.pending += count;
      }
    };
    try {
      const totals = await addRequestCounts(this.db, batch);
      for (const total of totals) {
        const counter = this.counters.get(`${total.key_id}\u0000${total.family}`);
        if (!counter) continue;
        const minute = Number(total.minute);
        if (counter.minute === minute) counter.known = Math.max(counter.known, total.count);
        else if (counter.minute === minute + 1) counter.previous = Math.max(counter.previous, total.count);
      }
      settle(false);
      const minute = Math.floor(Date.now() / MINUTE_MS);
      if (minute > this.lastDropped) {
        this.lastDropped = minute;
        await dropRequestCountsBefore(this.db, minute - 1);
        // Keys not heard from for two minutes are forgotten here too.
        for (const [id, counter] of this.counters) if (counter.minute < minute - 1) this.counters.delete(id);
      }
    } catch {
      // The database is away: what was sent is pending again, and added on a later flush.
      if (!settled) settle(true);
    }
    if ([...this.counters.values()].some((c) => c.pending > 0) && !this.scheduled) {
      this.scheduled = true;
      this.later();
    }
  }
}
