// A vendor as the API and the CLI show it, fields chosen by `fields`.
import { fieldSet } from '../../http/params.ts';
import { presenter } from '../../http/present.ts';
import { instant } from '../../shared/instant.ts';
import type { VendorRow } from './service.ts';

export const VENDOR_FIELDS = fieldSet([
  'id',
  'code',
  'vendorName',
  'accountingUnit',
  'address1',
  'address2',
  'contact',
  'email',
  'phone',
  'acctNum',
  'createdDate',
  'updatedDate',
]);
export type VendorField = (typeof VENDOR_FIELDS.all)[number];

const present = presenter<VendorRow, VendorField>({
  id: (row) => row.id,
  code: (row) => row.code,
  vendorName: (row) => row.vendor_name,
  accountingUnit: (row) => row.accounting_unit,
  address1: (row) => row.address1 ?? undefined,
  address2: (row) => row.address2 ?? undefined,
  contact: (row) => row.contact ?? undefined,
  email: (row) => row.email ?? undefined,
  phone: (row) => row.phone ?? undefined,
  acctNum: (row) => row.acct_num ?? undefined,
  createdDate: (row) => instant(row.created_date),
  updatedDate: (row) => instant(row.updated_date),
});

export function presentVendor(row: VendorRow, fields: readonly VendorField[] = VENDOR_FIELDS.defaults): Record<string, unknown> {
  return present(row, fields);
}
