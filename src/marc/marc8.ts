// MARC-8 to Unicode, with every character set MARC-8 has: ASCII and ANSEL extended Latin (the
// default G0 and G1 sets), basic Hebrew, basic and extended Cyrillic, basic and extended Arabic,
// basic Greek, EACC (Chinese, Japanese, Korean; three bytes a character), and MARC's own Greek
// symbols, subscripts and superscripts. The code tables are in marc8-tables.ts, generated from the
// Library of Congress code tables through yaz's MARC-8 decoder (see scripts/marc8-tables.mjs); the
// ANSEL table is the generated one too (tests check it against the earlier hand-checked table).
//
// Escape sequences switch sets: technique 1 (ESC g, ESC b, ESC p replace G0 until ESC s brings back
// ASCII) and technique 2 (ESC ( F or ESC , F designate G0, ESC ) F or ESC - F designate G1, with $
// before them for the multibyte EACC; ESC $ F alone is G0). Every decodeMarc8 call starts in the
// default sets: MARC-8 text is decoded a subfield at a time. The C0 controls, the space (0x20) and
// DEL (0x7F) are the same in every set, EACC included (where a character otherwise takes three
// bytes, some of which may be 0x20).
//
// In MARC-8 a combining mark comes before the character it modifies; in Unicode after: marks (in
// every set: ANSEL diacritics, Hebrew points, Arabic harakat, Greek accents) are held until their
// base character arrives. ANSEL's two-letter marks (ligature EB/EC, double tilde FA/FB) become one
// Unicode double diacritic (U+0361, U+0360) after the first letter; the second halves are dropped.
// An escape sequence, set or byte this reader does not know is refused with a MarcError that names
// it, never guessed at.
import { C1_CONTROLS, EACC_CHARS, EACC_RUNS, SINGLE_BYTE_SETS } from './marc8-tables.ts';
import { MarcError } from './record.ts';

// What a byte of a single-byte set is (indexed by its 7-bit code, 0x21-0x7E).
const NONE = 0;
const BASE = 1;
const MARK = 2;
const SKIP = 3; // ANSEL's second halves of the two-letter marks

interface SingleByteCharset {
  readonly name: string;
  readonly kinds: Uint8Array;
  readonly chars: readonly string[];
}
type Charset = SingleByteCharset | 'EACC';

function singleByte(key: string): SingleByteCharset {
  const set = SINGLE_BYTE_SETS[key];
  if (!set) throw new Error(`no MARC-8 table for ${key}`);
  const kinds = new Uint8Array(128);
  const chars = new Array<string>(128).fill('');
  for (let i = 0; i < set.chars.length; i++) {
    const char = set.chars[i]!;
    if (char === '\u0000') continue;
    kinds[0x21 + i] = BASE;
    chars[0x21 + i] = char;
  }
  for (const code of set.combining) kinds[code] = MARK;
  return { name: set.name, kinds, chars };
}

const ASCII = singleByte('B');
const ANSEL = singleByte('!E');
ANSEL.kinds[0xec & 0x7f] = SKIP;
ANSEL.kinds[0xfb & 0x7f] = SKIP;

/** Technique 2 single-byte sets by final character; extended Latin's is '!E', two bytes. */
const BY_FINAL: (Charset | undefined)[] = [];
BY_FINAL[0x42] = ASCII; // B
for (const key of ['2', 'N', 'Q', '3', '4', 'S']) BY_FINAL[key.charCodeAt(0)] = singleByte(key);
/** Technique 1: the byte after ESC. */
const TECHNIQUE_1: (Charset | undefined)[] = [];
TECHNIQUE_1[0x67] = singleByte('g');
TECHNIQUE_1[0x62] = singleByte('b');
TECHNIQUE_1[0x70] = singleByte('p');
TECHNIQUE_1[0x73] = ASCII; // ESC s

const C1 = new Array<string>(0x20).fill('');
for (const [byte, char] of Object.entries(C1_CONTROLS)) C1[Number(byte) - 0x80] = char;

/** C0 controls, space (0x00-0x20) and DEL: the same in every set. */
const LOW = Array.from({ length: 0x80 }, (_, b) => (b <= 0x20 || b === 0x7f ? String.fromCharCode(b) : ''));
/** 0x00-0x7F when G0 is ASCII. */
const LOW_ASCII = Array.from({ length: 0x80 }, (_, b) => String.fromCharCode(b));

let eaccTable: Map<number, string> | undefined;
/** The EACC table, unpacked the first time a record uses EACC. */
function eacc(): Map<number, string> {
  if (eaccTable) return eaccTable;
  const table = new Map<number, string>();
  let code = 0;
  let at = 0;
  for (const run of EACC_RUNS.split(',')) {
    const space = run.indexOf(' ');
    code += parseInt(run.slice(0, space), 36);
    for (let end = code + parseInt(run.slice(space + 1), 36); code < end; code++) {
      const unit = EACC_CHARS.charCodeAt(at);
      const width = unit >= 0xd800 && unit < 0xdc00 ? 2 : 1; // a surrogate pair: outside the BMP
      table.set(code, EACC_CHARS.slice(at, at + width));
      at += width;
    }
  }
  eaccTable = table;
  return table;
}

const hex = (n: number, width = 2) => `0x${n.toString(16).padStart(width, '0')}`;

function describe(bytes: Uint8Array, from: number, to: number): string {
  const shown = Array.from(bytes.subarray(from, Math.min(to, bytes.length)), (b) =>
    b === 0x1b ? 'ESC' : b > 0x20 && b < 0x7f ? String.fromCharCode(b) : hex(b),
  );
  return `${shown.join(' ')} (${Array.from(bytes.subarray(from, Math.min(to, bytes.length)), (b) => hex(b)).join(' ')})`;
}

interface Designation {
  g: 0 | 1;
  set: Charset;
  length: number;
}

/** Reads the escape sequence at `at`: which set it puts in G0 or G1, and its length. */
function escape(bytes: Uint8Array, at: number): Designation {
  if (at + 1 >= bytes.length) throw new MarcError('MARC-8 escape (0x1b) at the end of the text');
  const technique1 = TECHNIQUE_1[bytes[at + 1]!];
  if (technique1) return { g: 0, set: technique1, length: 2 };
  let i = at + 1;
  const multibyte = bytes[i] === 0x24; // $
  if (multibyte) i++;
  let g: 0 | 1 = 0;
  const intermediate = bytes[i];
  if (intermediate === 0x28 || intermediate === 0x2c)
    i++; // ( ,
  else if (intermediate === 0x29 || intermediate === 0x2d) {
    g = 1; // ) -
    i++;
  } else if (!multibyte) throw unknownEscape(bytes, at, i + 1);
  const extended = bytes[i] === 0x21; // ! E: extended Latin
  if (extended) i++;
  if (i >= bytes.length) throw new MarcError(`incomplete MARC-8 escape sequence ${describe(bytes, at, i)} at the end of the text`);
  const final = bytes[i]!;
  let set: Charset | undefined;
  if (multibyte) set = final === 0x31 && !extended ? 'EACC' : undefined;
  else set = extended ? (final === 0x45 ? ANSEL : undefined) : BY_FINAL[final];
  if (!set) throw unknownEscape(bytes, at, i + 1);
  return { g, set, length: i + 1 - at };
}

function unknownEscape(bytes: Uint8Array, from: number, to: number): MarcError {
  return new MarcError(`unknown MARC-8 escape sequence ${describe(bytes, from, to)}`);
}

/** Decodes MARC-8 bytes (one subfield, or any text that starts in the default sets). */
export function decodeMarc8(bytes: Uint8Array): string {
  let g0: Charset = ASCII;
  let g1: Charset = ANSEL;
  let out = '';
  let marks = '';
  const end = bytes.length;
  for (let i = 0; i < end;) {
    const b = bytes[i]!;
    // The common case first: ASCII in G0 (with the controls, space and DEL).
    if (b < 0x80 && b !== 0x1b && g0 === ASCII) {
      if (marks) {
        out += LOW_ASCII[b]! + marks;
        marks = '';
      } else out += LOW_ASCII[b]!;
      i++;
      continue;
    }
    let char: string;
    if (b === 0x1b) {
      const { g, set, length } = escape(bytes, i);
      if (g === 0) g0 = set;
      else g1 = set;
      i += length;
      continue;
    }
    if (b <= 0x20 || b === 0x7f) {
      char = LOW[b]!;
      i++;
    } else if (b >= 0x80 && b < 0xa0) {
      char = C1[b - 0x80]!;
      if (!char) throw new MarcError(`byte ${hex(b)} is not a MARC-8 character`);
      i++;
    } else {
      const set = b < 0x80 ? g0 : g1;
      if (set === 'EACC') {
        if (i + 2 >= end) throw new MarcError(`EACC character ${describe(bytes, i, end)} cut short at the end of the text`);
        const b2 = bytes[i + 1]!;
        const b3 = bytes[i + 2]!;
        const high = b & 0x80;
        if ((b2 & 0x80) !== high || (b3 & 0x80) !== high || (b2 & 0x7f) < 0x20 || (b3 & 0x7f) < 0x20) {
          throw new MarcError(`bytes ${describe(bytes, i, i + 3)} are not an EACC character`);
        }
        const code = ((b & 0x7f) << 16) | ((b2 & 0x7f) << 8) | (b3 & 0x7f);
        const found = eacc().get(code);
        if (found === undefined) throw new MarcError(`EACC code ${hex(code, 6)} is not a character`);
        char = found;
        i += 3;
      } else {
        const code = b & 0x7f;
        const kind = set.kinds[code]!;
        if (kind === NONE)
          throw new MarcError(`byte ${hex(b)} is not a character of the MARC-8 ${set.name} set (${b < 0x80 ? 'G0' : 'G1'})`);
        char = set.chars[code]!;
        i++;
        if (kind === SKIP) continue;
        if (kind === MARK) {
          marks += char;
          continue;
        }
      }
    }
    if (marks) {
      out += char + marks;
      marks = '';
    } else out += char;
  }
  return out + marks;
}
