// SQL for the operator's switch, the sign that an import is running, and the embedded engine's VACUUM.
import type { Db, Queryable } from '../db/types.ts';

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

/**
 * Tables whose dead rows, counted since this process started, pass autovacuum's default threshold
 * (50 and a fifth of their live rows): each a quoted schema-qualified name, read from the catalogue.
 */
export async function tablesPastVacuumThreshold(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `select format('%I.%I', schemaname, relname) as name from pg_stat_user_tables
      where n_dead_tup > 50 + 0.2 * n_live_tup and schemaname not like 'pg\\_temp%'
      order by n_dead_tup desc`,
  );
  return rows.map((r) => r.name);
}

/**
 * VACUUM (ANALYZE) of these tables (names as tablesPastVacuumThreshold answers them): changed this
 * much, their statistics are stale too, and the embedded engine has no autoanalyze either. Or a
 * plain VACUUM of the whole database (analyzing every table took 3.5 s at 100,000 bibs, the vacuum
 * alone 0.3 s once every page had been vacuumed: 4.8 s the first time).
 */
export async function vacuumTables(db: Db, tables: string[] | 'all'): Promise<void> {
  await db.exec(tables === 'all' ? 'vacuum' : `vacuum (analyze) ${tables.join(', ')}`);
}
