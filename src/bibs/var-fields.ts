// A bib's varFields: Sierra's form of its MARC fields, each with its field group. From a parsed
// record (varFields), or written straight from its stored MARC-in-JSON text for harvests: a page of
// 2,000 records with their MARC spent most of its time parsing each record into objects, building
// the varFields objects and serializing them again, and collecting the garbage of all three. Here
// the text is read once, left to right, and every string is copied as it is stored (already JSON,
// escapes and all), so nothing is decoded or encoded again. A record in a shape this reader does
// not expect is converted the slow way, with the same answer.
import type { MarcInJson } from '../marc/marc-in-json.ts';

/** Sierra's field-group tag for a MARC tag, as varFields carry it. */
export function fieldGroup(tag: string): string {
  if (/^1[0-1]\d$/.test(tag) || /^7[0-1]\d$/.test(tag)) return 'a';
  if (tag === '245' || tag === '246' || tag === '130' || tag === '240') return 't';
  if (tag.startsWith('6')) return 'd';
  if (tag.startsWith('5')) return 'n';
  if (tag === '020' || tag === '022' || tag === '024') return 'i';
  if (tag === '250') return 'e';
  if (tag === '260' || tag === '264') return 'p';
  if (tag === '300') return 'r';
  if (tag.startsWith('4') || tag.startsWith('8')) return 's';
  return 'y';
}

/** A blank or absent indicator is a space, as MARC-in-JSON readers give it. */
const blankIsSpace = (value: string | undefined): string => (value ? value : ' ');

/**
 * The record's fields as Sierra's varFields, straight from the MARC-in-JSON the database holds
 * (written by Carrel, so not checked again): a harvest page of 2,000 records with their MARC
 * spent a quarter of its time collecting the garbage of an intermediate record.
 */
export function varFields(marc: MarcInJson, groupOf: (tag: string) => string = fieldGroup): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const entry of marc.fields) {
    for (const tag in entry) {
      const body = entry[tag]!;
      if (typeof body === 'string') {
        out.push({ fieldTag: 'y', marcTag: tag, content: body });
        continue;
      }
      const subfields: { tag: string; content: string }[] = [];
      for (const sf of body.subfields) for (const code in sf) subfields.push({ tag: code, content: sf[code]! });
      out.push({ fieldTag: groupOf(tag), marcTag: tag, ind1: blankIsSpace(body.ind1), ind2: blankIsSpace(body.ind2), subfields });
    }
  }
  return out;
}

export class Unexpected extends Error {}

/** A reader over one JSON text: positions, whitespace, raw strings. */
class Reader {
  i = 0;
  constructor(readonly s: string) {}

  ws(): void {
    const s = this.s;
    let i = this.i;
    for (let c = s.charCodeAt(i); c === 32 || c === 10 || c === 13 || c === 9; c = s.charCodeAt(++i));
    this.i = i;
  }

  expect(char: string): void {
    this.ws();
    if (this.s[this.i] !== char) throw new Unexpected();
    this.i++;
  }

  /** The next character after whitespace (not consumed). */
  peek(): string | undefined {
    this.ws();
    return this.s[this.i];
  }

  /** A string token as it stands in the text, quotes included. */
  rawString(): string {
    this.ws();
    const s = this.s;
    const start = this.i;
    if (s.charCodeAt(start) !== 34) throw new Unexpected();
    let i = start + 1;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 34) break;
      if (c === 92) i += 2;
      else if (Number.isNaN(c)) throw new Unexpected();
      else i++;
    }
    this.i = i + 1;
    return s.slice(start, i + 1);
  }

  /** `,` before another member, or the closing bracket: true while there is another. */
  more(close: string): boolean {
    const c = this.peek();
    if (c === ',') {
      this.i++;
      return true;
    }
    if (c === close) {
      this.i++;
      return false;
    }
    throw new Unexpected();
  }
}

/** A tag as stored: three plain characters (anything escaped goes the slow way). */
function tagOf(raw: string): string {
  if (raw.length !== 5 || raw.includes('\\')) throw new Unexpected();
  return raw.slice(1, 4);
}

/** The same, for an indicator as stored (a JSON string, or absent). */
const indicator = (raw: string | undefined) => (raw === undefined || raw === '""' ? '" "' : raw);

/** One data field's body {"ind1", "ind2", "subfields"} (any order), as a varField's members after marcTag. */
function dataField(r: Reader): string {
  let ind1: string | undefined;
  let ind2: string | undefined;
  let subfields = '';
  r.expect('{');
  if (r.peek() !== '}')
    do {
      const key = r.rawString();
      r.expect(':');
      if (key === '"ind1"') ind1 = r.rawString();
      else if (key === '"ind2"') ind2 = r.rawString();
      else if (key === '"subfields"') {
        r.expect('[');
        const parts: string[] = [];
        if (r.peek() !== ']')
          do {
            r.expect('{');
            if (r.peek() !== '}')
              do {
                const code = r.rawString();
                r.expect(':');
                parts.push(`{"tag":${code},"content":${r.rawString()}}`);
              } while (r.more('}'));
            else r.i++;
          } while (r.more(']'));
        else r.i++;
        subfields = parts.join(',');
      } else throw new Unexpected();
    } while (r.more('}'));
  else r.i++;
  return `"ind1":${indicator(ind1)},"ind2":${indicator(ind2)},"subfields":[${subfields}]`;
}

/** The varFields of a MARC-in-JSON text, as JSON text: the same as JSON.stringify(varFields(JSON.parse(text))). */
export function varFieldsJson(text: string): string {
  try {
    return varFieldsFromText(text);
  } catch (error) {
    if (!(error instanceof Unexpected)) throw error;
    return JSON.stringify(varFields(JSON.parse(text) as MarcInJson));
  }
}

/** varFieldsJson without the slow way: throws on a shape it does not expect (exported for its test). */
export function varFieldsFromText(text: string): string {
  const r = new Reader(text);
  const out: string[] = [];
  r.expect('{');
  do {
    const key = r.rawString();
    r.expect(':');
    if (key === '"leader"') r.rawString();
    else if (key === '"fields"') {
      r.expect('[');
      if (r.peek() !== ']')
        do {
          r.expect('{');
          if (r.peek() !== '}')
            do {
              const rawTag = r.rawString();
              const tag = tagOf(rawTag);
              r.expect(':');
              if (r.peek() === '"') out.push(`{"fieldTag":"y","marcTag":${rawTag},"content":${r.rawString()}}`);
              else out.push(`{"fieldTag":"${fieldGroup(tag)}","marcTag":${rawTag},${dataField(r)}}`);
            } while (r.more('}'));
          else r.i++;
        } while (r.more(']'));
      else r.i++;
    } else throw new Unexpected();
  } while (r.more('}'));
  r.ws();
  if (r.i !== text.length) throw new Unexpected();
  return `[${out.join(',')}]`;
}
