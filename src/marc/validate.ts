// What a MARC record may hold before Carrel keeps it, whatever door it came through: `carrel
// import` and POST/PUT /bibs, in ISO 2709, MARCXML or MARC-in-JSON. A record kept is served back
// in every one of those formats, ISO 2709 included, so it must fit ISO 2709's structure and
// lengths. The readers check only their own syntax (a JSON object's shape, XML, a directory); what
// the record they give may hold is said here, once, in the words both doors report.
//
// The import's fast ISO 2709 path (iso2709-json.ts) never calls this: it leaves to the general
// path every record this might refuse.
import { isControlField, isControlTag, type MarcRecord } from './record.ts';

/** ISO 2709's directory gives a field's length in four digits, its terminator counted. */
export const MAX_FIELD_BYTES = 9_999;
/** The leader gives the record's length in five digits, its terminator counted. */
export const MAX_RECORD_BYTES = 99_999;

// eslint-disable-next-line no-control-regex
const LEADER = /^[\u0000-\u007f]{24}$/;
const TAG = /^[0-9A-Za-z]{3}$/;
// An indicator is one ASCII character: MARC 21 uses letters, digits and the blank; the fill
// character and other marks occur in real files and fit ISO 2709 as well.
const INDICATOR = /^[\u0020-\u007e]$/;
// A subfield code is one graphic ASCII character (the MARCXML schema allows the same set).
const SUBFIELD_CODE = /^[\u0021-\u007e]$/;

// Characters no text of a record may hold. NUL: the database cannot store it. ESC: MARC-8's
// escape sequences are read (and so removed) when a MARC-8 record is decoded; one left in a
// Unicode record is an escape sequence nothing has read, and the import refuses the same bytes in
// a MARC-8 record as an unknown escape. 0x1D-0x1F: ISO 2709's record terminator, field terminator
// and subfield delimiter, which would cut the text where it is written.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000\u001b\u001d-\u001f]/;
const FORBIDDEN_NAMES: Record<string, string> = {
  '\u0000': 'a NUL (0x00), which cannot be stored',
  '\u001b': 'an ESC (0x1b): MARC-8 escape sequences are read in MARC-8 ISO 2709 records (leader/09 blank), never kept as text',
  '\u001d': 'a record terminator (0x1d), which ISO 2709 cannot carry in text',
  '\u001e': 'a field terminator (0x1e), which ISO 2709 cannot carry in text',
  '\u001f': 'a subfield delimiter (0x1f), which ISO 2709 cannot carry in text',
};

function forbidden(where: string, text: string): string | undefined {
  const found = FORBIDDEN.exec(text);
  return found ? `${where} holds ${FORBIDDEN_NAMES[found[0]]}` : undefined;
}

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** "9,999": the limits as the messages write them. */
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+$)/g, ',');

/**
 * Why the record cannot be kept, naming the field (the first one at fault), or undefined when it
 * can. Lengths are those of the record written as UTF-8 ISO 2709 (writeIso2709), terminators
 * counted, as its leader and directory would give them.
 */
export function marcProblem(record: MarcRecord): string | undefined {
  if (!LEADER.test(record.leader)) return 'the leader must be 24 ASCII characters';
  const inLeader = forbidden('the leader', record.leader);
  if (inLeader) return inLeader;
  // Leader, directory (12 bytes a field) and its terminator, the record terminator.
  let recordBytes = 24 + 12 * record.fields.length + 1 + 1;
  for (const field of record.fields) {
    const { tag } = field;
    if (!TAG.test(tag)) return `field ${JSON.stringify(tag)}: a tag is three ASCII letters or digits`;
    let fieldBytes = 1; // its terminator
    if (isControlField(field)) {
      if (!isControlTag(tag)) return `field ${tag} is a data field but has a plain value`;
      const bad = forbidden(`field ${tag}`, field.value);
      if (bad) return bad;
      fieldBytes += utf8Bytes(field.value);
    } else {
      if (isControlTag(tag)) return `field ${tag} is a control field but has indicators and subfields`;
      for (const [name, value] of [
        ['ind1', field.ind1],
        ['ind2', field.ind2],
      ] as const) {
        if (!INDICATOR.test(value)) return `field ${tag}: ${name} must be one ASCII character, not ${JSON.stringify(value)}`;
      }
      fieldBytes += 2;
      for (const { code, value } of field.subfields) {
        if (!SUBFIELD_CODE.test(code))
          return `field ${tag}: invalid subfield code ${JSON.stringify(code)} (a code is one ASCII letter, digit or mark)`;
        const bad = forbidden(`field ${tag} $${code}`, value);
        if (bad) return bad;
        fieldBytes += 2 + utf8Bytes(value); // the delimiter, the code, the text
      }
    }
    if (fieldBytes > MAX_FIELD_BYTES) return `field ${tag} is ${fieldBytes} bytes; ISO 2709 allows at most ${grouped(MAX_FIELD_BYTES)}`;
    recordBytes += fieldBytes;
  }
  if (recordBytes > MAX_RECORD_BYTES) return `the record is ${recordBytes} bytes; ISO 2709 allows at most ${grouped(MAX_RECORD_BYTES)}`;
  return undefined;
}
