// Refusals of the acquisitions domains (invoices, funds, vendors, use tax), a specificCode per reason
// (README, "Acquisitions and use tax"): refused when the request names something that does not
// exist, conflict when the records' state forbids it.
import { fail } from '../shared/errors.ts';
import { MAX_FUND_TOTAL } from '../shared/money.ts';

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
  partyIdTaken: 14,
  unknownLocation: 15,
  orderCancelled: 16,
  lineReferenceTaken: 17,
  orderNotOpen: 18,
  orderReceived: 19,
} as const;

const c = SPECIFIC_CODES;
const list = (values: readonly string[]) => values.join(', ');
/** "member: " before a refusal's text, naming the request member it is about. */
const at = (member: string | undefined) => (member ? `${member}: ` : '');

export const refuse = {
  invoicePaid: (id: string) => fail.conflict(c.invoicePaid, `invoice ${id} is paid: a paid invoice cannot be changed or deleted`),
  alreadyPaid: (id: string) => fail.conflict(c.alreadyPaid, `invoice ${id} is already paid`),
  suspended: (id: string) => fail.conflict(c.suspended, `invoice ${id} is suspended (status s): set its status to o before paying it`),
  noLineItems: (id: string) => fail.conflict(c.noLineItems, `invoice ${id} has no line items to pay`),
  unknownFunds: (codes: readonly string[], member?: string) => fail.refused(c.unknownFund, `${at(member)}no fund ${list(codes)}`),
  unknownUseTaxCode: (code: string) => fail.refused(c.unknownUseTaxCode, `no use tax code ${code}`),
  unknownVendor: (code: string, member?: string) => fail.refused(c.unknownVendor, `${at(member)}no vendor ${code}`),
  unknownBibs: (ids: readonly string[], member?: string) => fail.refused(c.unknownBib, `${at(member)}no bib ${list(ids)}`),
  unknownLocations: (codes: readonly string[], member: string) =>
    fail.refused(c.unknownLocation, `${at(member)}no location ${list(codes)}`),
  orderCancelled: (id: string, member?: string) => fail.conflict(c.orderCancelled, `${at(member)}order ${id} is cancelled`),
  lineReferenceTaken: (ref: string, id: string) =>
    fail.conflict(c.lineReferenceTaken, `lineReference: open order ${id} already has line reference ${ref}`),
  orderNotOpen: (id: string, why: string) => fail.conflict(c.orderNotOpen, `status: order ${id} ${why}`),
  orderReceived: (id: string, why: string) => fail.conflict(c.orderReceived, `receive: order ${id} ${why}`),
  duplicateInvoiceNumber: (invNum: string, vendor: string, id: string) =>
    fail.conflict(c.duplicateInvoiceNumber, `vendor ${vendor} already has invoice number ${invNum} (invoice ${id})`),
  currencyMismatch: (detail: string) => fail.refused(c.currencyMismatch, detail),
  useTaxCodeInUse: (code: string, invoices: number) =>
    fail.conflict(c.useTaxCodeInUse, `use tax code ${code} is used by ${invoices} invoice(s); change their code first, or set a new rate`),
  fundTotalTooLarge: (codes: readonly string[]) =>
    fail.refused(c.fundTotalTooLarge, `the totals of fund ${list(codes)} would exceed ${MAX_FUND_TOTAL}`),
  codeTaken: (what: string, code: string) => fail.conflict(c.codeTaken, `there is already a ${what} with code ${code}`),
  partyIdTaken: (id: string, vendor: string) =>
    fail.conflict(c.partyIdTaken, `party identifier ${id} already names vendor ${vendor}: an identifier names one vendor`),
};
