// Embedded engine: PGlite (PostgreSQL compiled to WebAssembly) in one process.
import { PGlite, types } from '@electric-sql/pglite';
import type { Db, Queryable } from './types.ts';

export interface PGliteLike {
  query<T>(
    text: string,
    params?: unknown[],
    options?: { blob?: Blob; rowMode?: 'array' | 'object' },
  ): Promise<{ rows: T[]; fields: { name: string; dataTypeID: number }[] }>;
  exec(text: string): Promise<unknown>;
}

function queryable(pg: PGliteLike): Queryable {
  return {
    async query<T>(text: string, params: readonly unknown[] = []) {
      return (await pg.query<T>(text, [...params])).rows;
    },
    async queryTable(text: string, params: readonly unknown[] = []) {
      const result = await pg.query<unknown[]>(text, [...params], { rowMode: 'array' });
      return { columns: result.fields.map((f) => ({ name: f.name, typeOid: f.dataTypeID })), rows: result.rows };
    },
    async exec(text: string) {
      await pg.exec(text);
    },
    async copyFrom(table: string, columns: readonly string[], text: string | Uint8Array) {
      // PGlite reads COPY input from the blob it is given, at the path /dev/blob. (COPY data is
      // never in shared memory: the cast only narrows the buffer's type for Blob.)
      await pg.query(`copy ${table} (${columns.join(', ')}) from '/dev/blob'`, [], {
        blob: new Blob([text as string | Uint8Array<ArrayBuffer>]),
      });
    },
  };
}

export interface PGliteSource {
  /** A directory on disk; absent keeps the database in memory. */
  dataDir?: string;
  /** A dump (from dumpDataDir) to start from: tests copy a migrated template this way. */
  loadFrom?: Blob;
}

/** The engine as Carrel runs it, in this thread (commands, tests) or in one of its own (pglite-host.ts). */
export function createPGlite(source: PGliteSource): PGlite {
  return new PGlite({
    dataDir: source.dataDir,
    loadDataDir: source.loadFrom,
    // postgres.js answers int8 as a string; so does this engine, so the two give the same rows.
    parsers: { [types.INT8]: (value: string) => value },
    // The write-ahead log is kept to 32 MB, the least PostgreSQL allows (two 16 MB segments): the
    // default (1 GB) let an embedded data directory grow by a gigabyte of old log in a large
    // import, and at 64 MB it kept 65 MB of a 549 MB directory of 100,000 bibs (now 33 MB).
    // Checkpoints come sooner: the import of those bibs took 34.5 s, then 36.0 s (within noise).
    startParams: [...PGlite.defaultStartParams, '-c', 'max_wal_size=32MB', '-c', 'min_wal_size=32MB'],
  });
}

/** The part of PGlite Carrel's Db is built on: PGlite itself, or the engine in a thread of its own. */
export interface PGliteEngine extends PGliteLike {
  readonly waitReady: Promise<void>;
  readonly closed: boolean;
  transaction<T>(fn: (tx: PGliteLike) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export async function openPGlite(source: PGliteSource): Promise<Db & { pglite: PGlite }> {
  return withEngine(createPGlite(source));
}

/** Carrel's Db over an engine: PGlite in this thread, or in one of its own. */
export async function withEngine<E extends PGliteEngine>(pglite: E): Promise<Db & { pglite: E }> {
  await pglite.waitReady;
  const locks = new Set<number>();
  return {
    engine: 'pglite',
    pglite,
    ...queryable(pglite),
    async tryLock(key: number) {
      // No other process can open the directory, and this process's work all shares one session
      // (where an advisory lock is taken again by its holder): the locks are kept here instead.
      if (locks.has(key)) return null;
      locks.add(key);
      return async () => void locks.delete(key);
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      return pglite.transaction((tx) => fn(queryable(tx)));
    },
    async close() {
      if (!pglite.closed) await pglite.close();
    },
  };
}
