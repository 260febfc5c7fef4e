// SQL of the catalogue's account page: the patron and every list the page shows, read in one
// statement (one round trip, where reading each list by its service took eleven). Each list's
// SQL, and so what counts as an active hold, an open loan or a fine still owed, is its own
// module's (the fragments their services publish: holdRows, loanRows, fineRows, historyRows); this file only puts them side by side.
import { locationRows } from '../../branches/service.ts';
import { historyRows, type HistoryWithTitle } from '../../circulation/history/service.ts';
import { loanRows, type LoanWithTitle } from '../../circulation/service.ts';
import type { Queryable } from '../../db/types.ts';
import { fineRows, type FineRow } from '../../fines/service.ts';
import { holdRows, type HoldSummary } from '../../holds/service.ts';
import { settingsSql } from '../../library/service.ts';
import type { Phone } from '../../patrons/service.ts';

export interface AccountRow {
  name: string | null;
  emails: string[];
  phones: Phone[];
  home_library_code: string | null;
  money_owed: string | null;
  time_zone: string;
  locations: { code: string; name: string; pickup: boolean }[];
  holds: HoldSummary[];
  loans: LoanWithTitle[];
  fines: Omit<FineRow, 'assessed_date'>[];
  /** Null when the patron keeps no reading history. */
  history: HistoryWithTitle[] | null;
}

/**
 * The statement reading the live patron's account page, each list at most `limit` rows; `patron`
 * is the SQL expression of the patron's id (a parameter, or a session's patron_id read with it).
 */
export function accountSelect(patron: string, limit: number): string {
  return `select p.names[1] as name, p.emails, p.phones, p.home_library_code, p.money_owed::text as money_owed,
       ${settingsSql.timeZone} as time_zone, ${locationRows.allJson} as locations,
       ${holdRows.activeOfPatronJson('p.id', limit)} as holds,
       ${loanRows.openOfPatronJson('p.id', limit)} as loans,
       ${fineRows.owedOfPatronJson('p.id', limit)} as fines,
       case when p.reading_history then ${historyRows.ofPatronJson('p.id', limit)} end as history
     from patrons p where p.id = ${patron} and p.deleted_date is null`;
}

/** The live patron's account page, each list at most `limit` rows; undefined when there is no such patron. */
export async function accountOf(db: Queryable, patronId: string, limit: number): Promise<AccountRow | undefined> {
  return (await db.query<AccountRow>(accountSelect('$1', limit), [patronId]))[0];
}
