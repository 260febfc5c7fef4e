// The embedded engine's own thread (pglite-thread.ts starts it): PGlite runs here, so a long
// statement holds this thread, never the server's, and the server can end it by ending the thread.
// Requests are answered one at a time, in the order they come.
import { parentPort, workerData } from 'node:worker_threads';
import { createPGlite } from './pglite.ts';
import type { FromEngine, ToEngine } from './pglite-thread.ts';

const { dataDir, init } = workerData as { dataDir: string; init: readonly string[] };
const port = parentPort!;
const post = (message: FromEngine, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

/** A database error's fields (code, detail, position …) as plain data. */
function plain(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  return { ...Object.fromEntries(Object.entries(error)), message: error.message, name: error.name };
}

try {
  const pglite = createPGlite({ dataDir });
  await pglite.waitReady;
  for (const statement of init) await pglite.exec(statement);
  let queue = Promise.resolve();
  port.on('message', (request: ToEngine) => {
    queue = queue.then(async () => {
      try {
        if (request.kind === 'close') {
          await pglite.close();
          post({ id: request.id, ok: true, value: undefined, inTransaction: false });
          return;
        }
        if (request.kind === 'raw') {
          const data = await pglite.execProtocolRaw(request.message);
          // A copy of its own: the answer may be a view of the engine's memory.
          const copy = data.slice();
          post({ id: request.id, ok: true, value: copy, inTransaction: pglite.isInTransaction() }, [copy.buffer]);
          return;
        }
        const value =
          request.kind === 'exec'
            ? await pglite.exec(request.text)
            : await pglite.query(request.text, request.params, {
                rowMode: request.rowMode,
                blob: request.blob ? new Blob([request.blob as Uint8Array<ArrayBuffer>]) : undefined,
              });
        post({ id: request.id, ok: true, value, inTransaction: pglite.isInTransaction() });
      } catch (error) {
        post({ id: request.id, ok: false, error: plain(error), inTransaction: pglite.isInTransaction() });
      }
    });
  });
  post({ kind: 'ready' });
} catch (error) {
  post({ kind: 'failed', error: plain(error) });
}
