// Hand-made MARC records for the limits of ISO 2709: a field or a record of an exact size in
// bytes, as writeIso2709 writes it (UTF-8, terminators counted).
import type { DataField, MarcRecord } from '../../src/marc/record.ts';

export const LEADER = '00000nam a2200000 a 4500';

/** A data field of exactly `bytes` bytes written: indicators, one $a of ASCII text, terminator. */
export function fieldOfBytes(tag: string, bytes: number, letter = 'x'): DataField {
  return { tag, ind1: ' ', ind2: ' ', subfields: [{ code: 'a', value: letter.repeat(bytes - 5) }] };
}

/** A small bibliographic record (001, 245) with these fields after them. */
export function bib(title: string, ...more: DataField[]): MarcRecord {
  return {
    leader: LEADER,
    fields: [
      { tag: '001', value: `t${title.length}` },
      { tag: '245', ind1: '1', ind2: '0', subfields: [{ code: 'a', value: title }] },
      ...more,
    ],
  };
}

/**
 * A bibliographic record of exactly `total` bytes written, made of fields of at most 9,999 bytes
 * (520 notes, each 12 bytes of directory besides).
 */
export function recordOfBytes(total: number): MarcRecord {
  const record = bib('Maximal');
  // Leader, directory terminator, record terminator; 001 "t7" and 245 "Maximal" with their entries.
  let left = total - (24 + 1 + 1) - (12 + 3) - (12 + 12);
  const sizes: number[] = [];
  while (left > 0) {
    let size = Math.min(9_999, left - 12);
    // The last note must be a field (5 bytes at least): take from this one to leave room for it.
    if (left - 12 - size > 0 && left - 12 - size < 12 + 5) size -= 12 + 5;
    sizes.push(size);
    left -= 12 + size;
  }
  if (left !== 0) throw new Error(`no record of ${total} bytes from these fields`);
  for (const size of sizes) record.fields.push(fieldOfBytes('520', size));
  return record;
}
