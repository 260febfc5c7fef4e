// A POST or PUT /bibs body read into the one record it carries: MARC-in-JSON (parsed JSON: a
// record, [record], or {"marc": record, "suppressed": …}), MARCXML (text) or ISO 2709 (bytes). The
// records are read by the readers `carrel import` uses (so MARC-8 is read as the import reads it,
// and a record that cannot be read is refused in the words the import reports); what the record
// may hold is the service's to check (refusal.ts). A body holding more than one record is refused,
// naming how many: a POST answers the link of one new bib, and a PUT replaces one.
import { splitIso2709 } from '../marc/iso2709.ts';
import { fromMarcInJson } from '../marc/marc-in-json.ts';
import { readMarcXml } from '../marc/marcxml.ts';
import { readBinaryRecord } from '../marc/read.ts';
import type { ReadResult } from '../marc/read-result.ts';
import type { MarcRecord } from '../marc/record.ts';
import { DomainError, fail } from '../shared/errors.ts';
import type { BibInput } from './service.ts';
import { fromBibPatch, isBibPatch } from './patch.ts';

/** Refuses a body that does not hold exactly one record. */
function expectOne(count: number): void {
  if (count === 0) throw fail.invalidInput('the body holds no record');
  if (count > 1) throw fail.invalidInput(`the body holds ${count} records; send one per request`);
}

/** A reader's verdict on a record: its record, or its reason as the refusal. */
function readOne(read: () => MarcRecord): MarcRecord {
  try {
    return read();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw fail.invalidInput(error instanceof Error ? error.message : String(error));
  }
}

async function fromIso2709(body: Buffer): Promise<MarcRecord> {
  const pieces: Uint8Array[] = [];
  for await (const { bytes } of splitIso2709([body])) pieces.push(bytes);
  expectOne(pieces.length);
  return readOne(() => readBinaryRecord(pieces[0]!));
}

async function fromMarcXml(body: string): Promise<MarcRecord> {
  const results: ReadResult[] = [];
  for await (const result of readMarcXml([body])) results.push(result);
  // What breaks the document outside any <record> is said first: it is not a count of records.
  const broken = results.find((r) => r.error !== undefined && !r.position.startsWith('record '));
  if (broken) throw fail.invalidInput(broken.error!);
  expectOne(results.length);
  const only = results[0]!;
  if (only.error !== undefined) throw fail.invalidInput(only.error);
  return only.record;
}

function fromJson(body: unknown): BibInput {
  if (!body || typeof body !== 'object') throw fail.invalidInput('the body must be a MARC-in-JSON record or {"marc": …}');
  if (isBibPatch(body)) return fromBibPatch(body as Record<string, unknown>);
  const wrapper = (Array.isArray(body) ? {} : body) as { marc?: unknown; suppressed?: unknown };
  if (wrapper.suppressed !== undefined && typeof wrapper.suppressed !== 'boolean')
    throw fail.invalidInput('suppressed must be true or false');
  const marc = 'marc' in wrapper ? wrapper.marc : body;
  // An array of records, as `carrel import` reads a MARC-in-JSON file.
  const records = Array.isArray(marc) ? marc : [marc];
  expectOne(records.length);
  return { marc: readOne(() => fromMarcInJson(records[0])), suppressed: wrapper.suppressed };
}

/** The record of a request body, or a DomainError (invalidInput) saying why it cannot be read. */
export async function parseBibBody(body: unknown): Promise<BibInput> {
  if (Buffer.isBuffer(body)) return { marc: await fromIso2709(body) };
  if (typeof body === 'string') return { marc: await fromMarcXml(body) };
  return fromJson(body);
}
