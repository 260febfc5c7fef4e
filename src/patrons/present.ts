// A patron as the API shows it: the established platform's patron object, fields chosen by
// `fields`. The PIN (its hash) is never part of it.
import { sharedField, tombstone } from '../http/record.ts';
import type { FieldSet } from '../http/params.ts';
import type { PatronRow } from './repository.ts';

export const PATRON_FIELDS = {
  all: ['id', 'updatedDate', 'createdDate', 'deletedDate', 'deleted', 'suppressed', 'names', 'barcodes', 'expirationDate', 'birthDate',
    'emails', 'phones', 'addresses', 'patronType', 'homeLibraryCode', 'homeLibrary', 'message', 'blockInfo', 'moneyOwed', 'varFields'] as const,
  defaults: ['id', 'updatedDate', 'createdDate', 'deleted', 'suppressed', 'names', 'barcodes', 'expirationDate', 'emails', 'patronType',
    'homeLibraryCode', 'message', 'blockInfo', 'moneyOwed'] as const,
} satisfies FieldSet<string>;

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

export function presentPatron(row: PatronRow, fields: readonly PatronField[]): Record<string, unknown> {
  const gone = tombstone(row);
  if (gone) return gone;
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    if (sharedField(row, field, out)) continue;
    switch (field) {
      case 'names': out.names = row.names; break;
      case 'barcodes': out.barcodes = row.barcodes; break;
      case 'expirationDate': if (row.expiration_date) out.expirationDate = row.expiration_date; break;
      case 'birthDate': if (row.birth_date) out.birthDate = row.birth_date; break;
      case 'emails': out.emails = row.emails; break;
      case 'phones': out.phones = row.phones; break;
      case 'addresses': out.addresses = row.addresses; break;
      case 'patronType': out.patronType = row.patron_type; break;
      case 'homeLibraryCode': if (row.home_library_code) out.homeLibraryCode = row.home_library_code; break;
      case 'homeLibrary': if (row.home_library_code) out.homeLibrary = { code: row.home_library_code, name: row.home_library_name ?? row.home_library_code }; break;
      case 'message': if (row.message) out.message = { code: '-', accountMessages: [row.message] }; break;
      case 'blockInfo': out.blockInfo = { code: row.block_code }; break;
      case 'moneyOwed': out.moneyOwed = row.money_owed; break;
      case 'varFields': out.varFields = varFields(row); break;
      case 'deletedDate': break; // only tombstones carry it
    }
  }
  return out;
}
