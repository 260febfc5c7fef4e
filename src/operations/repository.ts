// SQL for the operator's switch and the sign that an import is running.
import type { Queryable } from '../db/types.ts';

export async function readMaintenance(db: Queryable): Promise<boolean> {
  const rows = await db.query<{ maintenance: boolean }>('select maintenance from service_state');
  return rows[0]?.maintenance ?? false;
}

/** The switch, and whether an import has said it is running in the last minute (migration 0023): one read each poll. */
export async function readServiceState(db: Queryable): Promise<{ maintenance: boolean; importing: boolean }> {
  const rows = await db.query<{ maintenance: boolean; importing: boolean }>(
    `select maintenance, coalesce(import_seen > now() - interval '1 minute', false) as importing from service_state`,
  );
  return rows[0] ?? { maintenance: false, importing: false };
}

/** An import says it runs (now), or has ended (null). */
export async function markImporting(db: Queryable, running: boolean): Promise<void> {
  await db.query(`update service_state set import_seen = case when $1 then now() end`, [running]);
}

export async function writeMaintenance(db: Queryable, on: boolean): Promise<void> {
  await db.query('update service_state set maintenance = $1, updated_date = now()', [on]);
}
