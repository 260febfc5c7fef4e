// Whether a patron may borrow, renew and place holds: the library's blocks (money owed, overdue
// items; the profile's `blocks`) and the patron's own (expired card, a manual block). Written once:
// holds and renewals refuse by it, the patron's autoBlockInfo and the legacy doors report it.
import { Decimal } from '../shared/money.ts';
import type { Settings } from './repository.ts';

export interface PatronStanding {
  expiration_date: string | null;
  block_code: string;
  money_owed: string;
  /** Checkouts due before today. */
  overdue: number;
}

export type Standing =
  | { ok: true }
  | { ok: false; reason: 'expired'; expirationDate: string }
  | { ok: false; reason: 'blocked'; blockCode: string }
  | { ok: false; reason: 'owesTooMuch'; owed: string; limit: string }
  | { ok: false; reason: 'tooManyOverdue'; overdue: number; limit: number };

/** The library's automatic blocks alone (what Sierra reports as autoBlockInfo). */
export function autoBlock(patron: PatronStanding, settings: Pick<Settings, 'maxMoneyOwed' | 'maxOverdueItems'>): Standing {
  if (settings.maxMoneyOwed !== null && new Decimal(patron.money_owed).gt(settings.maxMoneyOwed))
    return { ok: false, reason: 'owesTooMuch', owed: patron.money_owed, limit: settings.maxMoneyOwed };
  if (settings.maxOverdueItems !== null && patron.overdue >= settings.maxOverdueItems)
    return { ok: false, reason: 'tooManyOverdue', overdue: patron.overdue, limit: settings.maxOverdueItems };
  return { ok: true };
}

/** The patron's standing on `today`: the first reason it may not borrow, or ok. */
export function standing(patron: PatronStanding, today: string, settings: Pick<Settings, 'maxMoneyOwed' | 'maxOverdueItems'>): Standing {
  if (patron.expiration_date && patron.expiration_date < today)
    return { ok: false, reason: 'expired', expirationDate: patron.expiration_date };
  if (patron.block_code !== '-') return { ok: false, reason: 'blocked', blockCode: patron.block_code };
  return autoBlock(patron, settings);
}
