// The database for reads that tolerate a little lag (search, the catalogue's searches, harvests,
// JSON queries, the library's own SQL): a replica in rotation when there is one, else the primary.
// Inside a request's transaction a read stays on the primary, with the transaction. A client that
// has written (Ambient.client) reads from a replica only once it has replayed past that write.
// A read that fails because its replica could not be reached is asked again of the primary, and
// that replica is left out until its next check finds it well; one the replica cancelled for what
// it was replaying (a recovery conflict) is asked again of the primary, the replica kept: reads
// never fail because a replica did.
import { ambientScope } from './ambient.ts';
import { DatabaseUnavailableError, isRecoveryConflict } from './errors.ts';
import type { ReadMarks } from './read-marks.ts';
import type { ReplicaSet } from './replicas.ts';
import type { Db } from './types.ts';

export function replicaReads(primary: Db, replicas: ReplicaSet, marks: ReadMarks): Db {
  /** Where the request's reads go: a replica that has replayed its client's last write and the floor, else the primary. */
  const choose = async (client: string | undefined, floor = 0n): Promise<Db> => {
    const lastWrite = client ? ((await marks.lastWrite(client)) ?? 0n) : 0n;
    return (await replicas.chooseReplayed(lastWrite > floor ? lastWrite : floor)) ?? primary;
  };
  const pick = (): Promise<Db> => {
    const scope = ambientScope();
    if (!scope) return Promise.resolve(replicas.choose() ?? primary);
    if (scope.tx) return Promise.resolve(primary);
    // Once a request: all its reads then see one server's state (a search's several statements).
    return (scope.reader ??= choose(scope.client, scope.floor));
  };
  const read = async <T>(work: (db: Db) => Promise<T>): Promise<T> => {
    const db = await pick();
    if (db === primary) return work(primary);
    try {
      return await work(db);
    } catch (error) {
      if (error instanceof DatabaseUnavailableError) replicas.failed(db, error);
      else if (!isRecoveryConflict(error)) throw error;
      // The rest of the request's reads go to the primary too: they see the state this one does.
      const scope = ambientScope();
      if (scope) scope.reader = Promise.resolve(primary);
      return work(primary);
    }
  };
  return {
    ...primary,
    query: (text, params, options) => read((db) => db.query(text, params, options)),
    queryTable: (text, params) => read((db) => db.queryTable(text, params)),
    exec: (text) => read((db) => db.exec(text)),
    transaction: (fn) => read((db) => db.transaction(fn)),
  };
}
