// A record's full description for readers, from its MARC: the parts a catalogue shows, with the
// cataloguer's punctuation (ISBD's " /", " :", trailing full stops) taken off, since the page
// lays the parts out itself.
import { isControlField, type DataField, type MarcRecord } from '../marc/record.ts';

export interface Contributor {
  name: string;
  role?: string;
}

export interface Description {
  title: string;
  subtitle?: string;
  responsibility?: string;
  authors: Contributor[];
  edition?: string;
  publication?: string;
  physical?: string;
  series: string[];
  /** Each heading as its parts: ["Russia", "History", "Fiction"]. */
  subjects: string[][];
  summary: string[];
  notes: string[];
  isbns: string[];
  issns: string[];
}

/** Without the trailing ISBD punctuation (" /", " :", " ;", ",", "="), and without a final full stop unless it ends an initial or abbreviation. */
export function tidy(text: string): string {
  // Trimmed, not matched by /\s*[/:;,=]$/: a field of spaces would make that try each start against the end.
  let out = text.trim();
  if (/[/:;,=]$/.test(out)) out = out.slice(0, -1).trim();
  // "Smith, J.", "etc." and "591 p." keep their stop; "History." loses it.
  if (/\.$/.test(out) && !/(?:\b\p{Lu}|\b(?:etc|ed|Jr|Sr|p|v|ill|col|ca|no))\.$/u.test(out)) out = out.slice(0, -1);
  return out;
}

/** A title as the catalogue keeps it ("History : a story /"), as a reader reads it ("History: a story"). */
export function displayTitle(title: string): string {
  // Each run of spaces is tried once, from its start (not again from each space inside it).
  return tidy(title.replace(/(?<!\s)\s+([:;])\s*/g, '$1 '));
}

/** A name without the dates that follow it ("Smith, J., 1901-1970" → "Smith, J."), to search by. */
export function searchableName(name: string): string {
  // The dates found first, then the comma and spaces before them trimmed: /,?\s*\d{4}-(\d{4})?$/
  // would try each space of a long run against the end.
  const dates = /\d{4}-(?:\d{4})?$/.exec(name);
  if (!dates) return name;
  const before = name.slice(0, dates.index).trimEnd();
  return before.endsWith(',') ? before.slice(0, -1) : before;
}

function dataFields(record: MarcRecord, tags: RegExp): DataField[] {
  return record.fields.filter((f): f is DataField => !isControlField(f) && tags.test(f.tag));
}

function subfields(field: DataField, codes: string): string[] {
  return field.subfields
    .filter((s) => codes.includes(s.code))
    .map((s) => s.value.trim())
    .filter(Boolean);
}

/** The subfields as one phrase ("Smith, John, 1950-"), or as a list of tidied parts when a separator is given ("480 pages, 20 cm"). */
function joined(field: DataField, codes: string, separator?: string): string | undefined {
  const parts = subfields(field, codes);
  if (!parts.length) return undefined;
  return separator === undefined ? tidy(parts.join(' ')) : parts.map(tidy).filter(Boolean).join(separator);
}

/** A note or summary is prose: only its spacing is touched. */
function prose(field: DataField, codes: string): string | undefined {
  return subfields(field, codes).join(' ') || undefined;
}

function contributor(field: DataField): Contributor | undefined {
  const name = joined(field, 'abcdq');
  if (!name) return undefined;
  const role = subfields(field, 'e').map(tidy).join(', ');
  return role ? { name, role } : { name };
}

/** "Place: Publisher, Date", from whichever of the three a 260 or 264 has. */
function publicationText(field: DataField): string | undefined {
  const [place, publisher, date] = ['a', 'b', 'c'].map((code) => subfields(field, code).map(tidy).join(', '));
  const who = [place, publisher].filter(Boolean).join(': ');
  return [who, date].filter(Boolean).join(', ') || undefined;
}

export function describe(record: MarcRecord, fallbackTitle: string | null): Description {
  const f245 = dataFields(record, /^245$/)[0];
  const titleParts = f245 ? subfields(f245, 'anp').map(tidy) : [];
  // A 264 with second indicator 1 is the publication (others are production, distribution, copyright).
  const publication = [...dataFields(record, /^264$/).filter((f) => f.ind2 === '1'), ...dataFields(record, /^26[04]$/)][0];
  return {
    title: titleParts.join('. ') || fallbackTitle || 'Untitled',
    subtitle: f245 ? joined(f245, 'b') : undefined,
    responsibility: f245 ? joined(f245, 'c') : undefined,
    authors: dataFields(record, /^(100|110|111|700|710|711)$/).flatMap((f) => contributor(f) ?? []),
    edition: dataFields(record, /^250$/)
      .map((f) => joined(f, 'ab'))
      .find(Boolean),
    publication: publication ? publicationText(publication) : undefined,
    physical: dataFields(record, /^300$/)
      .map((f) => joined(f, 'abce', ', '))
      .find(Boolean),
    // A 490 ("Name, 12") and its 830 ("Name") are one series: the numbered form is kept.
    series: dataFields(record, /^(490|830)$/)
      .flatMap((f) => joined(f, 'av', ', ') ?? [])
      .filter((s, i, all) => all.indexOf(s) === i && !all.some((other) => other.startsWith(`${s}, `))),
    subjects: dataFields(record, /^6[0-5]\d$/)
      .map((f) => subfields(f, 'abcdvxyz').map(tidy))
      .filter((parts) => parts.length > 0),
    summary: dataFields(record, /^520$/).flatMap((f) => prose(f, 'ab') ?? []),
    notes: dataFields(record, /^5(?!20)\d\d$/).flatMap((f) => prose(f, 'a') ?? []),
    isbns: dataFields(record, /^020$/).flatMap((f) => subfields(f, 'a').map(tidy)),
    issns: dataFields(record, /^022$/).flatMap((f) => subfields(f, 'a').map(tidy)),
  };
}
