// The SQL door: library-written SQL over the Sierra-compatible views (README, "SQL").
import type { Domain } from '../domain.ts';
import { sqlCommands } from './commands.ts';
import { SqlLoginService } from './logins.ts';
import { SqlService } from './service.ts';

declare module '../domain.ts' {
  interface Services {
    sql: SqlService;
    sqlLogins: SqlLoginService;
  }
}

export const sql: Domain = {
  name: 'sql',
  services: ({ db, reads, config }) => ({ sql: new SqlService(db, config.sql, reads), sqlLogins: new SqlLoginService(db, config) }),
  commands: sqlCommands,
};
