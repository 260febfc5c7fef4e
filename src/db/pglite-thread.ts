// The embedded engine in a thread of its own, for the server: a long statement holds that thread,
// never the one that answers HTTP, SIP2 and the SQL door; and since PGlite cannot interrupt a
// statement, the server ends one that outruns its time-out by ending the thread and starting the
// engine again on the same data directory (PostgreSQL's own crash recovery: what was committed
// stays, the transaction that was running is gone). The object below is the part of PGlite the
// server uses (embedded-share.ts and pglite-socket included), passing each call to the thread.
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../shared/worker.ts';
import type { PGliteEngine, PGliteLike } from './pglite.ts';

export type ToEngine = { id: number } & (
  | { kind: 'query'; text: string; params: unknown[]; rowMode?: 'array' | 'object'; blob?: Uint8Array }
  | { kind: 'exec'; text: string }
  | { kind: 'raw'; message: Uint8Array }
  | { kind: 'close' }
);

export type FromEngine =
  | { kind: 'ready' }
  | { kind: 'failed'; error: Record<string, unknown> }
  | { id: number; ok: true; value: unknown; inTransaction: boolean }
  | { id: number; ok: false; error: Record<string, unknown>; inTransaction: boolean };

type Request = ToEngine extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;
type QueryResult<T> = { rows: T[]; fields: { name: string; dataTypeID: number }[] };

/** An error of the engine's, with its fields (code, detail …) as PostgreSQL gave them. */
function revive(fields: Record<string, unknown>): Error {
  return Object.assign(new Error(String(fields.message)), fields);
}

/** One holder at a time, in the order they asked. */
class Turns {
  private tail: Promise<void> = Promise.resolve();

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const previous = this.tail;
    let done!: () => void;
    this.tail = new Promise<void>((resolve) => (done = resolve));
    await previous;
    try {
      return await fn();
    } finally {
      done();
    }
  }
}

export class PGliteThread implements PGliteEngine {
  closed = false;
  waitReady: Promise<void>;
  /** Counts the engine's starts: what lived in a session (temporary tables, prepared statements) is gone after a restart. */
  generation = 0;
  private worker!: Worker;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; worker: Worker }>();
  private nextId = 1;
  private inTransaction = false;
  private readonly turns = new Turns();

  /** Threads ended on purpose: their exit starts nothing. */
  private readonly retired = new WeakSet<Worker>();

  /** init: statements run on the session at every start (Carrel's search path). */
  constructor(
    private readonly dataDir: string,
    private readonly init: readonly string[],
  ) {
    this.waitReady = this.start();
  }

  private start(): Promise<void> {
    const worker = startWorker(import.meta.url, 'pglite-host', { dataDir: this.dataDir, init: this.init });
    this.worker = worker;
    let ready = false;
    return new Promise<void>((resolve, reject) => {
      worker.on('message', (message: FromEngine) => {
        if ('kind' in message) {
          if (message.kind === 'failed') return reject(revive(message.error));
          ready = true;
          resolve();
          return;
        }
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (this.worker === worker) this.inTransaction = message.inTransaction;
        if (message.ok) waiting?.resolve(message.value);
        else waiting?.reject(revive(message.error));
      });
      // A thread that fails or ends by itself (out of memory, say) after it started is started
      // again; one that never started is not (the next would fail the same way, for ever): its
      // start's failure is what calls meet (none was sent to it: calls wait until a thread is ready).
      const lost = (why: string) => {
        reject(new Error(why));
        if (ready && this.worker === worker) void this.restart(why).catch(() => undefined);
      };
      worker.on('error', (error) => lost(`the database engine failed: ${error.message}`));
      worker.on('exit', (code) => lost(`the database engine's thread ended (exit code ${code})`));
    });
  }

  /** Fails the calls posted to a thread that will not answer them. */
  private failPending(worker: Worker, why: string): void {
    for (const [id, waiting] of this.pending) {
      if (waiting.worker !== worker) continue;
      this.pending.delete(id);
      waiting.reject(Object.assign(new Error(`canceling statement: ${why}`), { code: '57014' }));
    }
  }

  private async call(request: Request, transfer: ArrayBuffer[] = []): Promise<unknown> {
    // A restart can begin between the wait and the post below: a call must not go to a thread
    // being ended (it would never be answered), so it waits again for the thread that replaces it.
    do await this.waitReady;
    while (this.retired.has(this.worker) && !this.closed);
    if (this.closed) throw new Error('the database is closed');
    const id = this.nextId++;
    const worker = this.worker;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, worker });
      worker.postMessage({ ...request, id }, transfer);
    });
  }

  /**
   * Ends whatever statement the engine is running by ending its thread, and starts it again once
   * the thread has stopped (never two engines on one data directory): every call waiting on the
   * thread fails (57014, as a cancelled statement does), later calls wait for the new start.
   */
  async restart(why: string): Promise<void> {
    if (this.closed || this.retired.has(this.worker)) return;
    const worker = this.worker;
    this.retired.add(worker);
    this.generation++;
    this.inTransaction = false;
    this.waitReady = (async () => {
      await worker.terminate();
      this.failPending(worker, why);
      await this.start();
    })();
    await this.waitReady;
  }

  private queryNow<T>(text: string, params: unknown[] = [], options: { rowMode?: 'array' | 'object'; blob?: Blob } = {}) {
    return (async () => {
      const blob = options.blob ? new Uint8Array(await options.blob.arrayBuffer()) : undefined;
      return (await this.call({ kind: 'query', text, params, rowMode: options.rowMode, blob })) as QueryResult<T>;
    })();
  }

  query<T>(text: string, params?: unknown[], options?: { rowMode?: 'array' | 'object'; blob?: Blob }): Promise<QueryResult<T>> {
    return this.turns.run(() => this.queryNow<T>(text, params, options));
  }

  exec(text: string): Promise<unknown> {
    return this.turns.run(() => this.call({ kind: 'exec', text }));
  }

  transaction<T>(fn: (tx: PGliteLike) => Promise<T>): Promise<T> {
    return this.turns.run(async () => {
      const tx: PGliteLike = {
        query: <R>(text: string, params?: unknown[], options?: { rowMode?: 'array' | 'object'; blob?: Blob }) =>
          this.queryNow<R>(text, params, options),
        exec: (text: string) => this.call({ kind: 'exec', text }),
      };
      await this.call({ kind: 'exec', text: 'BEGIN' });
      try {
        const result = await fn(tx);
        await this.call({ kind: 'exec', text: 'COMMIT' });
        return result;
      } catch (error) {
        if (this.inTransaction) await this.call({ kind: 'exec', text: 'ROLLBACK' }).catch(() => undefined);
        throw error;
      }
    });
  }

  /** fn has the engine to itself; the protocol calls below, made inside it, do not wait for a turn. */
  runExclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.turns.run(fn);
  }

  async execProtocolRaw(message: Uint8Array): Promise<Uint8Array> {
    // A copy in a buffer of its own, which is handed to the thread: a Node Buffer's slice() is a view
    // of Node's shared pool, which cannot be handed over (Node 26 refuses it).
    const copy = new Uint8Array(message);
    return (await this.call({ kind: 'raw', message: copy }, [copy.buffer])) as Uint8Array;
  }

  async execProtocolRawStream(message: Uint8Array, options: { onRawData?: (data: Uint8Array) => void } = {}): Promise<void> {
    options.onRawData?.(await this.execProtocolRaw(message));
  }

  isInTransaction(): boolean {
    return this.inTransaction;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.call({ kind: 'close' }).catch(() => undefined);
    this.closed = true;
    this.retired.add(this.worker);
    await this.worker.terminate();
  }
}
