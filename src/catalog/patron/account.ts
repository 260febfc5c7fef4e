// What a signed-in patron's pages show and do, through the services the REST API uses: the holds
// of GET /patrons/{id}/holds, the loans of GET /patrons/{id}/checkouts, the fines of
// GET /patrons/{id}/fines, moneyOwed of GET /patrons/{id}; a hold placed as
// POST /patrons/{id}/holds/requests places it, cancelled as DELETE /patrons/holds/{id} cancels it,
// frozen or moved as PUT /patrons/holds/{id} changes it, a loan renewed as
// POST /patrons/checkouts/{id}/renewal renews it; email and phone changed as PUT /patrons/{id}
// changes them (the PIN is changed through the sessions service, which keeps the session); the
// reading history of GET /patrons/{id}/checkouts/history, switched as its activationStatus route
// switches it (each for the session's own patron only). No rule is decided here. The account page
// reads those lists in one statement (account-repository.ts), from the SQL their modules publish.
import type { BibService } from '../../bibs/service.ts';
import type { BranchService } from '../../branches/service.ts';
import type { ReadingHistoryService } from '../../circulation/history/service.ts';
import type { CirculationService } from '../../circulation/service.ts';
import type { HoldRow, HoldService, HoldSummary } from '../../holds/service.ts';
import { isActive } from '../../holds/states.ts';
import type { PatronService } from '../../patrons/service.ts';
import type { Db } from '../../db/types.ts';
import type { PatronSessionService, Session } from '../../patron-sessions/index.ts';
import { dayIn, type Clock } from '../../shared/calendar.ts';
import { DomainError, fail } from '../../shared/errors.ts';
import { displayTitle } from '../describe.ts';
import { accountOf, accountSelect, type AccountRow } from './account-repository.ts';

/** As many holds, loans and fines as one page lists (the REST lists' own ceiling is higher). */
const PAGE_ROWS = 200;

export interface AccountHold {
  id: string;
  bibId: string;
  title: string;
  state: HoldRow['state'];
  frozen: boolean;
  pickupCode: string;
  pickupName: string;
  /** YYYY-MM-DD: the day the API's pickupByDate names, when the hold waits on the shelf. */
  pickupBy: string | undefined;
  priority: number | undefined;
  queueLength: number | undefined;
}

export interface AccountLoan {
  /** The checkout's id (GET /patrons/checkouts/{id}). */
  id: string;
  title: string;
  bibId: string | undefined;
  callNumber: string | null;
  /** YYYY-MM-DD */
  due: string;
  overdue: boolean;
}

export interface AccountFine {
  description: string;
  /** Still owed on this charge, in the library's currency units (e.g. "2.50"). */
  outstanding: string;
}

/** What the patron may change of their own record: the first email and the first telephone. */
export interface AccountDetails {
  email: string;
  phone: string;
}

export interface HistoryEntry {
  title: string;
  bibId: string | undefined;
  /** YYYY-MM-DD, the library's day it was borrowed. */
  borrowed: string;
}

export interface Account {
  name: string;
  /** Where a hold of this patron may be picked up, the home library first (pickupLocations). */
  pickupLocations: PickupLocation[];
  details: AccountDetails;
  /** Whether the patron keeps a reading history, and its newest entries first. */
  history: { on: boolean; entries: HistoryEntry[] };
  holds: AccountHold[];
  loans: AccountLoan[];
  fines: AccountFine[];
  moneyOwed: string;
}

/** A loan's renewal: its new due date (YYYY-MM-DD), or the renewal rules' specific code refusing it. */
export type Renewal = { loanId: string; due: string } | { loanId: string; refused: number };

export interface PickupLocation {
  code: string;
  name: string;
}

const cents = (amount: string) => Math.round(Number(amount) * 100);

export class PatronAccount {
  constructor(
    private readonly patrons: PatronService,
    private readonly holds: HoldService,
    private readonly circulation: CirculationService,
    private readonly bibs: BibService,
    private readonly branches: BranchService,
    private readonly readingHistory: ReadingHistoryService,
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly sessions: PatronSessionService,
  ) {}

  /**
   * Everything the account page shows, from one statement (account-repository.ts): the lists as
   * the services above give them, each bib's title from its derived column.
   */
  async account(patronId: string): Promise<Account> {
    const row = await accountOf(this.db, patronId, PAGE_ROWS);
    if (!row) throw fail.notFound(`no patron ${patronId}`);
    return this.fromRow(row);
  }

  /**
   * The live session the cookie names and its patron's account page, read with the session in one
   * statement (the page is read on every visit); undefined when there is no live session.
   */
  async accountOfSession(sessionId: string | undefined): Promise<{ session: Session; account: Account } | undefined> {
    const found = await this.sessions.readWith<AccountRow>(sessionId, (patron) => accountSelect(patron, PAGE_ROWS));
    if (!found) return undefined;
    if (!found.row) throw fail.notFound(`no patron ${found.session.patronId}`);
    return { session: found.session, account: this.fromRow(found.row) };
  }

  private fromRow(row: AccountRow): Account {
    const today = this.clock.today(row.time_zone);
    const title = (t: string | null) => (t ? displayTitle(t) : '');
    return {
      name: row.name ?? '',
      pickupLocations: homeFirst(row.locations, row.home_library_code),
      details: { email: row.emails[0] ?? '', phone: row.phones.find((p) => p.type === 't')?.number ?? '' },
      history: {
        on: row.history !== null,
        entries: (row.history ?? []).map((r) => ({
          title: title(r.title),
          bibId: r.bib_id ?? undefined,
          borrowed: dayIn(new Date(r.out_ms), row.time_zone),
        })),
      },
      holds: row.holds.map((h) => accountHold(h, title(h.title))),
      loans: row.loans.map((l) => ({
        id: l.id,
        title: title(l.title),
        bibId: l.bib_id ?? undefined,
        callNumber: l.call_number,
        due: l.due_date,
        overdue: l.due_date < today,
      })),
      fines: row.fines.map((f) => ({
        description: f.description ?? '',
        outstanding: ((cents(f.item_charge) + cents(f.processing_fee) + cents(f.billing_fee) - cents(f.paid_amount)) / 100).toFixed(2),
      })),
      moneyOwed: Number(row.money_owed ?? 0).toFixed(2),
    };
  }

  /** The pickup locations (GET /branches/pickupLocations), the patron's home library first. */
  async pickupLocations(patronId: string): Promise<PickupLocation[]> {
    const [patron, locations] = await Promise.all([this.patrons.get(patronId), this.branches.locations()]);
    return homeFirst(locations, patron.home_library_code);
  }

  /**
   * The patron's own active hold, with where it may be picked up (the home library first), for the
   * page that moves it; another patron's, or one no longer active, is no hold at all (notFound).
   */
  async holdToMove(patronId: string, holdId: string): Promise<{ hold: AccountHold; pickupLocations: PickupLocation[] }> {
    const [row, pickupLocations] = await Promise.all([this.holds.get(holdId), this.pickupLocations(patronId)]);
    if (row.patron_id !== patronId || !isActive(row.state)) throw fail.notFound(`no hold ${holdId}`);
    return { hold: accountHold(row, (await this.titles([row.bib_id])).get(row.bib_id) ?? ''), pickupLocations };
  }

  /** A title hold on the record; the hold rules' refusals as they come (HOLD_SPECIFIC_CODES). */
  placeHold(patronId: string, bibId: string, pickupLocation: string): Promise<string> {
    return this.holds.place(patronId, { recordType: 'b', recordNumber: bibId, pickupLocation });
  }

  /** Cancels the hold when it is the patron's own; another's is no hold at all (notFound). */
  cancelHold(patronId: string, holdId: string): Promise<void> {
    return this.holds.cancel(holdId, patronId);
  }

  /** Freezes or unfreezes the patron's own hold; another's is no hold at all (notFound). */
  freezeHold(patronId: string, holdId: string, freeze: boolean): Promise<void> {
    return this.holds.update(holdId, { freeze }, patronId);
  }

  /** Moves the patron's own hold to another pickup location; another's is no hold at all (notFound). */
  movePickup(patronId: string, holdId: string, pickupLocation: string): Promise<void> {
    return this.holds.update(holdId, { pickupLocation }, patronId);
  }

  /** Renews the patron's own loan: its new due date; another's is no loan at all (notFound). */
  async renew(patronId: string, loanId: string): Promise<string> {
    return (await this.circulation.renew(loanId, undefined, patronId)).due_date;
  }

  /** Renews each of the patron's loans that the rules let be renewed, as SIP2's Renew All does; the others with the rules' refusal. */
  async renewAll(patronId: string): Promise<Renewal[]> {
    const loans = await this.circulation.checkouts(patronId, PAGE_ROWS, 0);
    const done: Renewal[] = [];
    for (const loan of loans) {
      try {
        done.push({ loanId: loan.id, due: await this.renew(patronId, loan.id) });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        // Returned at the desk since the list was read: nothing left to renew.
        if (error.kind === 'notFound') continue;
        if (error.kind !== 'refused' && error.kind !== 'conflict') throw error;
        done.push({ loanId: loan.id, refused: error.specificCode });
      }
    }
    return done;
  }

  /**
   * Changes the patron's first email and first telephone (blank removes it), keeping any others,
   * through the rules of PUT /patrons/{id}. Answers which of the two those rules refused, nothing
   * written; undefined once saved.
   */
  async changeDetails(patronId: string, details: AccountDetails): Promise<keyof AccountDetails | undefined> {
    const patron = await this.patrons.get(patronId);
    const first = patron.phones.findIndex((p) => p.type === 't');
    const otherPhones = patron.phones.filter((_, i) => i !== first);
    const emails = details.email.trim() ? [details.email, ...patron.emails.slice(1)] : patron.emails.slice(1);
    const phones = details.phone.trim() ? [{ number: details.phone, type: 't' }, ...otherPhones] : otherPhones;
    try {
      await this.patrons.update(patronId, { emails, phones });
    } catch (error) {
      // The rules name the member they refuse (emails[0] ..., phones[0].number ...).
      if (error instanceof DomainError && error.kind === 'invalidInput')
        return (error.detail ?? '').startsWith('emails') ? 'email' : 'phone';
      throw error;
    }
    return undefined;
  }

  /** Turns the patron's reading history on or off (off deletes it). */
  setHistory(patronId: string, on: boolean): Promise<void> {
    return this.readingHistory.activate(patronId, on);
  }

  private async titles(bibIds: string[]): Promise<Map<string, string>> {
    const rows = await this.bibs.byIds([...new Set(bibIds)], {});
    return new Map([...rows].map(([id, row]) => [id, row.title ? displayTitle(row.title) : '']));
  }
}

function accountHold(h: Omit<HoldSummary, 'title'>, title: string): AccountHold {
  return {
    id: h.id,
    bibId: h.bib_id,
    title,
    state: h.state,
    frozen: h.frozen,
    pickupCode: h.pickup_location,
    pickupName: h.pickup_name,
    pickupBy: h.pickup_by ?? undefined,
    priority: h.priority ?? undefined,
    queueLength: h.queue_length ?? undefined,
  };
}

/** The locations that take holds for pickup, the patron's home library first. */
function homeFirst(locations: { code: string; name: string; pickup: boolean }[], home: string | null | undefined): PickupLocation[] {
  const pickup = locations.filter((l) => l.pickup).map((l) => ({ code: l.code, name: l.name }));
  return [...pickup.filter((l) => l.code === home), ...pickup.filter((l) => l.code !== home)];
}
