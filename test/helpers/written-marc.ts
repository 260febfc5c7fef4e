// Records written in a test: a data field from its subfields, and a book from its title and fields.
import type { DataField, MarcRecord } from '../../src/marc/record.ts';

/** A data field with indicators 0 0. */
export const df = (tag: string, ...subfields: [string, string][]): DataField => ({
  tag,
  ind1: '0',
  ind2: '0',
  subfields: subfields.map(([code, value]) => ({ code, value })),
});

/** A book whose 245 $a is `title`, with these fields after it. */
export const bib = (title: string, ...fields: DataField[]): MarcRecord => ({
  leader: '00000nam a2200000 i 4500',
  fields: [df('245', ['a', title]), ...fields],
});
