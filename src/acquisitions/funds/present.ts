// A fund as the API and the CLI show it, fields chosen by `fields`.
import { fieldSet } from '../../http/params.ts';
import { presenter } from '../../http/present.ts';
import { instant } from '../../shared/instant.ts';
import { formatMoney } from '../../shared/money.ts';
import type { FundRow } from './service.ts';

export const FUND_FIELDS = fieldSet([
  'code',
  'fundName',
  'accountingUnit',
  'currency',
  'appropriation',
  'expenditure',
  'encumbrance',
  'freeBalance',
  'note',
  'createdDate',
  'updatedDate',
]);
export type FundField = (typeof FUND_FIELDS.all)[number];

const present = presenter<FundRow, FundField>({
  code: (row) => row.code,
  fundName: (row) => row.fund_name,
  accountingUnit: (row) => row.accounting_unit,
  currency: (row) => row.currency,
  appropriation: (row) => formatMoney(row.appropriation),
  expenditure: (row) => formatMoney(row.expenditure),
  encumbrance: (row) => formatMoney(row.encumbrance),
  freeBalance: (row) => formatMoney(row.free_balance),
  note: (row) => row.note ?? undefined,
  createdDate: (row) => instant(row.created_date),
  updatedDate: (row) => instant(row.updated_date),
});

export function presentFund(row: FundRow, fields: readonly FundField[] = FUND_FIELDS.defaults): Record<string, unknown> {
  return present(row, fields);
}
