// Holdings in MARC 21: a holdings record of its own (leader/06 u, v, x or y), linked by its 004 to
// the 001 of the bib it belongs to; or the holdings fields a bib carries itself, as many systems
// export them: an 852 (where) followed by its 853-868 (captions, enumeration, textual holdings).
import { LEADER } from '../marc/positions.ts';
import { isControlField, type DataField, type Field, type MarcRecord } from '../marc/record.ts';

/** Leader/06 of a holdings record: unknown, multipart, single-part, serial. */
export const HOLDINGS_RECORD_TYPES = new Set(['u', 'v', 'x', 'y']);

/** The fields that state holdings (captions and patterns 853-855, enumeration 863-865, textual 866-868). */
export const HOLDINGS_DATA_TAGS = ['853', '854', '855', '863', '864', '865', '866', '867', '868'];

export function isHoldingsRecord(record: MarcRecord): boolean {
  return HOLDINGS_RECORD_TYPES.has(record.leader[LEADER.recordType] ?? '');
}

const controlValue = (record: MarcRecord, tag: string) => {
  const field = record.fields.find((f) => f.tag === tag);
  return field && isControlField(field) ? field.value.trim() || undefined : undefined;
};

/** 852 $b: the location code, as written. */
export function holdingsLocation(record: MarcRecord): string | undefined {
  const f852 = record.fields.find((f): f is DataField => f.tag === '852' && !isControlField(f));
  return f852?.subfields.find((s) => s.code === 'b')?.value.trim() || undefined;
}

export interface HoldingsRecordKeys {
  /** Its own 001: loading a record with the same 001 again replaces it. */
  controlNumber?: string;
  /** 004: the 001 of its bib. */
  bibControlNumber?: string;
  location?: string;
}

export function holdingsRecordKeys(record: MarcRecord): HoldingsRecordKeys {
  return { controlNumber: controlValue(record, '001'), bibControlNumber: controlValue(record, '004'), location: holdingsLocation(record) };
}

/**
 * The holdings a bib states itself, each as a holdings record: every 852 starts one and the
 * 853-868 after it belong to it (those before any 852, to one without a location). An 852 with no
 * holdings statement after it describes a copy (an item: src/items/from-marc.ts), not holdings.
 */
export function holdingsOfBib(bib: MarcRecord): MarcRecord[] {
  const groups: Field[][] = [];
  let current: Field[] | undefined;
  let stated = false;
  const close = () => {
    if (current && stated) groups.push(current);
  };
  for (const field of bib.fields) {
    if (field.tag === '852') {
      close();
      current = [field];
      stated = false;
    } else if (HOLDINGS_DATA_TAGS.includes(field.tag)) {
      current ??= [];
      current.push(field);
      stated = true;
    }
  }
  close();
  const bibControl = controlValue(bib, '001');
  return groups.map((fields) => {
    const serial = fields.some((f) => /^8[56][345]$/.test(f.tag));
    // A holdings record's leader: y serial or x single-part; encoding level 4 (holdings level 4),
    // n no item information in it (items are records of their own).
    const leader = `00000n${serial ? 'y' : 'x'}  a22000004n 4500`;
    return { leader, fields: [...(bibControl ? [{ tag: '004', value: bibControl }] : []), ...fields] };
  });
}
