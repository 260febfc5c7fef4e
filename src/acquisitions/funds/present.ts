// A fund as the API and the CLI show it, fields chosen by `fields`.
import type { FieldSet } from '../../http/params.ts';
import { pickFields } from '../../http/present.ts';
import { instant } from '../../shared/instant.ts';
import { formatMoney } from '../../shared/money.ts';
import type { FundRow } from './service.ts';

export const FUND_FIELDS = {
  all: ['code', 'fundName', 'accountingUnit', 'currency', 'appropriation', 'expenditure', 'encumbrance', 'freeBalance', 'note', 'createdDate', 'updatedDate'] as const,
  defaults: ['code', 'fundName', 'accountingUnit', 'currency', 'appropriation', 'expenditure', 'encumbrance', 'freeBalance', 'note', 'createdDate', 'updatedDate'] as const,
} satisfies FieldSet<string>;
export type FundField = (typeof FUND_FIELDS.all)[number];

export function presentFund(row: FundRow, fields: readonly FundField[] = FUND_FIELDS.defaults): Record<string, unknown> {
  const all: Record<FundField, unknown> = {
    code: row.code,
    fundName: row.fund_name,
    accountingUnit: row.accounting_unit,
    currency: row.currency,
    appropriation: formatMoney(row.appropriation),
    expenditure: formatMoney(row.expenditure),
    encumbrance: formatMoney(row.encumbrance),
    freeBalance: formatMoney(row.free_balance),
    note: row.note ?? undefined,
    createdDate: instant(row.created_date),
    updatedDate: instant(row.updated_date),
  };
  return pickFields(all, fields);
}
