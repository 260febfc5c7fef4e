// Opens the SQL door's wire protocol when CARREL_SQL_PORT is set: on the embedded engine each
// client's statements take turns on its one session; on PostgreSQL each client has a connection
// of its own (Carrel's user, then the login's role for each batch), so that the time-out and the
// row cap hold there too.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/types.ts';
import type { SqlLoginService } from '../logins.ts';
import { openWireDoor, type WireDoor } from './door.ts';
import { connectRaw } from './pg-connection.ts';

export async function startSqlDoor(config: Config, db: Db, logins: SqlLoginService, log: FastifyBaseLogger): Promise<WireDoor | undefined> {
  if (config.sql.port === null) return undefined;
  const shared = db.rawSession;
  const databaseUrl = config.databaseUrl;
  // What Carrel itself set on the shared session (its search path): put back after every batch.
  const restore = shared ? await logins.sessionSettings() : [];
  const session = shared
    ? () => Promise.resolve({ raw: shared, shared: true, restore, close: () => Promise.resolve() })
    : async () => {
        const connection = await connectRaw(databaseUrl!, config.dbConnectTimeoutSec * 1000);
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
