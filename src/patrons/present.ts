// A patron as the API shows it: the established platform's patron object, fields chosen by
// `fields`. The PIN (its hash) is never part of it.
import { RECORD_FIELDS, recordPresenter, type Presenter } from '../http/present.ts';
import { fieldSet } from '../http/params.ts';
import { autoBlock } from '../library/standing.ts';
import type { Settings } from '../library/service.ts';
import { fixedFields, type FixedField } from '../shared/fixed-fields.ts';
import { instant } from '../shared/instant.ts';
import type { PatronRow } from './repository.ts';
import { answerVarFields, type PatronVarField } from './var-fields.ts';

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
    'patronCodes',
    'homeLibraryCode',
    'homeLibrary',
    'message',
    'blockInfo',
    'autoBlockInfo',
    'uniqueIds',
    'pMessage',
    'moneyOwed',
    'fixedFields',
    'varFields',
  ],
  [
    'deletedDate',
    'birthDate',
    'phones',
    'addresses',
    'patronCodes',
    'homeLibrary',
    'autoBlockInfo',
    'uniqueIds',
    'pMessage',
    'fixedFields',
    'varFields',
  ],
);

export type PatronField = (typeof PATRON_FIELDS.all)[number];

/** Fields read from the patron's loans and the library's blocks: a read asking for one asks for its circulation. */
export const CIRCULATION_FIELDS: readonly PatronField[] = ['autoBlockInfo', 'fixedFields'];

/** What presenting a patron read with its circulation needs: the library's blocks. */
export interface PatronContext {
  blocks?: Pick<Settings, 'maxMoneyOwed' | 'maxOverdueItems'>;
}

/** The library's automatic blocks: x owes more than the limit, o too many overdue items, - none. */
function autoBlockInfo(row: PatronRow, ctx: PatronContext): { code: string } | undefined {
  if (!ctx.blocks || row.overdue === undefined) return undefined;
  const found = autoBlock({ ...row, overdue: row.overdue }, ctx.blocks);
  return { code: found.ok ? '-' : found.reason === 'owesTooMuch' ? 'x' : 'o' };
}

/** Sierra's fixed-length fields of a patron (src/shared/fixed-fields.ts), from a row read with its circulation. */
function patronFixedFields(row: PatronRow): Record<string, FixedField> {
  const own = fixedFields('patron', {
    // Sierra answers the expiration date as an instant in fixedFields, as a day at the top level.
    43: row.expiration_date ? `${row.expiration_date}T00:00:00Z` : null,
    47: { value: row.patron_type, display: row.patron_type_desc },
    48: row.checkouts_total,
    50: row.current_checkouts,
    51: row.birth_date,
    53: row.home_library_code ? { value: row.home_library_code, display: row.home_library_name } : null,
    56: row.block_code,
    80: 'p',
    81: row.id,
    83: instant(row.created_date),
    84: instant(row.updated_date),
    96: Number(row.money_owed),
    163: row.last_circ_activity ? instant(row.last_circ_activity) : null,
  });
  // The library's own fields, labelled as its profile defines them; keys of integers list in number order.
  for (const v of row.fixed_values)
    own[v.number] = v.display ? { label: v.label, value: v.value, display: v.display } : { label: v.label, value: v.value };
  return own;
}

/** Sierra's patronCodes: the values of fields 44, 45, 46 and 126 where the library defines and the patron has them. */
function patronCodes(row: PatronRow): { pcode1: string; pcode2: string; pcode3: number; pcode4: number } {
  const of = (n: number) => row.fixed_values.find((v) => v.number === n)?.value;
  const number = (n: number) => {
    const v = of(n);
    return v !== undefined && /^\d{1,9}$/.test(v) ? Number(v) : 0;
  };
  return { pcode1: of(44) ?? '-', pcode2: of(45) ?? '-', pcode3: number(46), pcode4: number(126) };
}

/**
 * Sierra's variable-length fields of a patron: = when it has a PIN (never the PIN), b barcode, n
 * name, z email, t and p phones, a and h addresses (lines joined by $), u unique id, x note, m
 * message; each in the MARC form it was written in, if it was (src/patrons/var-fields.ts).
 */
function patronVarFields(row: PatronRow): PatronVarField[] {
  const plain = [
    ...row.barcodes.map((content) => ({ fieldTag: 'b', content })),
    ...row.names.map((content) => ({ fieldTag: 'n', content })),
    ...row.emails.map((content) => ({ fieldTag: 'z', content })),
    ...row.phones.map((p) => ({ fieldTag: p.type === 'p' ? 'p' : 't', content: p.number })),
    ...row.addresses.map((a) => ({ fieldTag: a.type === 'h' ? 'h' : 'a', content: a.lines.join('$') })),
    ...row.unique_ids.map((content) => ({ fieldTag: 'u', content })),
    ...row.notes.map((content) => ({ fieldTag: 'x', content })),
    ...(row.message ? [{ fieldTag: 'm', content: row.message }] : []),
  ];
  return answerVarFields(plain, row.marc_fields, row.has_pin);
}

export const presentPatron: Presenter<PatronRow, PatronField, PatronContext> = recordPresenter<PatronRow, PatronField, PatronContext>({
  names: (row) => row.names,
  barcodes: (row) => row.barcodes,
  expirationDate: (row) => row.expiration_date || undefined,
  birthDate: (row) => row.birth_date || undefined,
  emails: (row) => row.emails,
  phones: (row) => row.phones,
  addresses: (row) => row.addresses,
  patronType: (row) => row.patron_type,
  patronCodes,
  homeLibraryCode: (row) => row.home_library_code || undefined,
  homeLibrary: (row) =>
    row.home_library_code ? { code: row.home_library_code, name: row.home_library_name ?? row.home_library_code } : undefined,
  message: (row) => (row.message ? { code: '-', accountMessages: [row.message] } : undefined),
  blockInfo: (row) => ({ code: row.block_code }),
  autoBlockInfo,
  uniqueIds: (row) => row.unique_ids,
  pMessage: () => '-',
  moneyOwed: (row) => row.money_owed,
  fixedFields: patronFixedFields,
  varFields: patronVarFields,
});
