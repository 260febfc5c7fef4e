// What SIP2's message handlers (patron-messages.ts, circulation-messages.ts) are given by the
// kiosk's session (session.ts).
import type { Services } from '../domain.ts';
import type { SipAccount } from './accounts.ts';

export type SessionServices = Pick<Services, 'patrons' | 'holds' | 'circulation' | 'fines' | 'library' | 'items' | 'bibs' | 'sipAccounts'>;

/** Where a message's handlers log: a logger carrying the message's request id. */
export interface SipLog {
  info(o: object, m: string): void;
}

export interface SipContext {
  services: SessionServices;
  /** The account the kiosk logged in with. */
  account: SipAccount;
  log: SipLog;
  /** SIP2's date and time now, and today, in the library's time zone. */
  now(): Promise<{ date: string; today: string; timeZone: string }>;
  /** Whether a message's AO is the account's institution. */
  institutionOk(fields: Map<string, string[]>): boolean;
  /** An item's title: its first bib's. */
  title(bibIds: readonly string[]): Promise<string>;
  /**
   * The patron a checkout, renewal, payment or hold is for (AA, and AD checked when given), or why
   * not, and then whether the card is known to this account all the same (a wrong PIN: BL Y).
   */
  payer(fields: Map<string, string[]>): Promise<{ id: string; barcode: string } | { refused: string; known: boolean }>;
}

/** An item as SessionServices reads it. */
export type SipItem = NonNullable<Awaited<ReturnType<SessionServices['items']['byBarcode']>>>;
