// Loads the demo catalogue into a database that has no bibs yet (never over a library's data).
import { deriveBib } from '../bibs/derive.ts';
import { countBibs, insertBibs } from '../bibs/repository.ts';
import { stamp } from '../db/change-clock.ts';
import type { Db } from '../db/types.ts';
import { toMarcInJson } from '../marc/marc-in-json.ts';
import { demoRecords } from './catalogue.ts';

/** The number of demo records loaded: 0 when the database already has bibs. */
export async function loadDemoIfEmpty(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const at = await stamp(tx); // also serialises two processes starting together
    if ((await countBibs(tx)) > 0) return 0;
    const records = demoRecords();
    await insertBibs(tx, records.map((marc) => ({ marc: toMarcInJson(marc), derived: deriveBib(marc) })), at);
    return records.length;
  });
}
