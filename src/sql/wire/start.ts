// Opens the SQL door's wire protocol where it applies: the embedded engine with CARREL_SQL_PORT
// set. On PostgreSQL, SQL logins connect to PostgreSQL itself.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/types.ts';
import type { SqlLoginService } from '../logins.ts';
import { openWireDoor, type WireDoor } from './door.ts';

export async function startSqlDoor(config: Config, db: Db, logins: SqlLoginService, log: FastifyBaseLogger): Promise<WireDoor | undefined> {
  if (config.sql.port === null) return undefined;
  if (!db.rawSession) {
    log.warn('CARREL_SQL_PORT is for the embedded database: on PostgreSQL, SQL logins connect to PostgreSQL itself');
    return undefined;
  }
  const door = await openWireDoor({
    raw: db.rawSession,
    host: config.host,
    port: config.sql.port,
    rowCap: config.sql.rowCap,
    verifier: (user) => logins.verifier(user),
    parameters: await logins.serverParameters(),
    log,
  });
  log.info({ port: door.port }, 'SQL logins connect here with the PostgreSQL wire protocol');
  return door;
}
