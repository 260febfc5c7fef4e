// The embedded engine (PGlite) runs no autovacuum: it is one backend, with no background worker to
// run it. Without VACUUM the space of a row updated or deleted is never used again, and the data
// directory grows with every write (20,000 rows updated in full 20 times: 3.4 MB → 60 MB; after one
// VACUUM, ten more such updates took it to 62 MB). So a server on the embedded engine vacuums the
// tables autovacuum would choose, by the dead rows counted since the process started; its first
// pass vacuums the whole database, whose dead rows from earlier runs no count knows of.
import type { Db } from '../db/types.ts';
import { tablesPastVacuumThreshold, vacuumTables } from './repository.ts';

/** One pass at a time (operations/periodic.ts): what it vacuumed, every table ('all') or those named. */
export function embeddedVacuum(db: Db): () => Promise<string[] | 'all'> {
  let first = true;
  return async () => {
    if (first) {
      await vacuumTables(db, 'all');
      first = false;
      return 'all';
    }
    const tables = await tablesPastVacuumThreshold(db);
    if (tables.length > 0) await vacuumTables(db, tables);
    return tables;
  };
}
