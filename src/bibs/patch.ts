// Sierra's bib patch (POST and PUT /bibs with {"titles", "authors", "fixedFields", …} instead of
// MARC), as resource-sharing hubs create the bibs of the items they lend: read into the MARC
// record Carrel keeps, so the bib is derived, indexed and shown as any other.
import type { DataField, Field, MarcRecord } from '../marc/record.ts';
import { fail } from '../shared/errors.ts';
import type { BibInput } from './service.ts';

const MEMBERS = ['titles', 'authors', 'lang', 'country', 'publishYear', 'bibLevel', 'suppressed', 'fixedFields', 'varFields'] as const;
/** What tells a patch from MARC-in-JSON (which has leader and fields). */
export const isBibPatch = (body: object): boolean =>
  !Array.isArray(body) && !('leader' in body) && !('fields' in body) && !('marc' in body) && MEMBERS.some((m) => m in body);

const bad = (field: string, why: string) => fail.invalidInput(`${field} ${why}`);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function texts(field: string, raw: unknown): string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string' || !v.trim())) throw bad(field, 'must be a list of text');
  return (raw as string[]).map((v) => v.trim());
}

function code(field: string, raw: unknown, length: number): string | undefined {
  if (raw === undefined) return undefined;
  const value = isObject(raw) ? raw.code : raw;
  if (typeof value !== 'string' || !new RegExp(`^[a-z0-9 ]{1,${length}}$`, 'i').test(value))
    throw bad(field, `must be a code of at most ${length} characters`);
  return value.toLowerCase();
}

function varField(raw: unknown, path: string): DataField {
  if (!isObject(raw) || typeof raw.marcTag !== 'string' || !/^\d{3}$/.test(raw.marcTag) || raw.marcTag < '010')
    throw bad(`${path}.marcTag`, 'must be a MARC data field tag (010 to 999)');
  const indicator = (name: 'ind1' | 'ind2') => {
    const v = raw[name] ?? ' ';
    if (typeof v !== 'string' || v.length > 1) throw bad(`${path}.${name}`, 'must be one character');
    return v || ' ';
  };
  if (!Array.isArray(raw.subfields) || raw.subfields.length === 0) throw bad(`${path}.subfields`, 'must list at least one subfield');
  const subfields = raw.subfields.map((s: unknown, i: number) => {
    if (!isObject(s) || typeof s.tag !== 'string' || !/^[a-z0-9]$/.test(s.tag) || typeof s.content !== 'string')
      throw bad(`${path}.subfields[${i}]`, 'must be {"tag": a subfield code, "content": text}');
    return { code: s.tag, value: s.content };
  });
  return { tag: raw.marcTag, ind1: indicator('ind1'), ind2: indicator('ind2'), subfields };
}

/** The MARC record a bib patch describes. */
export function fromBibPatch(body: Record<string, unknown>): BibInput {
  const unknown = Object.keys(body).filter((k) => !(MEMBERS as readonly string[]).includes(k));
  if (unknown.length) throw bad(unknown[0]!, `is not a member of a bib patch; members are ${MEMBERS.join(', ')}`);
  const titles = texts('titles', body.titles);
  if (titles.length === 0) throw bad('titles', 'must hold the title: a bib has one');
  const authors = texts('authors', body.authors);
  const lang = code('lang', body.lang, 3);
  const country = code('country', body.country, 3);
  const bibLevel = code('bibLevel', body.bibLevel, 1) ?? 'm';
  const year = body.publishYear;
  if (year !== undefined && (typeof year !== 'number' || !Number.isInteger(year) || year < 0 || year > 9999))
    throw bad('publishYear', 'must be a year');
  let suppressed = body.suppressed;
  if (suppressed !== undefined && typeof suppressed !== 'boolean') throw bad('suppressed', 'must be true or false');
  for (const [number, field] of Object.entries(isObject(body.fixedFields) ? body.fixedFields : {})) {
    // Bib Code 3 is where Sierra marks suppression: n suppressed, - shown.
    if (number !== '31') throw bad(`fixedFields.${number}`, 'cannot be written; a bib patch takes 31 (Bib Code 3: n suppressed, - shown)');
    const value = isObject(field) ? field.value : undefined;
    if (value !== 'n' && value !== '-') throw bad('fixedFields.31', 'must be n (suppressed) or - (shown)');
    suppressed = value === 'n';
  }
  if (body.varFields !== undefined && !Array.isArray(body.varFields)) throw bad('varFields', 'must be a list');
  const extra = ((body.varFields as unknown[] | undefined) ?? []).map((v, i) => varField(v, `varFields[${i}]`));
  const yearText = year === undefined ? '    ' : String(year).padStart(4, '0');
  // 008: date entered blank, one date of publication, country, language (40 characters).
  const f008 = `      ${year === undefined ? 'n' : 's'}${yearText}    ${(country ?? 'xx').padEnd(3)}${' '.repeat(17)}${(lang ?? 'und').padEnd(3)} d`;
  const fields: Field[] = [
    { tag: '008', value: f008 },
    ...(authors[0] ? [{ tag: '100', ind1: '1', ind2: ' ', subfields: [{ code: 'a', value: authors[0] }] }] : []),
    { tag: '245', ind1: authors.length ? '1' : '0', ind2: '0', subfields: [{ code: 'a', value: titles[0]! }] },
    ...titles.slice(1).map((t) => ({ tag: '246', ind1: '3', ind2: ' ', subfields: [{ code: 'a', value: t }] })),
    ...authors.slice(1).map((a) => ({ tag: '700', ind1: '1', ind2: ' ', subfields: [{ code: 'a', value: a }] })),
    ...extra,
  ];
  fields.sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  const marc: MarcRecord = { leader: `00000na${bibLevel} a2200000 a 4500`, fields };
  return suppressed === undefined ? { marc } : { marc, suppressed: suppressed as boolean };
}
