// SQL for the health check.
import type { Queryable } from '../db/types.ts';

/**
 * The running server's version, e.g. "15.19" from "15.19 (Debian 15.19-0+deb12u1)"; throws when
 * the session would refuse Carrel's writes (a read-only default, a server in recovery), since a
 * server that can only read is not one Carrel can run on.
 */
export async function readServerVersion(db: Queryable): Promise<string> {
  const rows = await db.query<{ version: string; readOnly: string }>(
    `select current_setting('server_version') as version, current_setting('transaction_read_only') as "readOnly"`,
  );
  if (rows[0]?.readOnly === 'on') throw new Error('the database accepts no writes (transaction_read_only is on)');
  const full = rows[0]?.version ?? '';
  return full.split(' ')[0] ?? full;
}
