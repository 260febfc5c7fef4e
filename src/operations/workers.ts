// CARREL_WORKERS: the primary process forks that many server processes (Node's cluster) and does
// nothing else: no database, no port of its own. Each worker is a whole server, as one on another
// machine would be: its listeners are shared through the primary (every port: HTTP, the Patron
// API's, SIP2, SFTP, FTP, SQL), and its background jobs run beside the others' because each
// already claims its work in the database (src/operations/periodic.ts). The primary replaces a
// worker that dies, waiting longer after each one that dies young, and on SIGTERM or SIGINT asks
// every worker to stop as one server stops, then exits 0 when all of them did.
import cluster, { type Worker } from 'node:cluster';
import pino from 'pino';

/** A worker that lived at least this long was healthy: the next death of its slot restarts at once. */
const HEALTHY_AFTER_MS = 30_000;
const FIRST_DELAY_MS = 1_000;
const LONGEST_DELAY_MS = 60_000;

/** What a worker and the primary say to each other. */
export type WorkerMessage = { carrel: 'ready'; banner: string } | { carrel: 'stop'; signal: 'SIGTERM' | 'SIGINT' };

export function isWorkerMessage(value: unknown): value is WorkerMessage {
  return typeof value === 'object' && value !== null && 'carrel' in value;
}

/**
 * How long a slot waits before its next worker, after `youngDeaths` deaths in a row each within
 * HEALTHY_AFTER_MS of its start: none after a healthy run, then 1 s doubling to a minute, so that
 * a worker that cannot start (its database refuses it, say) is not forked in a tight loop.
 */
export function restartDelayMs(youngDeaths: number): number {
  return youngDeaths === 0 ? 0 : Math.min(LONGEST_DELAY_MS, FIRST_DELAY_MS * 2 ** (youngDeaths - 1));
}

interface Slot {
  worker: Worker | undefined;
  /** Whether its worker has said it listens (before then it hears no stop: it is killed instead). */
  serving: boolean;
  startedAt: number;
  youngDeaths: number;
  timer: NodeJS.Timeout | undefined;
}

/** A worker still running this long past the longest a stop takes (its grace and a request's time-out) is killed. */
const STOP_MARGIN_MS = 5_000;

/**
 * Runs as the primary until every worker has stopped; the workers run src/server.ts themselves.
 * @param stopMs the longest a worker's stop takes: its grace period, then its requests in flight
 */
export function runPrimary(count: number, logLevel: string, stopMs: number): void {
  const log = pino({ level: logLevel });
  const slots: Slot[] = Array.from({ length: count }, () => ({
    worker: undefined,
    serving: false,
    startedAt: 0,
    youngDeaths: 0,
    timer: undefined,
  }));
  const ready = new Set<number>();
  let serving = false;
  let stopping: 'SIGTERM' | 'SIGINT' | undefined;
  let failedStops = 0;

  const fork = (slot: Slot) => {
    slot.timer = undefined;
    slot.startedAt = Date.now();
    slot.serving = false;
    const worker = cluster.fork();
    slot.worker = worker;
    log.info({ worker: worker.process.pid, slot: slots.indexOf(slot) }, 'worker started');
    worker.on('message', (message: unknown) => {
      if (!isWorkerMessage(message) || message.carrel !== 'ready') return;
      slot.serving = true;
      ready.add(slots.indexOf(slot));
      if (serving) return log.info({ worker: worker.process.pid }, 'worker serving');
      if (ready.size < count) return;
      // Once every first worker listens: the banner, once, with how many serve.
      serving = true;
      process.stderr.write(`${message.banner.trimEnd()}\n  workers:   ${count} server processes on these ports (CARREL_WORKERS)\n\n`);
    });
  };

  const finishIfStopped = () => {
    if (slots.some((s) => s.worker)) return;
    log.info({ failedStops }, 'all workers stopped');
    process.exit(failedStops ? 1 : 0);
  };

  cluster.on('exit', (worker, code, signal) => {
    const slot = slots.find((s) => s.worker === worker);
    if (!slot) return;
    slot.worker = undefined;
    if (stopping) {
      // One still starting was killed, having nothing in flight: not a failure.
      if (code !== 0 && slot.serving) failedStops++;
      return finishIfStopped();
    }
    if (!serving) {
      // A worker that could not start (a port taken, a database too new): the start fails, as one
      // process's would, rather than retrying what will fail again.
      log.fatal({ worker: worker.process.pid, code, signal }, 'a worker could not start: stopping');
      failedStops++;
      stopAll('SIGINT');
      return;
    }
    const lived = Date.now() - slot.startedAt;
    slot.youngDeaths = lived < HEALTHY_AFTER_MS ? slot.youngDeaths + 1 : 0;
    const delayMs = restartDelayMs(slot.youngDeaths);
    log.error({ worker: worker.process.pid, code, signal, livedMs: lived, restartInMs: delayMs }, 'worker died: starting another');
    slot.timer = setTimeout(() => fork(slot), delayMs);
  });

  const stopAll = (signal: 'SIGTERM' | 'SIGINT') => {
    if (stopping) {
      // A second signal: no more waiting.
      log.warn({ signal }, 'second signal: stopping every worker now');
      for (const slot of slots) slot.worker?.process.kill('SIGKILL');
      process.exit(1);
    }
    stopping = signal;
    log.info({ signal }, 'stopping every worker');
    for (const slot of slots) {
      clearTimeout(slot.timer);
      slot.timer = undefined;
      const stop: WorkerMessage = { carrel: 'stop', signal };
      // A worker still starting listens for no message yet, and serves nothing: it is killed.
      if (slot.serving && slot.worker?.isConnected()) slot.worker.send(stop);
      else slot.worker?.process.kill('SIGKILL');
    }
    // A worker that hangs while stopping would keep the primary, and so the service, from ever exiting.
    setTimeout(() => {
      for (const slot of slots)
        if (slot.worker) {
          log.error({ worker: slot.worker.process.pid }, 'worker still stopping past its time: killed');
          failedStops++;
          slot.worker.process.kill('SIGKILL');
        }
    }, stopMs + STOP_MARGIN_MS).unref();
    finishIfStopped();
  };
  process.on('SIGTERM', () => stopAll('SIGTERM'));
  process.on('SIGINT', () => stopAll('SIGINT'));

  for (const slot of slots) fork(slot);
}
