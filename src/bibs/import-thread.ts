// The importing thread's end of the import worker (import-worker.ts): feeds it a file's bytes as it
// asks for them, and hands on the prepared batches it sends back.
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../shared/worker.ts';
import type { ItemMap } from '../items/from-marc.ts';
import type { PreparedBatch, PreparedBib } from './prepare.ts';

// Files are numbered so that bytes asked for by a file the worker has stopped reading (a file that
// is not MARC stops at its first chunk) never reach the next one.
export type ToWorker =
  { kind: 'file'; file: number } | { kind: 'chunk'; file: number; data: Uint8Array } | { kind: 'end'; file: number } | { kind: 'ack' };

/** A prepared batch on its way between threads: rows as places in the buffer sent with it. */
export interface WorkerBatch extends Omit<PreparedBatch, 'records'> {
  records: (Omit<PreparedBib, 'row'> & { start: number; end: number })[];
}

export type ToMain =
  | { kind: 'pull'; file: number }
  | { kind: 'batch'; batch: WorkerBatch; buffer: ArrayBuffer; offset: number }
  | { kind: 'file-done' }
  | { kind: 'error'; message: string };

/**
 * The chunk as bytes of its own. A view posted to a thread takes its whole buffer along: each
 * piece of a file held in memory (a file received over SFTP) would send the whole file again.
 * Copied by `new Uint8Array`, since a Buffer's slice() is another view.
 */
export function ownBytes(chunk: Uint8Array): Uint8Array {
  return chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength ? chunk : new Uint8Array(chunk);
}

export class ImportThread {
  private readonly worker: Worker;
  private readonly inbox: ToMain[] = [];
  private wake: (() => void) | undefined;
  private failure: Error | undefined;
  private closing = false;
  private chunks: AsyncIterator<Uint8Array> | undefined;
  private file = 0;

  /** derivedValues: send each record's derived columns as values too (an engine without COPY writes them from those). */
  constructor(itemMap: ItemMap | null, { derivedValues }: { derivedValues: boolean }) {
    this.worker = startWorker(import.meta.url, 'import-worker', { itemMap, derivedValues });
    this.worker.on('message', (message: ToMain) => {
      // Bytes are fed whenever the worker asks, whatever the importing side is waiting for.
      if (message.kind === 'pull') this.feed(message.file);
      else this.deliver(message);
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => {
      if (!this.closing) this.fail(new Error(`the import's reading thread stopped (exit code ${code})`));
    });
  }

  private deliver(message: ToMain): void {
    this.inbox.push(message);
    this.wake?.();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.wake?.();
  }

  private feed(file: number): void {
    const chunks = this.chunks;
    if (!chunks || file !== this.file) return;
    chunks.next().then(
      (next) =>
        this.worker.postMessage(
          (next.done ? { kind: 'end', file } : { kind: 'chunk', file, data: ownBytes(next.value) }) satisfies ToWorker,
        ),
      (error: unknown) => this.fail(error instanceof Error ? error : new Error(String(error))),
    );
  }

  private async next(): Promise<ToMain> {
    for (;;) {
      if (this.failure) throw this.failure;
      const message = this.inbox.shift();
      if (message) return message;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** One file's prepared batches; the next file starts once this one has been read to its end. */
  async *batches(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<PreparedBatch> {
    const iterator = chunks[Symbol.asyncIterator]();
    this.chunks = iterator;
    const file = ++this.file;
    this.worker.postMessage({ kind: 'file', file } satisfies ToWorker);
    for (;;) {
      const message = await this.next();
      if (message.kind === 'file-done') {
        this.chunks = undefined;
        await iterator.return?.(); // closes the file when reading stopped before its end
        return;
      }
      if (message.kind === 'error') throw new Error(`reading the file failed: ${message.message}`);
      if (message.kind !== 'batch') continue;
      const { batch, buffer, offset } = message;
      const rows = Buffer.from(buffer, offset);
      this.worker.postMessage({ kind: 'ack' } satisfies ToWorker);
      yield { ...batch, records: batch.records.map(({ start, end, ...rest }) => ({ ...rest, row: rows.subarray(start, end) })) };
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.worker.terminate();
  }
}
