// A holdings record as Sierra's API shows it (its checkin record): the bibs it belongs to, flags,
// dates, and on request its fixed fields (40 location) and its MARC holdings fields as varFields,
// where discovery layers read the summary holdings (866-868, field group h).
import { fieldSet } from '../http/params.ts';
import { RECORD_FIELDS, recordPresenter } from '../http/present.ts';
import { fixedFields } from '../shared/fixed-fields.ts';
import { instant } from '../shared/instant.ts';
import type { MarcInJson } from '../marc/marc-in-json.ts';
import { varFields } from '../bibs/var-fields.ts';
import type { HoldingRow } from './repository.ts';

export const HOLDING_FIELDS = fieldSet(
  [...RECORD_FIELDS, 'bibIds', 'bibIdLinks', 'itemIds', 'itemIdLinks', 'inheritLocation', 'fixedFields', 'varFields'],
  ['deletedDate', 'fixedFields', 'varFields'],
);
export type HoldingField = (typeof HOLDING_FIELDS.all)[number];

/** Sierra's field group of a MARC field in a holdings record. */
function fieldGroup(tag: string): string {
  if (tag === '852') return 'c';
  if (/^86[3-8]$/.test(tag)) return 'h';
  if (tag.startsWith('5')) return 'n';
  return 'y';
}

/** The record's leader and fields as Sierra's varFields. */
const holdingVarFields = (marc: MarcInJson) => [{ fieldTag: '_', content: marc.leader }, ...varFields(marc, fieldGroup)];

export interface HoldingContext {
  /** The API's base URL, for the links to bibs. */
  base: string;
}

const present = recordPresenter<HoldingRow, HoldingField, HoldingContext>({
  bibIds: (row) => [Number(row.bib_id)],
  bibIdLinks: (row, ctx) => [`${ctx.base}/bibs/${row.bib_id}`],
  // Items are not linked to holdings records: Sierra's empty lists.
  itemIds: () => [],
  itemIdLinks: () => [],
  inheritLocation: () => false,
  fixedFields: (row) =>
    fixedFields('holding', {
      40: row.location_code ? { value: row.location_code, display: row.location_name } : null,
      80: 'c',
      81: row.id,
      83: instant(row.created_date),
      84: instant(row.updated_date),
    }),
  varFields: (row) => (row.marc ? holdingVarFields(row.marc) : undefined),
});

/** Sierra numbers holdings records with integers (its bibs and items with strings). */
export function presentHolding(row: HoldingRow, fields: readonly HoldingField[], ctx: HoldingContext): Record<string, unknown> {
  const out = present(row, fields, ctx);
  return { ...out, id: Number(row.id) };
}
