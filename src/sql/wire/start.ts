// Opens the SQL door's wire protocol when CARREL_SQL_PORT is set: on the embedded engine each
// client's statements take turns on its one session; on PostgreSQL each client has a connection
// of its own (Carrel's user, then the login's role for each batch), so that the time-out and the
// row cap hold there too: to a read replica in rotation when there is one (DATABASE_READ_URLS)
// that has replayed everything written before the client connected (its login's role among it).
// A replica that cannot be connected to leaves the client on the primary.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import { walPosition, type ReplicaSet } from '../../db/replicas.ts';
import type { Db } from '../../db/types.ts';
import { loggable } from '../../shared/log.ts';
import type { SqlLoginService } from '../logins.ts';
import { openWireDoor, type WireDoor } from './door.ts';
import { connectRaw } from './pg-connection.ts';

export async function startSqlDoor(
  config: Config,
  db: Db,
  logins: SqlLoginService,
  log: FastifyBaseLogger,
  replicas?: ReplicaSet,
): Promise<WireDoor | undefined> {
  if (config.sql.port === null) return undefined;
  const shared = db.rawSession;
  const databaseUrl = config.databaseUrl;
  // What Carrel itself set on the shared session (its search path): put back after every batch.
  const restore = shared ? await logins.sessionSettings() : [];
  const session = shared
    ? () => Promise.resolve({ raw: shared, shared: true, restore, close: () => Promise.resolve() })
    : async () => {
        const timeoutMs = config.dbConnectTimeoutSec * 1000;
        const replica = replicas && (await replicas.urlReplayed(await walPosition(db)));
        const connection = replica
          ? await connectRaw(replica, timeoutMs).catch((error: unknown) => {
              log.warn({ err: loggable(error) }, 'a SQL login could not be connected to a read replica: connected to the primary');
              return connectRaw(databaseUrl!, timeoutMs);
            })
          : await connectRaw(databaseUrl!, timeoutMs);
        return { raw: connection, shared: false, restore, close: () => connection.close() };
      };
  const door = await openWireDoor({
    session,
    host: config.host,
    port: config.sql.port,
    rowCap: config.sql.rowCap,
    statementTimeoutMs: config.sql.statementTimeoutMs,
    verifier: (user) => logins.verifier(user),
    parameters: await logins.serverParameters(),
    log,
    total: config.sql.maxConnections,
    perAddress: config.sql.maxConnectionsPerAddress,
    loginTimeoutMs: config.sql.loginTimeoutMs,
  });
  log.info({ port: door.port }, 'SQL logins connect here with the PostgreSQL wire protocol');
  return door;
}
