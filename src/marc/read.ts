// Reads MARC records from a byte stream in any of the formats Carrel takes, detected from the
// content: ISO 2709, MARCXML, MARC-in-JSON (one record, an array, or one record per line).
import { decodeUtf8, readIso2709, splitIso2709 } from './iso2709.ts';
import { decodeMarc8 } from './marc8.ts';
import { LEADER } from './positions.ts';
import { fromMarcInJson } from './marc-in-json.ts';
import { readMarcXml } from './marcxml.ts';
import type { ReadResult } from './read-result.ts';
import { MarcError, type MarcRecord } from './record.ts';

export type MarcFormat = 'iso2709' | 'marcxml' | 'marc-in-json';

export function detectFormat(head: Uint8Array): MarcFormat | undefined {
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0; // UTF-8 byte order mark
  while (i < head.length && [0x20, 0x09, 0x0a, 0x0d].includes(head[i]!)) i++;
  const first = head[i];
  if (first === 0x3c) return 'marcxml'; // <
  if (first === 0x7b || first === 0x5b) return 'marc-in-json'; // { or [
  // ISO 2709 starts with the record length: five digits.
  if (head.length >= i + 5 && head.subarray(i, i + 5).every((b) => b >= 0x30 && b <= 0x39)) return 'iso2709';
  return undefined;
}

/**
 * Reads one binary record in its character set: leader/09 'a' is UTF-8, blank is MARC-8. A record
 * that cannot be read in the set its leader names is read in the other (files with a wrong
 * leader/09 exist both ways); the whole record is decoded one way, never field by field. A MARC-8
 * record with escape sequences (ESC, 0x1b) is MARC-8 for sure: if it cannot be read, the MARC-8
 * error stands (read as UTF-8 it would keep its escape sequences as text).
 */
export function readBinaryRecord(bytes: Uint8Array): MarcRecord {
  const [first, second] = bytes[LEADER.characterCoding] === 0x61 ? [decodeUtf8, decodeMarc8] : [decodeMarc8, decodeUtf8];
  try {
    return readIso2709(bytes, first);
  } catch (error) {
    if (first === decodeMarc8 && bytes.includes(0x1b)) throw error;
    try {
      return readIso2709(bytes, second);
    } catch (other) {
      const [utf8, marc8] = bytes[LEADER.characterCoding] === 0x61 ? [error, other] : [other, error];
      throw new MarcError(`neither UTF-8 (${(utf8 as Error).message}) nor MARC-8 (${(marc8 as Error).message})`);
    }
  }
}

async function* prepend(first: Uint8Array, rest: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield first;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}

export type Chunks<T = Uint8Array> = AsyncIterable<T> | Iterable<T>;

/** A record of the input; ISO 2709 records as their bytes, for a reader that takes them as they are. */
export type RawReadResult = ReadResult | { position: string; bytes: Uint8Array; record?: undefined; error?: undefined };

export async function* readMarc(chunks: Chunks): AsyncGenerator<ReadResult> {
  for await (const result of readMarcRaw(chunks)) {
    if (!result.bytes) {
      yield result;
      continue;
    }
    try {
      yield { position: result.position, record: readBinaryRecord(result.bytes) };
    } catch (error) {
      yield { position: result.position, error: error instanceof Error ? error.message : String(error) };
    }
  }
}

/** As readMarc, with ISO 2709 records left as bytes (readBinaryRecord reads one). */
export async function* readMarcRaw(chunks: Chunks): AsyncGenerator<RawReadResult> {
  const iterator = (async function* () {
    yield* chunks;
  })();
  const first = await iterator.next();
  if (first.done) return;
  const stream = prepend(first.value, iterator);
  const format = detectFormat(first.value.subarray(0, 64));
  if (!format) {
    yield { position: 'byte 0', error: 'not a MARC file: expected ISO 2709, MARCXML or MARC-in-JSON' };
    return;
  }
  if (format === 'marcxml') {
    yield* readMarcXml(stream);
    return;
  }
  if (format === 'marc-in-json') {
    yield* readJson(stream);
    return;
  }
  let index = 0;
  for await (const { bytes, offset } of splitIso2709(stream)) {
    index++;
    yield { position: `record ${index} (byte ${offset})`, bytes };
  }
}

async function* readJson(stream: AsyncIterable<Uint8Array>): AsyncGenerator<ReadResult> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(Buffer.from(chunk));
  const text = Buffer.concat(parts)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  let docs: { value: unknown; position: string }[];
  try {
    const parsed: unknown = JSON.parse(text);
    const list: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
    docs = list.map((value, i) => ({ value, position: `record ${i + 1}` }));
  } catch {
    // One record per line (JSON Lines), each line judged on its own.
    docs = [];
    text.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      try {
        docs.push({ value: JSON.parse(line), position: `line ${i + 1}` });
      } catch (error) {
        docs.push({ value: new MarcError(`invalid JSON: ${(error as Error).message}`), position: `line ${i + 1}` });
      }
    });
  }
  for (const { value, position } of docs) {
    try {
      if (value instanceof MarcError) throw value;
      yield { position, record: fromMarcInJson(value) };
    } catch (error) {
      yield { position, error: error instanceof Error ? error.message : String(error) };
    }
  }
}
