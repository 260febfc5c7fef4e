// Business refusals of acquisitions: code 132 with a specificCode per reason (README, "Acquisitions
// and use tax"). 400: the request names something that does not exist; 409: the records' state forbids it.
import { errors } from '../../http/errors.ts';
import { MAX_FUND_TOTAL } from '../../shared/money.ts';

export const SPECIFIC_CODES = {
  invoicePaid: 1,
  alreadyPaid: 2,
  suspended: 3,
  noLineItems: 4,
  unknownFund: 5,
  unknownUseTaxCode: 6,
  unknownVendor: 7,
  unknownBib: 8,
  duplicateInvoiceNumber: 9,
  currencyMismatch: 10,
  useTaxCodeInUse: 11,
  codeTaken: 12,
  fundTotalTooLarge: 13,
} as const;

const c = SPECIFIC_CODES;
const list = (values: readonly string[]) => values.join(', ');

export const refuse = {
  invoicePaid: (id: string) => errors.requestDenied(c.invoicePaid, `invoice ${id} is paid: a paid invoice cannot be changed or deleted`, 409),
  alreadyPaid: (id: string) => errors.requestDenied(c.alreadyPaid, `invoice ${id} is already paid`, 409),
  suspended: (id: string) => errors.requestDenied(c.suspended, `invoice ${id} is suspended (status s): set its status to o before paying it`, 409),
  noLineItems: (id: string) => errors.requestDenied(c.noLineItems, `invoice ${id} has no line items to pay`, 409),
  unknownFunds: (codes: readonly string[]) => errors.requestDenied(c.unknownFund, `no fund ${list(codes)}`),
  unknownUseTaxCode: (code: string) => errors.requestDenied(c.unknownUseTaxCode, `no use tax code ${code}`),
  unknownVendor: (code: string) => errors.requestDenied(c.unknownVendor, `no vendor ${code}`),
  unknownBibs: (ids: readonly string[]) => errors.requestDenied(c.unknownBib, `no bib ${list(ids)}`),
  duplicateInvoiceNumber: (invNum: string, vendor: string, id: string) =>
    errors.requestDenied(c.duplicateInvoiceNumber, `vendor ${vendor} already has invoice number ${invNum} (invoice ${id})`, 409),
  currencyMismatch: (detail: string) => errors.requestDenied(c.currencyMismatch, detail),
  useTaxCodeInUse: (code: string, invoices: number) =>
    errors.requestDenied(c.useTaxCodeInUse, `use tax code ${code} is used by ${invoices} invoice(s); change their code first, or set a new rate`, 409),
  fundTotalTooLarge: (codes: readonly string[]) =>
    errors.requestDenied(c.fundTotalTooLarge, `the totals of fund ${list(codes)} would exceed ${MAX_FUND_TOTAL}`),
  codeTaken: (what: string, code: string) => errors.requestDenied(c.codeTaken, `there is already a ${what} with code ${code}`, 409),
};
