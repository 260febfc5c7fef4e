// ISO 2709 (MARC 21 "transmission format"). Reading trusts the structural characters more than
// the length fields: records over 99,999 bytes overflow the leader's and the directory's length
// fields (real files have them), so records are split on the record terminator and each field
// runs from its directory start to its field terminator.
import { DIRECTORY_ENTRY, LEADER, LEADER_LENGTH } from './positions.ts';
import { isControlField, isControlTag, MarcError, type DataField, type Field, type MarcRecord } from './record.ts';

export const RECORD_TERMINATOR = 0x1d;
const FIELD_TERMINATOR = 0x1e;
const SUBFIELD_DELIMITER = 0x1f;

export type TextDecoderFn = (bytes: Uint8Array) => string;

const utf8 = new TextDecoder('utf-8', { fatal: true });
export const decodeUtf8: TextDecoderFn = (bytes) => utf8.decode(bytes);

function ascii(bytes: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}

/**
 * Reads one record (its bytes up to and including the record terminator). Only its structure is
 * checked here; what its fields may hold (a tag's characters, lengths) is validate.ts's to say.
 */
export function readIso2709(bytes: Uint8Array, decode: TextDecoderFn = decodeUtf8): MarcRecord {
  if (bytes.length < LEADER_LENGTH + 1) throw new MarcError(`too short for a MARC record (${bytes.length} bytes)`);
  const leader = ascii(bytes, 0, LEADER_LENGTH);
  // The data starts after the directory's terminator; the leader's base address should say the
  // same, but the terminator is what the reader can trust.
  const directoryEnd = bytes.indexOf(FIELD_TERMINATOR, LEADER_LENGTH);
  if (directoryEnd < 0) throw new MarcError('no end of directory');
  const dataStart = directoryEnd + 1;
  if ((directoryEnd - LEADER_LENGTH) % DIRECTORY_ENTRY.length !== 0)
    throw new MarcError(`directory length is not a multiple of ${DIRECTORY_ENTRY.length}`);
  const fields: Field[] = [];
  for (let entry = LEADER_LENGTH; entry < directoryEnd; entry += DIRECTORY_ENTRY.length) {
    const tag = ascii(bytes, entry + DIRECTORY_ENTRY.tag[0], entry + DIRECTORY_ENTRY.tag[1]);
    const start = Number(ascii(bytes, entry + DIRECTORY_ENTRY.start[0], entry + DIRECTORY_ENTRY.start[1]));
    if (!Number.isInteger(start)) throw new MarcError(`field ${tag}: invalid start position`);
    const from = dataStart + start;
    let to = bytes.indexOf(FIELD_TERMINATOR, from);
    if (to < 0) to = bytes.indexOf(RECORD_TERMINATOR, from);
    if (from >= bytes.length || to < 0) throw new MarcError(`field ${tag}: starts past the end of the record`);
    const body = bytes.subarray(from, to);
    fields.push(isControlTag(tag) ? { tag, value: decodeOrThrow(decode, body, tag) } : readDataField(tag, body, decode));
  }
  return { leader, fields };
}

function decodeOrThrow(decode: TextDecoderFn, bytes: Uint8Array, tag: string): string {
  try {
    return decode(bytes);
  } catch (error) {
    throw new MarcError(`field ${tag}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function readDataField(tag: string, body: Uint8Array, decode: TextDecoderFn): DataField {
  const ind1 = body.length > 0 && body[0] !== SUBFIELD_DELIMITER ? String.fromCharCode(body[0]!) : ' ';
  const ind2 = body.length > 1 && body[1] !== SUBFIELD_DELIMITER ? String.fromCharCode(body[1]!) : ' ';
  const subfields: DataField['subfields'] = [];
  let pos = body.indexOf(SUBFIELD_DELIMITER);
  while (pos >= 0 && pos < body.length) {
    const next = body.indexOf(SUBFIELD_DELIMITER, pos + 1);
    const end = next < 0 ? body.length : next;
    if (end > pos + 1) {
      subfields.push({ code: String.fromCharCode(body[pos + 1]!), value: decodeOrThrow(decode, body.subarray(pos + 2, end), tag) });
    }
    pos = next;
  }
  return { tag, ind1, ind2, subfields };
}

const encoder = new TextEncoder();

function digits(n: number, width: number): string {
  const s = String(n);
  // Lengths that do not fit (records over 99,999 bytes) are written as zeros, as other systems do.
  return s.length > width ? '0'.repeat(width) : s.padStart(width, '0');
}

/** Writes a record as UTF-8 ISO 2709 (leader/09 = 'a'), lengths and base address computed. */
export function writeIso2709(record: MarcRecord): Uint8Array {
  const bodies = record.fields.map((field) => {
    if (isControlField(field)) return encoder.encode(`${field.value}\x1e`);
    const subfields = field.subfields.map((sf) => `\x1f${sf.code}${sf.value}`).join('');
    return encoder.encode(`${field.ind1 || ' '}${field.ind2 || ' '}${subfields}\x1e`);
  });
  let directory = '';
  let offset = 0;
  record.fields.forEach((field, i) => {
    directory += `${field.tag}${digits(bodies[i]!.length, 4)}${digits(offset, 5)}`;
    offset += bodies[i]!.length;
  });
  const base = LEADER_LENGTH + directory.length + 1;
  const total = base + offset + 1;
  // The record's length, its coding (a: UTF-8) and its base address are this writing's; the rest of
  // the leader is kept as given.
  const leader =
    digits(total, 5) +
    record.leader.slice(LEADER.recordStatus, LEADER.characterCoding) +
    'a' +
    record.leader.slice(LEADER.indicatorCount, LEADER.baseAddress[0]) +
    digits(base, 5) +
    record.leader.slice(LEADER.encodingLevel, LEADER_LENGTH);
  const out = new Uint8Array(total);
  out.set(encoder.encode(`${leader}${directory}\x1e`), 0);
  let at = base;
  for (const body of bodies) {
    out.set(body, at);
    at += body.length;
  }
  out[at] = RECORD_TERMINATOR;
  return out;
}

/**
 * Splits a byte stream into records on the record terminator, without holding more than one
 * record (plus one read chunk) in memory. Yields each record's bytes and its position.
 */
export async function* splitIso2709(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): AsyncGenerator<{ bytes: Uint8Array; offset: number }> {
  let pending: Uint8Array[] = [];
  let pendingLength = 0;
  let offset = 0;
  for await (const chunk of chunks) {
    let from = 0;
    for (let end = chunk.indexOf(RECORD_TERMINATOR); end >= 0; end = chunk.indexOf(RECORD_TERMINATOR, from)) {
      const piece = chunk.subarray(from, end + 1);
      const bytes = pendingLength === 0 ? piece : Buffer.concat([...pending, piece]);
      pending = [];
      pendingLength = 0;
      yield { bytes: trimLeadingNoise(bytes), offset };
      offset += bytes.length;
      from = end + 1;
    }
    if (from < chunk.length) {
      const rest = chunk.subarray(from);
      pending.push(rest);
      pendingLength += rest.length;
    }
  }
  const tail = Buffer.concat(pending);
  if (trimLeadingNoise(tail).length > 0) yield { bytes: tail, offset };
}

/** Line breaks or padding between records (some files have them) are not part of the next record. */
function trimLeadingNoise(bytes: Uint8Array): Uint8Array {
  let i = 0;
  while (i < bytes.length && (bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x20 || bytes[i] === 0x00)) i++;
  return i === 0 ? bytes : bytes.subarray(i);
}
