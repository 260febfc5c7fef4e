// SQL for the health check.
import type { Queryable } from '../db/types.ts';

/** The running server's version, e.g. "15.19" from "15.19 (Debian 15.19-0+deb12u1)". */
export async function readServerVersion(db: Queryable): Promise<string> {
  const rows = await db.query<{ version: string }>("select current_setting('server_version') as version");
  const full = rows[0]?.version ?? '';
  return full.split(' ')[0] ?? full;
}
