// What a MARC record may hold before Carrel keeps it, whatever door it came through: `carrel
// import` and POST/PUT /bibs, in ISO 2709, MARCXML or MARC-in-JSON. A record kept is served back
// in every one of those formats, ISO 2709 included, so it must fit ISO 2709's structure and
// lengths. The readers check only their own syntax (a JSON object's shape, XML, a directory); what
// the record they give may hold is said here, once, in the words both doors report.
//
// The import's fast ISO 2709 path (iso2709-json.ts) never calls this: it leaves to the general
// path every record this might refuse.
import { DIRECTORY_ENTRY, LEADER_LENGTH } from './positions.ts';
import { isControlField, isControlTag, type Field, type MarcRecord } from './record.ts';

/** ISO 2709's directory gives a field's length in four digits, its terminator counted. */
export const MAX_FIELD_BYTES = 9_999;
/** The leader gives the record's length in five digits, its terminator counted. */
export const MAX_RECORD_BYTES = 99_999;

// The leader: LEADER_LENGTH (24) ASCII characters.
// eslint-disable-next-line no-control-regex
const LEADER = /^[\u0000-\u007f]{24}$/;
// A tag is three ASCII letters or digits. (Small checks are written on character codes: every
// field of every imported record passes them.)
const isAlnum = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isTag = (tag: string) => tag.length === 3 && isAlnum(tag.charCodeAt(0)) && isAlnum(tag.charCodeAt(1)) && isAlnum(tag.charCodeAt(2));
// An indicator is one ASCII character: MARC 21 uses letters, digits and the blank; the fill
// character and other marks occur in real files and fit ISO 2709 as well.
const isIndicator = (ind: string) => ind.length === 1 && ind.charCodeAt(0) >= 0x20 && ind.charCodeAt(0) <= 0x7e;
// A subfield code is one graphic ASCII character (the MARCXML schema allows the same set).
const isSubfieldCode = (code: string) => code.length === 1 && code.charCodeAt(0) >= 0x21 && code.charCodeAt(0) <= 0x7e;

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

/**
 * A field's bytes as writeIso2709 writes it, terminator counted; or, when not `exact`, a bound on
 * them that costs no encoding (a UTF-16 unit is at most 3 bytes of UTF-8): most records are far
 * below the limits, and are checked without counting a byte.
 */
function fieldBytes(field: Field, exact: boolean): number {
  const size = exact ? (text: string) => Buffer.byteLength(text, 'utf8') : (text: string) => 3 * text.length;
  if (isControlField(field)) return size(field.value) + 1;
  let bytes = 2 + 1; // indicators, terminator
  for (const { value } of field.subfields) bytes += 2 + size(value); // the delimiter, the code, the text
  return bytes;
}

/** "9,999": the limits as the messages write them. */
const grouped = (n: number) => n.toLocaleString('en-US');

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
  const structure = LEADER_LENGTH + DIRECTORY_ENTRY.length * record.fields.length + 1 + 1;
  let recordBound = structure;
  for (const field of record.fields) {
    const problem = fieldProblem(field);
    if (problem !== undefined) return problem;
    let bytes = fieldBytes(field, false);
    if (bytes > MAX_FIELD_BYTES) bytes = fieldBytes(field, true);
    if (bytes > MAX_FIELD_BYTES) return `field ${field.tag} is ${bytes} bytes; ISO 2709 allows at most ${grouped(MAX_FIELD_BYTES)}`;
    recordBound += bytes;
  }
  if (recordBound <= MAX_RECORD_BYTES) return undefined;
  const recordBytes = record.fields.reduce((sum, field) => sum + fieldBytes(field, true), structure);
  if (recordBytes > MAX_RECORD_BYTES) return `the record is ${recordBytes} bytes; ISO 2709 allows at most ${grouped(MAX_RECORD_BYTES)}`;
  return undefined;
}

/** What is wrong with a field apart from its length. */
function fieldProblem(field: Field): string | undefined {
  const { tag } = field;
  if (!isTag(tag)) return `field ${JSON.stringify(tag)}: a tag is three ASCII letters or digits`;
  if (isControlField(field)) {
    if (!isControlTag(tag)) return `field ${tag} is a data field but has a plain value`;
    return forbidden(`field ${tag}`, field.value);
  }
  if (isControlTag(tag)) return `field ${tag} is a control field but has indicators and subfields`;
  if (!isIndicator(field.ind1)) return `field ${tag}: ind1 must be one ASCII character, not ${JSON.stringify(field.ind1)}`;
  if (!isIndicator(field.ind2)) return `field ${tag}: ind2 must be one ASCII character, not ${JSON.stringify(field.ind2)}`;
  for (const { code, value } of field.subfields) {
    if (!isSubfieldCode(code))
      return `field ${tag}: invalid subfield code ${JSON.stringify(code)} (a code is one ASCII letter, digit or mark)`;
    const bad = forbidden(`field ${tag} $${code}`, value);
    if (bad) return bad;
  }
  return undefined;
}
