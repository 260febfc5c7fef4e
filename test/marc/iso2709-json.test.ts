// The import's fast ISO 2709 reader writes exactly what the general reader and marcInJsonText
// give (COPY-escaped), or leaves the record to them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { CopyWriter } from '../../src/db/copy-text.ts';
import { readIso2709Json, tagKey } from '../../src/marc/iso2709-json.ts';
import { splitIso2709, writeIso2709 } from '../../src/marc/iso2709.ts';
import { marcInJsonText } from '../../src/marc/marc-in-json.ts';
import { readBinaryRecord } from '../../src/marc/read.ts';
import type { MarcRecord } from '../../src/marc/record.ts';
import { marcProblem } from '../../src/marc/validate.ts';
import { DERIVED_FROM_TAGS, deriveBib } from '../../src/bibs/derive.ts';
import { generateRecords } from '../../src/generate/catalogue.ts';
import { DEFAULT_ITEM_MAP, itemsFromRecord } from '../../src/items/from-marc.ts';
import { bib, recordOfBytes } from '../helpers/marc-records.ts';
import { MARC_DIR, marcFile } from '../helpers/shared-data.ts';

// What the import keeps: the fields deriveBib reads, 200 (for the UNIMARC message) and the item fields.
const KEEP: string[] = [...DERIVED_FROM_TAGS, '200', '949', '945', '852'];
const keep = new Set(KEEP.map(tagKey));

/** The general path's answer: the COPY cell and the kept fields, or the error (the reader's or the validator's). */
function general(bytes: Uint8Array): { cell: string; kept: MarcRecord } | { error: string } {
  try {
    const record = readBinaryRecord(bytes);
    const refused = marcProblem(record);
    if (refused !== undefined) return { error: refused };
    const w = new CopyWriter(16);
    w.cell(marcInJsonText(record));
    return {
      cell: w.written().toString('utf8'),
      kept: { leader: record.leader, fields: record.fields.filter((f) => KEEP.includes(f.tag)) },
    };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function fast(bytes: Uint8Array): { cell: string; kept: MarcRecord } | undefined {
  const w = new CopyWriter(16);
  w.ascii('x');
  const kept = readIso2709Json(bytes, keep, w);
  if (!kept) {
    assert.equal(w.pos, 1, 'a record left to the general path leaves the output as it was');
    return undefined;
  }
  return { cell: w.written().subarray(1).toString('utf8'), kept };
}

/** A UTF-8 record with one 245 $a of these raw bytes. */
function withTitle(bytes: number[], leader09 = 'a'): Uint8Array {
  const record: MarcRecord = {
    leader: '00000nam a2200000 a 4500',
    fields: [
      { tag: '001', value: 'x1' },
      { tag: '245', ind1: '1', ind2: '0', subfields: [{ code: 'a', value: 'PLACEHOLDER' }] },
    ],
  };
  const written = Buffer.from(writeIso2709(record));
  const at = written.indexOf('PLACEHOLDER');
  const out = Buffer.concat([written.subarray(0, at), Buffer.from(bytes), written.subarray(at + 'PLACEHOLDER'.length)]);
  // The field's length in the directory no longer fits; the readers go by the terminators.
  out[9] = leader09.charCodeAt(0); // the writer always says UTF-8
  return out;
}

describe('ISO 2709 straight to MARC-in-JSON (the import fast path)', () => {
  it('gives the general path’s output on every record of the shared ISO 2709 files, or leaves the record to it', async () => {
    let taken = 0;
    let left = 0;
    for (const name of fs.readdirSync(MARC_DIR).filter((n) => /\.(mrc|dat|marc)$/.test(n))) {
      for await (const { bytes } of splitIso2709([fs.readFileSync(marcFile(name))])) {
        const expected = general(bytes);
        const got = fast(bytes);
        if (!got) {
          left++;
          continue;
        }
        taken++;
        assert.ok(
          !('error' in expected),
          `${name}: the fast path read a record the general path refuses (${'error' in expected ? expected.error : ''})`,
        );
        assert.equal(got.cell, expected.cell, name);
        assert.deepEqual(got.kept, expected.kept, name);
        // What the import derives from the kept fields is what it would derive from the whole record.
        const whole = readBinaryRecord(bytes);
        assert.deepEqual(deriveBib(got.kept), deriveBib(whole), name);
        assert.deepEqual(itemsFromRecord(got.kept, DEFAULT_ITEM_MAP), itemsFromRecord(whole, DEFAULT_ITEM_MAP), name);
      }
    }
    assert.ok(taken > 100, `most records take the fast path (${taken} did, ${left} did not)`);
  });

  it('gives the same output for generated records', () => {
    for (const record of generateRecords(7, 1, 300)) {
      const bytes = writeIso2709(record);
      const expected = general(bytes);
      assert.deepEqual(fast(bytes), expected);
    }
  });

  it('escapes quotes, backslashes and control characters as JSON.stringify and COPY do', () => {
    const bytes = withTitle([...Buffer.from('a "q" \\ b'), 0x09, 0x0a, 0x0d, 0x08, 0x0c, 0x01, 0x1c, 0x7f, ...Buffer.from('é 𝄞 €')]);
    const got = fast(bytes);
    assert.ok(got);
    assert.deepEqual(got, general(bytes));
  });

  it('leaves to the general path what it does not read the same way', () => {
    const cases: [string, Uint8Array][] = [
      ['invalid UTF-8', withTitle([0x41, 0xc3, 0x28])],
      ['an overlong form', withTitle([0xc0, 0xaf])],
      ['a surrogate', withTitle([0xed, 0xa0, 0x80])],
      ['past U+10FFFF', withTitle([0xf4, 0x90, 0x80, 0x80])],
      ['a sequence cut short', withTitle([0x41, 0xe2, 0x82])],
      ['a byte order mark opening a value', withTitle([0xef, 0xbb, 0xbf, 0x41])],
      ['MARC-8 beyond ASCII', withTitle([0x41, 0xe1, 0x65], ' ')],
      ['a MARC-8 escape', withTitle([0x1b, 0x67, 0x61, 0x1b, 0x73], ' ')],
    ];
    for (const [what, bytes] of cases) assert.equal(fast(bytes), undefined, what);
    // What the validator refuses is left to the general path, which says why.
    const refused: [string, Uint8Array][] = [
      ['an ESC in a UTF-8 record', withTitle([0x41, 0x1b, 0x28, 0x42])],
      ['a NUL', withTitle([0x41, 0x00, 0x42])],
      ['a field over 9,999 bytes', withTitle(Array<number>(9995).fill(0x41))],
      ['a record over 99,999 bytes', writeIso2709(recordOfBytes(100_000))],
      ['a blank subfield code', writeIso2709(bib('Title', { tag: '500', ind1: ' ', ind2: ' ', subfields: [{ code: ' ', value: 'x' }] }))],
    ];
    for (const [what, bytes] of refused) {
      assert.equal(fast(bytes), undefined, what);
      assert.ok('error' in general(bytes), what);
    }
    // At the limits exactly, the fast path still reads the record.
    for (const bytes of [withTitle(Array<number>(9994).fill(0x41)), writeIso2709(recordOfBytes(99_999))]) {
      assert.ok(fast(bytes));
      assert.deepEqual(fast(bytes), general(bytes));
    }
    // ASCII in a MARC-8 record reads the same either way.
    const ascii = withTitle([...Buffer.from('plain "title"')], ' ');
    assert.deepEqual(fast(ascii), general(ascii));
  });
});
