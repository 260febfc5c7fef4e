// A database for the SQL port's tests on the engine under test, with one SQL login: the embedded
// engine's server database (the session the port shares with Carrel) or a PostgreSQL test database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config.ts';
import { openServerDb } from '../../src/db/open.ts';
import type { Db } from '../../src/db/types.ts';
import { SqlLoginService } from '../../src/sql/logins.ts';
import { createTestDb, ENGINE, seedPgliteDataDir, uniqueName } from './db.ts';

export interface SqlPortDatabase {
  config: Config;
  db: Db;
  logins: SqlLoginService;
  user: string;
  password: string;
  /** Settings that point a config at this database (with others of the test's). */
  where: Record<string, string>;
  /** Revokes the login, closes and removes the database. */
  remove(): Promise<void>;
}

export async function sqlPortDatabase(name: string): Promise<SqlPortDatabase> {
  let where: Record<string, string>;
  let drop = async () => {};
  if (ENGINE === 'pglite') {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `carrel-${name}-`));
    await seedPgliteDataDir(dataDir);
    where = { CARREL_DATA_DIR: dataDir };
    drop = async () => fs.rmSync(dataDir, { recursive: true, force: true });
  } else {
    const testDb = await createTestDb();
    where = { DATABASE_URL: testDb.url! };
    drop = () => testDb.drop();
  }
  const config = loadConfig({ CARREL_SQL_PORT: '5432', ...where });
  const db = await openServerDb(config);
  const logins = new SqlLoginService(db, config);
  // Roles belong to the whole PostgreSQL server: a name of its own there.
  const user = ENGINE === 'postgres' ? uniqueName(name).toLowerCase() : name;
  const { password } = await logins.create(user);
  return {
    config,
    db,
    logins,
    user,
    password,
    where,
    async remove() {
      await logins.revoke(user).catch(() => undefined);
      await db.close();
      await drop();
    },
  };
}
