// Rules for funds: the library sets code, name and appropriation; invoices keep expenditure and
// encumbrance (src/acquisitions/invoices/service.ts). Writes stamp the change clock like every
// record write.
import { stamp } from '../../db/change-clock.ts';
import type { Db, Queryable } from '../../db/types.ts';
import { fail } from '../../shared/errors.ts';
import { Decimal, MAX_BALANCE, MAX_FUND_TOTAL, parseMoney } from '../../shared/money.ts';
import { refuse } from '../refusals.ts';
import * as repo from './repository.ts';

export type { FundRow } from './repository.ts';

const CODE = /^[a-z0-9]{1,15}$/;

/** A fund code; refused as 108 in a path or query parameter, 126 in a request body. */
export function parseFundCode(field: string, raw: string, from: 'parameter' | 'body' = 'parameter'): string {
  if (!CODE.test(raw)) {
    const why = `${field}: "${raw}" is not a fund code (1 to 15 lower-case letters or digits)`;
    throw from === 'body' ? fail.invalidInput(why) : fail.invalidParameter(why);
  }
  return raw;
}

export function parseCurrency(field: string, raw: string): string {
  const code = raw.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) throw fail.invalidInput(`${field}: "${raw}" is not an ISO 4217 currency code such as USD`);
  return code;
}

function text(field: string, raw: string | undefined | null, max: number, required = false): string | null | undefined {
  if (raw === undefined) return undefined;
  const value = (raw ?? '').trim();
  if (!value) {
    if (required) throw fail.invalidInput(`${field} must not be empty`);
    return null;
  }
  if (value.length > max) throw fail.invalidInput(`${field}: at most ${max} characters`);
  return value;
}

function accountingUnit(raw: number | undefined): number | undefined {
  if (raw !== undefined && (!Number.isInteger(raw) || raw < 0 || raw > 999))
    throw fail.invalidInput('accountingUnit must be a whole number from 0 to 999');
  return raw;
}

export interface FundInput {
  code: string;
  fundName: string;
  accountingUnit?: number;
  currency?: string;
  appropriation?: string;
  expenditure?: string;
  encumbrance?: string;
  note?: string | null;
}

export interface FundUpdate {
  fundName?: string;
  accountingUnit?: number;
  appropriation?: string;
  note?: string | null;
}

export class FundService {
  constructor(private readonly db: Db) {}

  list(limit: number, offset: number): Promise<repo.FundRow[]> {
    return repo.listFunds(this.db, limit, offset);
  }

  async get(code: string): Promise<repo.FundRow> {
    const row = await repo.getFund(this.db, parseFundCode('code', code));
    if (!row) throw fail.notFound(`no fund ${code}`);
    return row;
  }

  /** Creates a fund; expenditure and encumbrance are opening balances (default 0). Answers the code. */
  async create(input: FundInput): Promise<string> {
    const fund: repo.NewFund = {
      code: parseFundCode('code', input.code, 'body'),
      fundName: text('fundName', input.fundName, 100, true)!,
      accountingUnit: accountingUnit(input.accountingUnit) ?? 0,
      currency: input.currency === undefined ? 'USD' : parseCurrency('currency', input.currency),
      appropriation: parseMoney('appropriation', input.appropriation ?? '0', MAX_BALANCE).toFixed(2),
      expenditure: parseMoney('expenditure', input.expenditure ?? '0', MAX_BALANCE).toFixed(2),
      encumbrance: parseMoney('encumbrance', input.encumbrance ?? '0', MAX_BALANCE).toFixed(2),
      note: text('note', input.note, 500) ?? null,
    };
    const created = await this.db.transaction(async (tx) => repo.insertFund(tx, fund, await stamp(tx)));
    if (!created) throw refuse.codeTaken('fund', fund.code);
    return fund.code;
  }

  /** Changes name, accounting unit, appropriation or note. Expenditure and encumbrance belong to invoices. */
  async update(code: string, input: FundUpdate): Promise<void> {
    const changes: repo.FundChanges = {
      fundName: text('fundName', input.fundName, 100, true) ?? undefined,
      accountingUnit: accountingUnit(input.accountingUnit),
      appropriation:
        input.appropriation === undefined ? undefined : parseMoney('appropriation', input.appropriation, MAX_BALANCE).toFixed(2),
      note: text('note', input.note, 500),
    };
    const found = await this.db.transaction(async (tx) => repo.updateFund(tx, parseFundCode('code', code), changes, await stamp(tx)));
    if (!found) throw fail.notFound(`no fund ${code}`);
  }

  /** These funds (those that exist), read in the caller's transaction. */
  byCodes(tx: Queryable, codes: readonly string[]): Promise<repo.FundRow[]> {
    return repo.fundsByCode(tx, codes);
  }

  /**
   * Moves money between a fund's encumbrance and expenditure, in the caller's transaction (an
   * invoice's write or payment), the funds locked first. A fund's balances are numeric(18, 2):
   * refused (400 code 132) before a sum could overflow them.
   */
  async changeBalances(tx: Queryable, changes: readonly repo.BalanceChange[], at: Date): Promise<void> {
    if (changes.length === 0) return;
    const locked = await repo.lockBalances(
      tx,
      changes.map((c) => c.fundId),
    );
    const byId = new Map(locked.map((f) => [Number(f.id), f]));
    const over = changes.flatMap((c) => {
      const f = byId.get(c.fundId);
      if (!f) return [];
      const tooLarge =
        new Decimal(f.encumbrance).plus(c.encumbrance).greaterThan(MAX_FUND_TOTAL) ||
        new Decimal(f.expenditure).plus(c.expenditure).greaterThan(MAX_FUND_TOTAL);
      return tooLarge ? [f.code] : [];
    });
    if (over.length) throw refuse.fundTotalTooLarge(over);
    await repo.addToBalances(tx, changes, at);
  }
}
