// The fields Carrel keeps beside each MARC record, derived from it: what lists, filters and
// (later) search use without reading MARC.
import { F008, LEADER } from '../marc/positions.ts';
import { isControlField, type DataField, type MarcRecord } from '../marc/record.ts';

export interface DerivedBib {
  title: string | null;
  author: string | null;
  publishYear: number | null;
  lang: string | null;
  country: string | null;
  bibLevel: string | null;
  materialType: string;
  isbns: string[];
  issns: string[];
  controlNumber: string | null;
  controlSource: string | null;
  systemNumbers: string[];
  /**
   * The keys migration 0076's carrel_marc_keys(marc_keys) indexes for JSON queries on 001, 020, 022
   * and 035, before PostgreSQL lowers them (marcKeys).
   */
  marcKeys: string[];
}

const control = (record: MarcRecord, tag: string) => {
  const field = record.fields.find((f) => f.tag === tag && isControlField(f));
  return field && isControlField(field) ? field.value : undefined;
};
const dataFields = (record: MarcRecord, tags: string[]) =>
  record.fields.filter((f): f is DataField => tags.includes(f.tag) && !isControlField(f));
const subfields = (field: DataField | undefined, codes: string) =>
  field ? field.subfields.filter((sf) => codes.includes(sf.code)).map((sf) => sf.value) : [];

/** ISBD punctuation that ends a MARC subfield (" /", " :", ",", ".") is not part of the value. */
export function trimPunctuation(text: string): string {
  // Trimmed, not matched by /\s*[/:;,=]\s*$/: a subfield of spaces would make that try each start against the end.
  const end = text.trimEnd();
  const unpunctuated = /[/:;,=]$/.test(end) ? end.slice(0, -1).trimEnd() : text;
  return unpunctuated.replace(/(?<![A-Z]|\.\.)\.$/, '').trim();
}

// MARC 21 records often carry decomposed Unicode (e + combining macron); the derived text is
// composed (NFC) so that it compares and displays as people type it. The MARC stays as it came.
const joined = (parts: string[]) => {
  const text = trimPunctuation(
    parts
      .map((p) => p.trim())
      .filter(Boolean)
      .join(' '),
  ).normalize('NFC');
  return text || null;
};

/** ISBN digits (X kept), hyphens and spaces dropped, the qualifier after the number ignored. */
export function normalizeIsbn(raw: string): string | undefined {
  const match = /^\s*([0-9Xx][0-9Xx\s-]{8,20})/.exec(raw);
  const digits = match?.[1]?.replace(/[\s-]/g, '').toUpperCase();
  if (!digits) return undefined;
  if (/^\d{9}[\dX]$/.test(digits) || /^\d{13}$/.test(digits)) return digits;
  return undefined;
}

export function normalizeIssn(raw: string): string | undefined {
  const digits = raw.replace(/[\s-]/g, '').toUpperCase().slice(0, 8);
  return /^\d{7}[\dX]$/.test(digits) ? `${digits.slice(0, 4)}-${digits.slice(4)}` : undefined;
}

/** The material type code of migration 0002's table, from leader/06-07, 008 and 007 (MARC 21 rules). */
export function materialTypeOf(record: MarcRecord): string {
  const type = record.leader[LEADER.recordType] ?? 'a';
  const level = record.leader[LEADER.bibLevel] ?? 'm';
  const f008 = control(record, '008') ?? '';
  const f007 = control(record, '007') ?? '';
  switch (type) {
    case 'a':
      if (level === 's' || level === 'i' || level === 'b') return 's';
      // 008/23 form of item: o online, q direct electronic, s electronic; or a computer-file 007.
      return 'oqs'.includes(f008[F008.formOfItem] ?? ' ') || f007[0] === 'c' ? 'e' : 'a';
    case 't':
      return 't';
    case 'c':
    case 'd':
      return 'c';
    case 'e':
    case 'f':
      return 'm';
    case 'g':
      return 'g';
    case 'i':
      return 'i';
    case 'j':
      return 'j';
    case 'k':
      return 'k';
    case 'm':
      return 'f';
    case 'o':
      return 'o';
    case 'p':
      return 'p';
    case 'r':
      return 'r';
    default:
      return 'a';
  }
}

/**
 * Every tag deriveBib reads. The import decodes only these fields of a record (and its item
 * fields), so a tag read below must be listed here.
 */
export const DERIVED_FROM_TAGS = ['001', '003', '007', '008', '020', '022', '035', '100', '110', '111', '245', '260', '264'] as const;

/** The tags whose values JSON queries compare from an index (src/query/repository.ts, KEYED_TAGS). */
const KEYED_TAGS = new Set(['001', '020', '022', '035']);

/** PostgreSQL's trim(text): spaces only, not tabs or other white space. */
function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) === 0x20) end--;
  return text.slice(start, end);
}

/**
 * What migration 0028's carrel_marc_keys(json) gave from the stored MARC-in-JSON, but not yet
 * lowered: "001:value", "020a:" and its $a subfields joined by spaces, "020:" and all its
 * subfields joined, each trimmed of spaces. PostgreSQL lowers them as it indexes them (migration
 * 0076), with its own lower(), so a key is the same whatever the database's locale; doing it here
 * saves PostgreSQL reading each record's MARC as jsonb at every write.
 */
export function marcKeys(record: MarcRecord): string[] {
  const keys = new Set<string>();
  for (const field of record.fields) {
    if (!KEYED_TAGS.has(field.tag)) continue;
    if (isControlField(field)) {
      keys.add(`${field.tag}:${trimSpaces(field.value)}`);
      continue;
    }
    const a = field.subfields.filter((sf) => sf.code === 'a');
    if (a.length) keys.add(`${field.tag}a:${trimSpaces(a.map((sf) => sf.value).join(' '))}`);
    if (field.subfields.length) keys.add(`${field.tag}:${trimSpaces(field.subfields.map((sf) => sf.value).join(' '))}`);
  }
  return [...keys];
}

export function deriveBib(record: MarcRecord): DerivedBib {
  const f008 = control(record, '008') ?? '';
  const title = dataFields(record, ['245'])[0];
  const author = dataFields(record, ['100', '110', '111'])[0];
  const date1 = f008.slice(...F008.date1);
  const year008 = /^\d{4}$/.test(date1) ? Number(date1) : null;
  const imprint = dataFields(record, ['264', '260'])
    .flatMap((f) => subfields(f, 'c'))
    .join(' ');
  const yearImprint = /\b(1[0-9]{3}|20[0-9]{2})\b/.exec(imprint)?.[1];
  const code = (text: string) => (text.trim() && !/^[|#\s]+$/.test(text) ? text.trim() : null);
  return {
    title: joined(subfields(title, 'abnp')),
    author: joined(subfields(author, 'abcdq')),
    publishYear: year008 ?? (yearImprint ? Number(yearImprint) : null),
    lang: code(f008.slice(...F008.language)),
    country: code(f008.slice(...F008.place)),
    bibLevel: code(record.leader[LEADER.bibLevel] ?? ''),
    materialType: materialTypeOf(record),
    isbns: [
      ...new Set(
        dataFields(record, ['020'])
          .flatMap((f) => subfields(f, 'a'))
          .map(normalizeIsbn)
          .filter((v): v is string => !!v),
      ),
    ],
    issns: [
      ...new Set(
        dataFields(record, ['022'])
          .flatMap((f) => subfields(f, 'a'))
          .map(normalizeIssn)
          .filter((v): v is string => !!v),
      ),
    ],
    controlNumber: control(record, '001')?.trim() || null,
    controlSource: control(record, '003')?.trim() || null,
    systemNumbers: [
      ...new Set(
        dataFields(record, ['035'])
          .flatMap((f) => subfields(f, 'a'))
          .map((v) => v.replace(/\s+/g, ''))
          .filter(Boolean),
      ),
    ],
    marcKeys: marcKeys(record),
  };
}
