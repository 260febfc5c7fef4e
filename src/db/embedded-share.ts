// The embedded database is one PGlite session, used by the server in process and by `carrel`
// commands through a Unix socket (pglite-socket). One session has one transaction state and one
// unnamed portal, so uses must not interleave: a server statement run while a command's
// transaction is open would run inside it (and be rolled back with it), and a command's Bind and
// Execute split across two socket reads could have a server statement slip between them.
//
// The gate below is held by one side at a time. The server takes it for each statement or
// transaction. The socket takes it for the messages it passes to PGlite and keeps it while PGlite
// is inside a transaction or the messages so far stop short of a Sync (or a simple Query): the
// point at which the protocol hands the session back.
import type { PGliteThread } from './pglite-thread.ts';

class Gate {
  private tail: Promise<void> = Promise.resolve();

  /** Waits for the gate; answers the function that opens it again. */
  async enter(): Promise<() => void> {
    let open!: () => void;
    const previous = this.tail;
    this.tail = new Promise<void>((resolve) => (open = resolve));
    await previous;
    return open;
  }
}

const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const TERMINATE = 0x58; // 'X'
const PROTOCOL_3 = 196608;

/**
 * Whether frontend messages end where the session is handed back: whole typed messages, the last
 * a Sync, a simple Query or a Terminate; or a connection's start-up packet.
 */
export function handsBack(chunk: Uint8Array): boolean {
  const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (chunk.length >= 8 && view.getUint32(4) === PROTOCOL_3 && view.getUint32(0) === chunk.length) return true;
  let at = 0;
  let last = -1;
  while (at < chunk.length) {
    if (at + 5 > chunk.length) return false;
    last = chunk[at]!;
    const length = view.getUint32(at + 1);
    if (length < 4) return false;
    at += 1 + length;
  }
  return at === chunk.length && (last === SYNC || last === QUERY || last === TERMINATE);
}

export interface SharedPGlite {
  /** What to give the socket server in place of the PGlite instance. */
  forSocket: PGliteThread;
  /** Runs a server-side use of the database with the gate held. */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
}

export function sharePGlite(pglite: PGliteThread): SharedPGlite {
  const gate = new Gate();
  let socketHolds: (() => void) | undefined;
  let lastMessage: Uint8Array | undefined;

  const handBackIfDone = (afterRollback: boolean) => {
    if (!socketHolds || pglite.isInTransaction()) return;
    if (!afterRollback && !(lastMessage && handsBack(lastMessage))) return;
    const open = socketHolds;
    socketHolds = undefined;
    open();
  };

  // pglite-socket passes each client message as db.runExclusive(() => db.execProtocolRawStream(message)),
  // and rolls back with db.exec('ROLLBACK') when a client leaves inside a transaction. Calls that
  // take the gate take it before PGlite's own lock, as the server side does, so the two never wait
  // on each other in opposite orders.
  const forSocket = new Proxy(pglite, {
    get(target, prop, receiver) {
      if (prop === 'runExclusive') {
        return async <T>(fn: () => Promise<T>): Promise<T> => {
          socketHolds ??= await gate.enter();
          try {
            return await target.runExclusive(fn);
          } finally {
            handBackIfDone(false);
          }
        };
      }
      if (prop === 'execProtocolRawStream') {
        return (message: Uint8Array, options: Parameters<PGliteThread['execProtocolRawStream']>[1]) => {
          lastMessage = message;
          return target.execProtocolRawStream(message, options);
        };
      }
      // pglite-socket asks whether the session is in a transaction to keep a client's transaction
      // its own (and to roll back one a leaving client left open): only the socket side's count.
      // The engine's own answer would include the server's transaction, which its queue would then
      // wait on for ever (nothing wakes it once the server commits).
      if (prop === 'isInTransaction') return () => socketHolds !== undefined && target.isInTransaction();
      if (prop === 'exec') {
        return async (...args: Parameters<PGliteThread['exec']>) => {
          try {
            return await target.exec(...args);
          } finally {
            handBackIfDone(true);
          }
        };
      }
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });

  return {
    forSocket,
    async exclusive<T>(fn: () => Promise<T>): Promise<T> {
      const open = await gate.enter();
      try {
        return await fn();
      } finally {
        open();
      }
    },
  };
}
