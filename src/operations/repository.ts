// SQL for the operator's switch.
import type { Queryable } from '../db/types.ts';

export async function readMaintenance(db: Queryable): Promise<boolean> {
  const rows = await db.query<{ maintenance: boolean }>('select maintenance from service_state');
  return rows[0]?.maintenance ?? false;
}

export async function writeMaintenance(db: Queryable, on: boolean): Promise<void> {
  await db.query('update service_state set maintenance = $1, updated_date = now()', [on]);
}
