// A bib's varFields: Sierra's form of its MARC fields, each with its field group. From a parsed
// record (varFields), or written straight from its stored MARC-in-JSON text for harvests: a page of
// 2,000 records with their MARC spent most of its time parsing each record into objects, building
// the varFields objects and serializing them again, and collecting the garbage of all three. Here
// the text's UTF-8 bytes are read once, left to right, and every string is copied as it is stored
// (already JSON, escapes and all) into the answer's bytes, so nothing is decoded or encoded again.
// A record in a shape this reader does not expect is converted the slow way, with the same answer.
import type { MarcInJson } from '../marc/marc-in-json.ts';
import type { ByteWriter } from '../shared/byte-writer.ts';

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

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const ascii = (text: string) => Buffer.from(text, 'latin1');
const KEYS = ['"leader"', '"fields"'].map(ascii);
const [LEADER, FIELDS] = [0, 1];
const KEY_IND1 = ascii('"ind1"');
const KEY_IND2 = ascii('"ind2"');
const KEY_SUBFIELDS = ascii('"subfields"');
const BLANK = ascii('" "');
const IND1 = ascii(',"ind1":');
const IND2 = ascii(',"ind2":');
const SUBFIELDS = ascii(',"subfields":[');
const TAG = ascii('{"tag":');
const CONTENT = ascii(',"content":');

/** A reader over one JSON text's UTF-8 bytes (a byte of a multi-byte character is never ASCII). */
class Reader {
  i = 0;
  constructor(readonly s: Uint8Array) {}

  ws(): void {
    const s = this.s;
    let i = this.i;
    for (let c = s[i]; c === 32 || c === 10 || c === 13 || c === 9; c = s[++i]);
    this.i = i;
  }

  expect(char: number): void {
    this.ws();
    if (this.s[this.i] !== char) throw new Unexpected();
    this.i++;
  }

  /** The next byte after whitespace (not consumed). */
  peek(): number | undefined {
    this.ws();
    return this.s[this.i];
  }

  /** Passes a string token, quotes included: answers where it starts (it ends at this.i). */
  string(): number {
    this.ws();
    const s = this.s;
    const start = this.i;
    if (s[start] !== QUOTE) throw new Unexpected();
    let i = start + 1;
    for (;;) {
      const c = s[i];
      if (c === QUOTE) break;
      if (c === BACKSLASH) i += 2;
      else if (c === undefined) throw new Unexpected();
      else i++;
    }
    this.i = i + 1;
    return start;
  }

  /** The member name next (after whitespace), with its colon, is this one: passes it and answers true. */
  name(bytes: Uint8Array): boolean {
    this.ws();
    const s = this.s;
    const at = this.i;
    for (let k = 0; k < bytes.length; k++) if (s[at + k] !== bytes[k]) return false;
    this.i = at + bytes.length;
    this.expect(0x3a);
    return true;
  }

  /** A member's name and its colon: which of KEYS it is (-1: none of them). */
  key(): number {
    const start = this.string();
    const length = this.i - start;
    let found = -1;
    for (let k = 0; k < KEYS.length && found < 0; k++) {
      const name = KEYS[k]!;
      if (name.length !== length) continue;
      let same = true;
      for (let j = 0; j < length && same; j++) same = this.s[start + j] === name[j];
      if (same) found = k;
    }
    this.expect(0x3a);
    return found;
  }

  /** `,` before another member, or the closing bracket: true while there is another. */
  more(close: number): boolean {
    const c = this.peek();
    if (c === 0x2c) {
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

// Each tag's opening, `{"fieldTag":"t","marcTag":"245"`, made once.
const openings = new Map<number, Buffer>();
function opening(s: Uint8Array, start: number, control: boolean): Buffer {
  const key = (s[start + 1]! << 17) | (s[start + 2]! << 9) | (s[start + 3]! << 1) | (control ? 1 : 0);
  let bytes = openings.get(key);
  if (!bytes) {
    const tag = String.fromCharCode(s[start + 1]!, s[start + 2]!, s[start + 3]!);
    bytes = Buffer.from(`{"fieldTag":"${control ? 'y' : fieldGroup(tag)}","marcTag":"${tag}"`);
    if (openings.size < 100_000) openings.set(key, bytes);
  }
  return bytes;
}

/** A tag as stored: three plain characters (anything escaped, or not ASCII, goes the slow way). */
function checkTag(r: Reader, start: number): void {
  if (r.i - start !== 5) throw new Unexpected();
  for (let k = start + 1; k < start + 4; k++) {
    const c = r.s[k]!;
    if (c === BACKSLASH || c > 0x7e || c < 0x20) throw new Unexpected();
  }
}

/** An indicator token (or a blank for "" or none) into out. */
function indicator(r: Reader, out: ByteWriter, start: number | undefined, end: number): void {
  if (start === undefined || end - start === 2) out.bytes(BLANK, 0, BLANK.length);
  else out.bytes(r.s, start, end);
}

/** One data field's body {"ind1", "ind2", "subfields"} (indicators optional), as a varField's members after marcTag. */
function dataField(r: Reader, out: ByteWriter): void {
  const s = r.s;
  let ind1: number | undefined;
  let ind1End = 0;
  let ind2: number | undefined;
  let ind2End = 0;
  r.expect(0x7b);
  if (r.name(KEY_IND1)) {
    ind1 = r.string();
    ind1End = r.i;
    r.expect(0x2c);
  }
  if (r.name(KEY_IND2)) {
    ind2 = r.string();
    ind2End = r.i;
    r.expect(0x2c);
  }
  if (!r.name(KEY_SUBFIELDS)) throw new Unexpected();
  out.bytes(IND1, 0, IND1.length);
  indicator(r, out, ind1, ind1End);
  out.bytes(IND2, 0, IND2.length);
  indicator(r, out, ind2, ind2End);
  out.bytes(SUBFIELDS, 0, SUBFIELDS.length);
  r.expect(0x5b);
  if (r.peek() !== 0x5d) {
    let first = true;
    do {
      r.expect(0x7b);
      const code = r.string();
      const codeEnd = r.i;
      r.expect(0x3a);
      const content = r.string();
      if (!first) out.byte(0x2c);
      first = false;
      out.bytes(TAG, 0, TAG.length);
      out.bytes(s, code, codeEnd);
      out.bytes(CONTENT, 0, CONTENT.length);
      out.bytes(s, content, r.i);
      out.byte(0x7d);
      r.expect(0x7d);
    } while (r.more(0x5d));
  } else r.i++;
  out.byte(0x5d);
  r.expect(0x7d);
}

/** The varFields of a MARC-in-JSON text's bytes, into out; throws Unexpected on a shape it does not expect. */
export function varFieldsFromBytes(bytes: Uint8Array, out: ByteWriter): void {
  const r = new Reader(bytes);
  let wrote = false;
  r.expect(0x7b);
  do {
    const key = r.key();
    if (key === LEADER) r.string();
    else if (key === FIELDS) {
      if (wrote) throw new Unexpected();
      wrote = true;
      out.byte(0x5b);
      r.expect(0x5b);
      let first = true;
      if (r.peek() !== 0x5d)
        do {
          r.expect(0x7b);
          const tag = r.string();
          checkTag(r, tag);
          r.expect(0x3a);
          if (!first) out.byte(0x2c);
          first = false;
          if (r.peek() === QUOTE) {
            const o = opening(bytes, tag, true);
            out.bytes(o, 0, o.length);
            out.bytes(CONTENT, 0, CONTENT.length);
            const content = r.string();
            out.bytes(bytes, content, r.i);
            out.byte(0x7d);
          } else {
            const o = opening(bytes, tag, false);
            out.bytes(o, 0, o.length);
            dataField(r, out);
            out.byte(0x7d);
          }
          r.expect(0x7d);
        } while (r.more(0x5d));
      else r.i++;
      out.byte(0x5d);
    } else throw new Unexpected();
  } while (r.more(0x7d));
  r.ws();
  if (r.i !== bytes.length || !wrote) throw new Unexpected();
}

// The text's bytes are written here first: one buffer, reused (the writing is synchronous).
let scratch = Buffer.allocUnsafe(64 * 1024);

/** The varFields of a stored MARC-in-JSON text, as JSON into out: JSON.stringify(varFields(JSON.parse(text))). */
export function writeVarFields(text: string, out: ByteWriter): void {
  if (scratch.length < text.length * 3) scratch = Buffer.allocUnsafe(text.length * 3);
  const n = scratch.write(text, 0);
  const mark = out.pos;
  try {
    varFieldsFromBytes(scratch.subarray(0, n), out);
  } catch (error) {
    if (!(error instanceof Unexpected)) throw error;
    out.pos = mark;
    out.utf8(JSON.stringify(varFields(JSON.parse(text) as MarcInJson)));
  }
}
