// A patron as the API shows it: the established platform's patron object, fields chosen by
// `fields`. The PIN (its hash) is never part of it.
import { RECORD_FIELDS, recordPresenter, type Presenter } from '../http/present.ts';
import { fieldSet } from '../http/params.ts';
import type { PatronRow } from './repository.ts';

export const PATRON_FIELDS = fieldSet(
  [
    ...RECORD_FIELDS,
    'names',
    'barcodes',
    'expirationDate',
    'birthDate',
    'emails',
    'phones',
    'addresses',
    'patronType',
    'homeLibraryCode',
    'homeLibrary',
    'message',
    'blockInfo',
    'moneyOwed',
    'varFields',
  ],
  ['deletedDate', 'birthDate', 'phones', 'addresses', 'homeLibrary', 'varFields'],
);

export type PatronField = (typeof PATRON_FIELDS.all)[number];

/** The established platform's variable-length fields of a patron: b barcode, n name, z email, t phone, a address. */
function varFields(row: PatronRow): { fieldTag: string; content: string }[] {
  return [
    ...row.barcodes.map((content) => ({ fieldTag: 'b', content })),
    ...row.names.map((content) => ({ fieldTag: 'n', content })),
    ...row.emails.map((content) => ({ fieldTag: 'z', content })),
    ...row.phones.map((p) => ({ fieldTag: 't', content: p.number })),
    ...row.addresses.map((a) => ({ fieldTag: 'a', content: a.lines.join('$') })),
  ];
}

export const presentPatron: Presenter<PatronRow, PatronField> = recordPresenter<PatronRow, PatronField>({
  names: (row) => row.names,
  barcodes: (row) => row.barcodes,
  expirationDate: (row) => row.expiration_date || undefined,
  birthDate: (row) => row.birth_date || undefined,
  emails: (row) => row.emails,
  phones: (row) => row.phones,
  addresses: (row) => row.addresses,
  patronType: (row) => row.patron_type,
  homeLibraryCode: (row) => row.home_library_code || undefined,
  homeLibrary: (row) =>
    row.home_library_code ? { code: row.home_library_code, name: row.home_library_name ?? row.home_library_code } : undefined,
  message: (row) => (row.message ? { code: '-', accountMessages: [row.message] } : undefined),
  blockInfo: (row) => ({ code: row.block_code }),
  moneyOwed: (row) => row.money_owed,
  varFields,
});
