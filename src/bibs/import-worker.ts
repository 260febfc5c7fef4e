// The worker thread of `carrel import`: reads the files' bytes (sent by the importing thread, a
// chunk at a time, when asked for) into prepared batches (prepare.ts), and sends each back with
// its rows' buffer moved, not copied. Reading and deriving cost the import as much as the
// database does; here they take the machine's other core. See import-thread.ts for the other end.
import { parentPort, workerData } from 'node:worker_threads';
import type { ItemMap } from '../items/from-marc.ts';
import { readMarcRaw } from '../marc/read.ts';
import { RecordPreparer } from './prepare.ts';
import type { ToMain, ToWorker, WorkerBatch } from './import-thread.ts';

const port = parentPort!;
const { itemMap, derivedValues } = workerData as { itemMap: ItemMap | null; derivedValues: boolean };
/** Batches sent and not yet taken for writing: reading stops two ahead, so memory stays flat. */
const AHEAD = 2;

let onChunk: ((message: ToWorker) => void) | undefined;
let onAck: (() => void) | undefined;
let unacked = 0;
const files: (() => void)[] = [];

const send = (message: ToMain, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

let file = 0;
const pendingFiles: number[] = [];
port.on('message', (message: ToWorker) => {
  if (message.kind === 'ack') {
    unacked--;
    onAck?.();
  } else if (message.kind === 'file') {
    const start = files.shift();
    if (start) {
      file = message.file;
      start();
    } else pendingFiles.push(message.file);
  } else if (message.file === file) onChunk?.(message);
});

/** The file's bytes, asked for a chunk ahead of the one being read. */
async function* chunks(): AsyncGenerator<Uint8Array> {
  const queue: ToWorker[] = [];
  let wake: (() => void) | undefined;
  onChunk = (message) => {
    queue.push(message);
    wake?.();
  };
  send({ kind: 'pull', file });
  for (;;) {
    while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    const message = queue.shift()!;
    if (message.kind !== 'chunk') return;
    send({ kind: 'pull', file });
    yield Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength);
  }
}

async function post(preparer: RecordPreparer): Promise<void> {
  while (unacked >= AHEAD) await new Promise<void>((resolve) => (onAck = resolve));
  const { batch, buffer } = preparer.take();
  const out: WorkerBatch = {
    read: batch.read,
    failed: batch.failed,
    holdings: batch.holdings,
    records: batch.records.map(({ row, identity, derived, items, holdings, position }) => ({
      start: row.byteOffset - buffer.byteOffset,
      end: row.byteOffset - buffer.byteOffset + row.length,
      identity,
      ...(derivedValues && { derived }),
      items,
      holdings,
      position,
    })),
  };
  unacked++;
  // Rows made before the buffer last grew are views of an older buffer, with the same bytes at
  // the same places: the newest buffer holds them all.
  send(
    { kind: 'batch', batch: out, buffer: buffer.buffer as ArrayBuffer, offset: buffer.byteOffset },
    buffer.byteOffset === 0 ? [buffer.buffer as ArrayBuffer] : [],
  );
}

async function readFile(): Promise<void> {
  const preparer = new RecordPreparer(itemMap);
  for await (const result of readMarcRaw(chunks())) if (preparer.add(result)) await post(preparer);
  await post(preparer);
  send({ kind: 'file-done' });
}

for (;;) {
  const next = pendingFiles.shift();
  if (next !== undefined) file = next;
  else await new Promise<void>((resolve) => files.push(resolve));
  try {
    await readFile();
  } catch (error) {
    send({ kind: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}
