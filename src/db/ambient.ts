// A request's own transaction. While one is open (src/http/idempotency.ts opens one for a write
// sent with an Idempotency-Key), every statement the request's services run goes into it, and a
// service's own transaction becomes a savepoint within it: the write, and the answer kept for a
// retry, are committed together or not at all. With read replicas, the scope also names the
// request's client, whose last write a replica must have replayed before serving it (read-routing.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db, Queryable } from './types.ts';

interface Ambient {
  tx?: Queryable;
  savepoints: number;
  /** Who is asking ('key:…', 'session:…'), for reading one's own writes. */
  client?: string;
  /** Where the request's reads go, once chosen (read-routing.ts): one server, which sees one state. */
  reader?: Promise<Db>;
  /** A WAL position the server of the request's reads must have replayed (setReadFloor). */
  floor?: bigint;
}

const current = new AsyncLocalStorage<Ambient>();

/** Runs next (the rest of a request) where a transaction may later be opened for it. */
export function withAmbientScope(next: () => void): void {
  if (current.getStore()) return next();
  current.run({ savepoints: 0 }, next);
}

/** Runs fn in a scope of its own (as a request runs in one): for a command's work. */
export function inAmbientScope<T>(fn: () => Promise<T>): Promise<T> {
  return current.run({ savepoints: 0 }, fn);
}

/** Names the scope's client (see Ambient.client); nothing outside a scope. */
export function setAmbientClient(client: string): void {
  const scope = current.getStore();
  if (scope && scope.client !== client) {
    scope.client = client;
    scope.reader = undefined;
  }
}

/** The request's reads from now on go to a replica only once it has replayed this far (a harvest's horizon). */
export function setReadFloor(lsn: bigint): void {
  const scope = current.getStore();
  if (!scope) return;
  if (scope.floor === undefined || lsn > scope.floor) scope.floor = lsn;
  scope.reader = undefined;
}

/** The scope as reads see it: its open transaction, its client; undefined outside a request's scope. */
export function ambientScope(): (Readonly<Pick<Ambient, 'tx' | 'client' | 'floor'>> & Pick<Ambient, 'reader'>) | undefined {
  return current.getStore();
}

/** The scope's transaction from now on (undefined: none). */
export function setAmbientTransaction(tx: Queryable | undefined): void {
  const scope = current.getStore();
  if (scope) scope.tx = tx;
}

/** db, sending statements into the request's transaction while one is open. */
export function ambientDb(db: Db): Db {
  const tx = () => current.getStore()?.tx;
  return {
    ...db,
    query: (text, params, options) => (tx() ?? db).query(text, params, options),
    queryTable: (text, params) => (tx() ?? db).queryTable(text, params),
    exec: (text) => (tx() ?? db).exec(text),
    ...(db.copyFrom && { copyFrom: (table, columns, text) => (tx()?.copyFrom ?? db.copyFrom!)(table, columns, text) }),
    async transaction(fn) {
      const scope = current.getStore();
      if (!scope?.tx) return db.transaction(fn);
      const inner = scope.tx;
      const savepoint = `carrel_${++scope.savepoints}`;
      await inner.exec(`savepoint ${savepoint}`);
      try {
        const result = await fn(inner);
        await inner.exec(`release savepoint ${savepoint}`);
        return result;
      } catch (error) {
        await inner.exec(`rollback to savepoint ${savepoint}`).catch(() => {});
        throw error;
      }
    },
  };
}

export interface OpenTransaction {
  tx: Queryable;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

class RolledBack extends Error {}

/** A transaction kept open across calls: committed or rolled back when told. */
export async function openTransaction(db: Db): Promise<OpenTransaction> {
  let decide!: (outcome: 'commit' | RolledBack) => void;
  const decided = new Promise<'commit' | RolledBack>((resolve) => (decide = resolve));
  let begun!: (tx: Queryable) => void;
  const ready = new Promise<Queryable>((resolve) => (begun = resolve));
  const done = db.transaction(async (tx) => {
    begun(tx);
    const outcome = await decided;
    if (outcome !== 'commit') throw outcome;
  });
  // It either begins, or fails before it does (no connection): then there is nothing to settle.
  const tx = await Promise.race([ready, done.then(() => ready)]);
  return {
    tx,
    async commit() {
      decide('commit');
      await done;
    },
    async rollback() {
      decide(new RolledBack());
      await done.catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
    },
  };
}
