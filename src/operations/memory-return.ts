// Gives memory back after a burst. A closed socket's native parts (its handle, its buffers) are
// freed only when V8 collects the socket object; under a flood of connections the sockets outlive
// two young-generation collections and move to the old generation, which V8 collects only once it
// fills. Until then a server that has met a burst of connections (a kiosk pouring messages, a
// connection flood) keeps tens of megabytes it no longer uses, for good if the traffic falls quiet.
// So: every CHECK_MS, when the resident memory has grown past GROWTH × its settled level, run a
// full collection (at most once per MIN_GAP_MS: one pauses the event loop for tens of
// milliseconds). The settled level is the lowest seen after a collection; when a collection frees
// almost nothing, the memory is in use (caches, more connections), and that level becomes the
// settled one, so a server that has grown for good is not collected again and again.
import v8 from 'node:v8';
import vm from 'node:vm';

const CHECK_MS = 5_000;
const MIN_GAP_MS = 20_000;
const GROWTH = 1.1;
/** A collection that frees less than this share of the memory found the growth in use. */
const FREED_LITTLE = 0.05;

/**
 * V8's full collection. Node gives it to JavaScript only under --expose-gc: the flag is set here
 * (it affects nothing but the `gc` function of contexts made after it) and the function taken from
 * a new context, so `npm start` and `node dist/server.js` need no flag.
 */
export function fullCollection(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

/** Decides when to collect, from the resident memory it is shown each check. */
export class CollectionPolicy {
  private lastAt: number;

  constructor(
    private settled: number,
    now: number,
  ) {
    this.lastAt = now;
  }

  /** Whether to collect now. */
  due(rss: number, now: number): boolean {
    return rss > this.settled * GROWTH && now - this.lastAt >= MIN_GAP_MS;
  }

  /** A collection ran at `now`: memory was `before` and is `after`. */
  collected(before: number, after: number, now: number): void {
    this.lastAt = now;
    this.settled = before - after < before * FREED_LITTLE ? after : Math.min(this.settled, after);
  }
}

export class MemoryReturn {
  private timer: NodeJS.Timeout | undefined;
  private readonly collect = fullCollection();
  private readonly policy = new CollectionPolicy(process.memoryUsage.rss(), Date.now());

  start(): void {
    this.timer = setInterval(() => this.check(), CHECK_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private check(): void {
    const before = process.memoryUsage.rss();
    if (!this.policy.due(before, Date.now())) return;
    this.collect();
    this.policy.collected(before, process.memoryUsage.rss(), Date.now());
  }
}
