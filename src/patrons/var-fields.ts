// A patron's varFields in both of Sierra's forms: {"fieldTag", "content"}, and the MARC form
// {"fieldTag", "marcTag", "ind1", "ind2", "subfields"} that self-registration integrations write
// (the name as 100 with its parts in subfields). A MARC-form field is kept as given and answered as
// given; the value it stands for (a name, an email, a note) is derived from its subfields and kept
// in the member it fills, so search, find, notices and every other door read it as any other.
// Also the PIN field (=), which Sierra lists when a patron has a PIN and which is never written.
import { fail } from '../shared/errors.ts';

export interface Subfield {
  tag: string;
  content: string;
}

/** A varField as a write may send it: one form or the other (Sierra answers null for members a form lacks). */
export interface VarFieldInput {
  fieldTag: string;
  content?: string | null;
  marcTag?: string | null;
  ind1?: string | null;
  ind2?: string | null;
  subfields?: unknown;
}

/** A MARC-form varField as kept and answered. */
export interface MarcVarField {
  fieldTag: string;
  marcTag: string;
  ind1: string;
  ind2: string;
  subfields: Subfield[];
}

/** As stored (patrons.marc_fields): with its place among the values of its tag, in the order a read lists them. */
export interface StoredMarcField extends MarcVarField {
  index: number;
}

/** A varField as a read answers it. */
export type PatronVarField = { fieldTag: string; content: string } | MarcVarField;

/**
 * Sierra's PIN field. Integrations read its presence to tell a patron with a PIN from one without
 * (password recovery in discovery layers); its content is the same for every patron, so it says
 * nothing of the PIN, not even its length.
 */
export const PIN_FIELD: { fieldTag: string; content: string } = { fieldTag: '=', content: '********' };

/** The members a write may set directly, and the varField tags whose values each replaces. */
const MEMBER_TAGS: Record<string, readonly string[]> = {
  names: ['n'],
  barcodes: ['b'],
  emails: ['z'],
  phones: ['t', 'p'],
  addresses: ['a', 'h'],
  uniqueIds: ['u'],
  message: ['m'],
};

const MAX_SUBFIELDS = 20;
const MAX_SUBFIELD = 500;
const bad = (field: string, why: string) => fail.invalidInput(`${field} ${why}`);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

const given = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;

/**
 * Reads one varField of a write: its tag and the content it stands for, and its MARC form when it
 * came in that form. Refuses the PIN field and a MARC form that is not whole.
 */
export function readVarField(raw: VarFieldInput, path: string): { fieldTag: string; content: string; marc?: MarcVarField } {
  if (raw.fieldTag === PIN_FIELD.fieldTag)
    throw bad(`${path}.fieldTag`, '"=" is the PIN field, which is never written: set the PIN with pin');
  const marcForm = given(raw.marcTag) || given(raw.subfields) || given(raw.ind1) || given(raw.ind2);
  if (!marcForm) {
    if (!given(raw.content)) throw bad(`${path}.content`, 'is missing: a varField has content, or marcTag with subfields');
    return { fieldTag: raw.fieldTag, content: raw.content };
  }
  if (!given(raw.marcTag)) throw bad(`${path}.marcTag`, 'is missing: a varField in MARC form names its MARC tag');
  if (!/^\d{3}$/.test(raw.marcTag) || raw.marcTag < '010') throw bad(`${path}.marcTag`, 'must be a MARC data field tag (010 to 999)');
  const list = raw.subfields;
  if (!Array.isArray(list) || list.length === 0)
    throw bad(`${path}.subfields`, 'must list at least one subfield: a varField in MARC form holds its text in subfields');
  if (list.length > MAX_SUBFIELDS) throw bad(`${path}.subfields`, `may hold at most ${MAX_SUBFIELDS} subfields`);
  if (given(raw.content)) throw bad(`${path}.content`, 'cannot be given with subfields: give one or the other');
  const subfields = list.map((s: unknown, i): Subfield => {
    const at = `${path}.subfields[${i}]`;
    if (!isObject(s)) throw bad(at, 'must be {"tag": a subfield code, "content": text}');
    if (typeof s.tag !== 'string' || !/^[a-z0-9]$/.test(s.tag)) throw bad(`${at}.tag`, 'must be a subfield code: a-z or 0-9');
    if (typeof s.content !== 'string' || s.content.trim() === '') throw bad(`${at}.content`, 'must be text');
    if (s.content.length > MAX_SUBFIELD) throw bad(`${at}.content`, `must have at most ${MAX_SUBFIELD} characters`);
    if (CONTROL.test(s.content)) throw bad(`${at}.content`, 'must not hold control characters');
    return { tag: s.tag, content: s.content };
  });
  const indicator = (name: 'ind1' | 'ind2'): string => {
    const v = raw[name];
    if (!given(v) || v === '') return ' ';
    if (typeof v !== 'string' || !/^[0-9a-z ]$/.test(v)) throw bad(`${path}.${name}`, 'must be one character: 0-9, a-z or a space');
    return v;
  };
  const marc = { fieldTag: raw.fieldTag, marcTag: raw.marcTag, ind1: indicator('ind1'), ind2: indicator('ind2'), subfields };
  return { fieldTag: raw.fieldTag, content: contentOf(marc), marc };
}

/**
 * The text a MARC-form field stands for, as its plain form would hold it. A name reads as Sierra's
 * full name: prefix (c), last name (a, without the comma that ends it), a comma, then the first and
 * middle names (b) and any other part, in the order given ("|aSmith,|bJane" is "Smith, Jane"). An
 * address has a line per subfield, joined by $ as Sierra writes address lines; any other field,
 * its subfields joined by a space.
 */
export function contentOf(marc: Pick<MarcVarField, 'fieldTag' | 'subfields'>): string {
  const parts = (keep: (tag: string) => boolean) =>
    marc.subfields
      .filter((s) => keep(s.tag))
      .map((s) => s.content.trim())
      .filter((s) => s !== '');
  if (marc.fieldTag === 'a' || marc.fieldTag === 'h') return parts(() => true).join('$');
  if (marc.fieldTag !== 'n') return parts(() => true).join(' ');
  const last = withoutTrailingCommas(parts((t) => t === 'a').join(' '));
  const head = [...parts((t) => t === 'c'), ...(last ? [last] : [])].join(' ');
  const rest = parts((t) => t !== 'a' && t !== 'c').join(' ');
  if (last && rest) return `${head}, ${rest}`;
  return [head, rest].filter((s) => s !== '').join(' ');
}

/** The text without the commas that end it (a last name's, which MARC keeps before the first name). */
function withoutTrailingCommas(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === ',') end -= 1;
  return text.slice(0, end).trimEnd();
}

/**
 * The MARC forms a write keeps: the tags whose values it replaces (the varField tags it gives, and
 * those of the members it sets directly), and the MARC-form fields among what it gives. A tag
 * replaced without a MARC form loses the MARC forms it had.
 */
export function marcChange(
  members: readonly string[],
  varFieldTags: readonly string[],
  fields: StoredMarcField[],
): { tags: string[]; fields: StoredMarcField[] } {
  const tags = new Set(varFieldTags);
  for (const member of members) for (const tag of MEMBER_TAGS[member] ?? []) tags.add(tag);
  return { tags: [...tags], fields };
}

/**
 * A patron's varFields as a read answers them: the PIN field first when it has a PIN, then each
 * value in its plain form, or in the MARC form it was written in. A MARC form is answered only
 * while the value is still the one it was derived from.
 */
export function answerVarFields(
  plain: { fieldTag: string; content: string }[],
  stored: readonly StoredMarcField[],
  hasPin: boolean,
): PatronVarField[] {
  const byPlace = new Map(stored.map((m) => [`${m.fieldTag}:${m.index}`, m]));
  const seen = new Map<string, number>();
  const out: PatronVarField[] = hasPin ? [PIN_FIELD] : [];
  for (const field of plain) {
    const index = seen.get(field.fieldTag) ?? 0;
    seen.set(field.fieldTag, index + 1);
    const marc = byPlace.get(`${field.fieldTag}:${index}`);
    out.push(
      marc && contentOf(marc) === field.content
        ? { fieldTag: marc.fieldTag, marcTag: marc.marcTag, ind1: marc.ind1, ind2: marc.ind2, subfields: marc.subfields }
        : field,
    );
  }
  return out;
}
