// The import's fast path for ISO 2709: a record's bytes written straight out as MARC-in-JSON (in
// a COPY text cell, so with its backslashes doubled), without a string or an object for every
// field and subfield. Only the fields the caller keeps (those it derives columns and items from)
// are decoded into a MarcRecord.
//
// The output is byte for byte what marcInJsonText(readBinaryRecord(bytes)) gives, COPY-escaped.
// Whatever this path does not handle the same way is left to that general path: it answers
// undefined for MARC-8 text beyond ASCII, bytes that are not UTF-8 (the general path names the
// error, or reads the record as MARC-8), a UTF-8 byte order mark at the start of a value (the
// decoder drops it), unusual indicator or subfield code bytes, and any structural oddity. It also
// leaves to that path every record validate.ts might refuse (a NUL, an ESC, a field or record
// longer than ISO 2709 allows), since it never calls it: the general path's reader and the
// validator then say why, in the words the API uses too.
import type { CopyWriter } from '../db/copy-text.ts';
import { DIRECTORY_ENTRY, LEADER, LEADER_LENGTH } from './positions.ts';
import type { Field, MarcRecord, Subfield } from './record.ts';
import { MAX_FIELD_BYTES, MAX_RECORD_BYTES } from './validate.ts';

const FIELD_TERMINATOR = 0x1e;
const RECORD_TERMINATOR = 0x1d;
const SUBFIELD_DELIMITER = 0x1f;
const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const HEX = '0123456789abcdef';

/** A tag as the number tagKey gives: what the set of kept tags holds. */
export function tagKey(tag: string): number {
  return (tag.charCodeAt(0) << 16) | (tag.charCodeAt(1) << 8) | tag.charCodeAt(2);
}

const isAlnum = (b: number) => (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
/** A byte that stands for itself in JSON and in COPY text. */
const isPlain = (b: number) => b >= 0x20 && b < 0x7f && b !== QUOTE && b !== BACKSLASH;

/**
 * Writes bytes[start, end) as a JSON string into out, COPY-escaped; false (out left part-written)
 * when the general path must read it: not UTF-8 (or, for MARC-8, not plain ASCII).
 */
function jsonString(out: CopyWriter, bytes: Uint8Array, start: number, end: number, utf8: boolean): boolean {
  if (utf8 && end - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf) return false;
  // Worst case: seven bytes for one (a control character as \\u00XX).
  out.ensure((end - start) * 7 + 2);
  const buf = out.buf;
  let p = out.pos;
  buf[p++] = QUOTE;
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    if (b >= 0x20 && b < 0x80) {
      if (b === QUOTE) {
        buf[p++] = BACKSLASH;
        buf[p++] = BACKSLASH;
        buf[p++] = QUOTE;
      } else if (b === BACKSLASH) {
        buf[p++] = BACKSLASH;
        buf[p++] = BACKSLASH;
        buf[p++] = BACKSLASH;
        buf[p++] = BACKSLASH;
      } else buf[p++] = b;
      continue;
    }
    if (b < 0x20) {
      // ESC in MARC-8 switches character sets: the general path's decoder. In a UTF-8 record, ESC,
      // NUL and ISO 2709's own separators are refused (validate.ts): the general path says so.
      if (b === 0x1b || b === 0x00 || b >= 0x1d) return false;
      buf[p++] = BACKSLASH;
      buf[p++] = BACKSLASH;
      // JSON.stringify's short forms, then \u00XX in lower case.
      if (b === 0x08) buf[p++] = 0x62;
      else if (b === 0x09) buf[p++] = 0x74;
      else if (b === 0x0a) buf[p++] = 0x6e;
      else if (b === 0x0c) buf[p++] = 0x66;
      else if (b === 0x0d) buf[p++] = 0x72;
      else {
        buf[p++] = 0x75;
        buf[p++] = 0x30;
        buf[p++] = 0x30;
        buf[p++] = HEX.charCodeAt(b >> 4);
        buf[p++] = HEX.charCodeAt(b & 15);
      }
      continue;
    }
    if (!utf8) return false;
    // A UTF-8 sequence, checked as a fatal TextDecoder checks it (no overlong forms, surrogates
    // or code points past U+10FFFF), and copied as it is.
    let more: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) more = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      more = 2;
      if (b === 0xe0) low = 0xa0;
      else if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      more = 3;
      if (b === 0xf0) low = 0x90;
      else if (b === 0xf4) high = 0x8f;
    } else return false;
    if (i + more >= end) return false;
    const second = bytes[i + 1]!;
    if (second < low || second > high) return false;
    for (let k = 2; k <= more; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return false;
    buf[p++] = b;
    for (let k = 1; k <= more; k++) buf[p++] = bytes[i + k]!;
    i += more;
  }
  buf[p++] = QUOTE;
  out.pos = p;
  return true;
}

function fieldValue(buf: Buffer, start: number, end: number): string {
  return buf.toString('utf8', start, end);
}

/**
 * Reads one ISO 2709 record into out (MARC-in-JSON, COPY-escaped) and answers its kept fields;
 * undefined, with out as it was, when the general path must read the record.
 */
export function readIso2709Json(bytes: Uint8Array, keep: ReadonlySet<number>, out: CopyWriter): MarcRecord | undefined {
  const length = bytes.length;
  if (length < LEADER_LENGTH + 1) return undefined;
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < LEADER_LENGTH; i++) if (!isPlain(buf[i]!)) return undefined;
  const directoryEnd = buf.indexOf(FIELD_TERMINATOR, LEADER_LENGTH);
  if (directoryEnd < 0 || (directoryEnd - LEADER_LENGTH) % DIRECTORY_ENTRY.length !== 0) return undefined;
  const dataStart = directoryEnd + 1;
  // Leader/09 'a' is UTF-8; otherwise MARC-8, which this path reads only where it is ASCII.
  const utf8 = buf[LEADER.characterCoding] === 0x61;
  const rewind = out.pos;
  const fail = () => {
    out.pos = rewind;
    return undefined;
  };
  out.ascii('{"leader":"');
  out.bytes(buf, 0, LEADER_LENGTH);
  out.ascii('","fields":[');
  const fields: Field[] = [];
  // The record's length as writeIso2709 would give it: leader, directory and its terminator, the
  // record terminator, then each field's bytes (its text is copied as it is).
  let recordBytes = directoryEnd + 2;
  for (let entry = LEADER_LENGTH; entry < directoryEnd; entry += DIRECTORY_ENTRY.length) {
    const t0 = buf[entry]!;
    const t1 = buf[entry + 1]!;
    const t2 = buf[entry + 2]!;
    if (!isAlnum(t0) || !isAlnum(t1) || !isAlnum(t2)) return fail();
    let offset = 0;
    for (let i = entry + DIRECTORY_ENTRY.start[0]; i < entry + DIRECTORY_ENTRY.start[1]; i++) {
      const d = buf[i]!;
      if (d < 0x30 || d > 0x39) return fail();
      offset = offset * 10 + d - 0x30;
    }
    const from = dataStart + offset;
    let to = buf.indexOf(FIELD_TERMINATOR, from);
    if (to < 0) to = buf.indexOf(RECORD_TERMINATOR, from);
    if (from >= length || to < 0) return fail();
    const kept = keep.has((t0 << 16) | (t1 << 8) | t2);
    const tag = kept ? String.fromCharCode(t0, t1, t2) : '';
    out.ensure(32);
    const o = out.buf;
    let p = out.pos;
    if (entry > LEADER_LENGTH) o[p++] = 0x2c; // ,
    o[p++] = 0x7b; // {
    o[p++] = QUOTE;
    o[p++] = t0;
    o[p++] = t1;
    o[p++] = t2;
    o[p++] = QUOTE;
    o[p++] = 0x3a; // :
    out.pos = p;
    if (t0 === 0x30 && t1 === 0x30) {
      if (!jsonString(out, buf, from, to, utf8)) return fail();
      out.byte(0x7d); // }
      if (to - from + 1 > MAX_FIELD_BYTES) return fail();
      recordBytes += to - from + 1;
      if (kept) fields.push({ tag, value: fieldValue(buf, from, to) });
      continue;
    }
    // As the general reader: an indicator is the byte itself unless it is a subfield delimiter.
    const i1 = to - from > 0 && buf[from] !== SUBFIELD_DELIMITER ? buf[from]! : 0x20;
    const i2 = to - from > 1 && buf[from + 1] !== SUBFIELD_DELIMITER ? buf[from + 1]! : 0x20;
    if (!isPlain(i1) || !isPlain(i2)) return fail();
    out.ascii('{"ind1":"');
    out.byte(i1);
    out.ascii('","ind2":"');
    out.byte(i2);
    out.ascii('","subfields":[');
    const subfields: Subfield[] = [];
    let fieldBytes = 3; // indicators and terminator
    let first = true;
    let pos = buf.indexOf(SUBFIELD_DELIMITER, from);
    if (pos >= to) pos = -1;
    while (pos >= 0) {
      let next = buf.indexOf(SUBFIELD_DELIMITER, pos + 1);
      if (next >= to) next = -1;
      const end = next < 0 ? to : next;
      if (end > pos + 1) {
        const code = buf[pos + 1]!;
        if (!isPlain(code) || code === 0x20) return fail();
        fieldBytes += end - pos;
        out.ensure(8);
        const q = out.buf;
        let p2 = out.pos;
        if (!first) q[p2++] = 0x2c;
        q[p2++] = 0x7b;
        q[p2++] = QUOTE;
        q[p2++] = code;
        q[p2++] = QUOTE;
        q[p2++] = 0x3a;
        out.pos = p2;
        if (!jsonString(out, buf, pos + 2, end, utf8)) return fail();
        out.byte(0x7d);
        first = false;
        if (kept) subfields.push({ code: String.fromCharCode(code), value: fieldValue(buf, pos + 2, end) });
      }
      pos = next;
    }
    out.ascii(']}}');
    if (fieldBytes > MAX_FIELD_BYTES) return fail();
    recordBytes += fieldBytes;
    if (kept) fields.push({ tag, ind1: String.fromCharCode(i1), ind2: String.fromCharCode(i2), subfields });
  }
  if (recordBytes > MAX_RECORD_BYTES) return fail();
  out.ascii(']}');
  return { leader: buf.toString('latin1', 0, LEADER_LENGTH), fields };
}
