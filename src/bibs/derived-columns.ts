// The bibs table's columns derived from a record's MARC (derive.ts), one row each. Every statement
// that writes a bib (repository.ts) takes its column lists, parameters, COPY cells and recordset
// from this table, so a new derived column is one row here (and its migration).
import type { DerivedBib } from './derive.ts';

/**
 * What deleting a bib writes in the column, as SQL: 'null', "'{}'" (the array columns are not
 * null), or 'kept' (the tombstone keeps the last value).
 */
type OnDelete = 'null' | "'{}'" | 'kept';

/** A derived column: its name, its SQL type (as the recordset of a bulk write declares it), its value, and what deleting writes. */
export type DerivedColumn = readonly [column: string, sqlType: string, value: (d: DerivedBib) => unknown, onDelete: OnDelete];

// The order is the order of the COPY cells (the import's worker writes rows in it ahead of the
// statement) and of the statements' parameters.
export const DERIVED_COLUMNS: readonly DerivedColumn[] = [
  ['title', 'text', (d) => d.title, 'null'],
  ['author', 'text', (d) => d.author, 'null'],
  ['publish_year', 'integer', (d) => d.publishYear, 'kept'],
  ['lang', 'text', (d) => d.lang, 'kept'],
  ['country', 'text', (d) => d.country, 'kept'],
  ['bib_level', 'text', (d) => d.bibLevel, 'kept'],
  ['material_type', 'text', (d) => d.materialType, 'kept'],
  ['isbns', 'text[]', (d) => d.isbns, "'{}'"],
  ['issns', 'text[]', (d) => d.issns, "'{}'"],
  ['control_number', 'text', (d) => d.controlNumber, 'null'],
  ['control_source', 'text', (d) => d.controlSource, 'null'],
  ['system_numbers', 'text[]', (d) => d.systemNumbers, "'{}'"],
  ['marc_keys', 'text[]', (d) => d.marcKeys, "'{}'"],
];
