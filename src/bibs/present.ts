// A bib as the API shows it: the established platform's bib object, fields chosen by `fields`.
import { RECORD_FIELDS, recordPresenter, type Presenter } from '../http/present.ts';
import { fieldSet } from '../http/params.ts';
import { instant } from '../shared/instant.ts';
import { fixedFields, fixedFieldsJson, type FixedFieldNumber, type FixedValue } from '../shared/fixed-fields.ts';
import { ITEM_FIELDS, presentItem } from '../items/present.ts';
import type { ItemRow } from '../items/service.ts';
import { countryName } from './countries.ts';
import { BIB_LEVELS, languageName } from './codes.ts';
import type { BibRow } from './repository.ts';
import { varFields, writeVarFields } from './var-fields.ts';
import { RawJson } from '../shared/json-bytes.ts';

export const BIB_FIELDS = fieldSet(
  [
    ...RECORD_FIELDS,
    'available',
    'lang',
    'title',
    'author',
    'materialType',
    'bibLevel',
    'publishYear',
    'catalogDate',
    'country',
    'normTitle',
    'normAuthor',
    'varFields',
    'orders',
    'locations',
    'marc',
    'holdCount',
    'fixedFields',
    'items',
  ],
  ['deletedDate', 'normTitle', 'normAuthor', 'varFields', 'orders', 'locations', 'marc', 'holdCount', 'fixedFields', 'items'],
);

export type BibField = (typeof BIB_FIELDS.all)[number];

/** What a read of these fields needs besides the derived columns: the MARC, the items' locations and count. */
export const bibExtrasFor = (fields: readonly BibField[]) => ({
  marc: fields.includes('varFields') || fields.includes('marc'),
  holdings: fields.includes('fixedFields') || fields.includes('locations'),
  holds: fields.includes('holdCount'),
  orders: fields.includes('orders'),
});

/** Text folded for sorting and matching: lower case, no diacritics, no punctuation. */
export function normalizeText(text: string | null): string | null {
  if (text === null) return null;
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Sierra's fixed-length fields of a bib (src/shared/fixed-fields.ts). */
function bibFixedFields(row: BibRow): Partial<Record<FixedFieldNumber<'bib'>, FixedValue>> {
  const locations = (row.item_holdings?.locations ?? []).map((l) => l.code);
  return {
    24: row.lang ? { value: row.lang, display: languageName(row.lang) } : null,
    25: 0,
    26: locations.length === 1 ? locations[0]! : locations.length ? 'multi' : 'none',
    27: row.item_holdings?.copies ?? 0,
    28: row.catalog_date || null,
    29: row.bib_level ? { value: row.bib_level, display: BIB_LEVELS[row.bib_level] ?? row.bib_level } : null,
    30: row.material_type ? { value: row.material_type, display: row.material_type_desc ?? row.material_type } : null,
    // Bib Code 3 is where Sierra marks suppression: n = suppressed, - = shown.
    31: row.suppressed ? 'n' : '-',
    80: 'b',
    81: row.id,
    83: instant(row.created_date),
    84: instant(row.updated_date),
    89: row.country ? { value: row.country, display: countryName(row.country) } : null,
  };
}

export interface BibContext {
  /** The page's items by bib, when `items` is among the fields. */
  items?: Map<string, ItemRow[]>;
  /**
   * The answer is written by pageJson (src/shared/json-bytes.ts): the MARC (read as its stored
   * text) and the fixed fields are given as JSON that writes itself, not as objects.
   */
  asText?: boolean;
}

export const presentBib: Presenter<BibRow, BibField, BibContext> = recordPresenter<BibRow, BibField, BibContext>({
  available: (row) => row.item_holdings?.available ?? row.available ?? false,
  lang: (row) => (row.lang ? { code: row.lang, name: languageName(row.lang) } : undefined),
  title: (row) => row.title ?? undefined,
  author: (row) => row.author ?? undefined,
  materialType: (row) => (row.material_type ? { code: row.material_type, value: row.material_type_desc ?? row.material_type } : undefined),
  bibLevel: (row) => (row.bib_level ? { code: row.bib_level, value: BIB_LEVELS[row.bib_level] ?? row.bib_level } : undefined),
  publishYear: (row) => row.publish_year ?? undefined,
  catalogDate: (row) => row.catalog_date || undefined,
  country: (row) => (row.country ? { code: row.country, name: countryName(row.country) } : undefined),
  fixedFields: (row, { asText }) =>
    asText ? RawJson.text(fixedFieldsJson('bib', bibFixedFields(row))) : fixedFields('bib', bibFixedFields(row)),
  items: (row, { items }) => (items?.get(row.id) ?? []).map((item) => presentItem(item, ITEM_FIELDS.defaults)),
  normTitle: (row) => normalizeText(row.title),
  normAuthor: (row) => normalizeText(row.author),
  varFields: (row, { asText }) =>
    asText && row.marc_text ? new RawJson((out) => writeVarFields(row.marc_text!, out)) : row.marc ? varFields(row.marc) : undefined,
  orders: (row) => row.order_info ?? [],
  locations: (row) => row.item_holdings?.locations,
  marc: (row, { asText }) => (asText && row.marc_text ? RawJson.text(row.marc_text) : (row.marc ?? undefined)),
  holdCount: (row) => row.hold_count,
});
