// MARC-8 (ASCII and ANSEL) to Unicode, checked against the same records in UTF-8.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { decodeMarc8 } from '../../src/marc/marc8.ts';
import { readMarc } from '../../src/marc/read.ts';
import type { ReadResult } from '../../src/marc/read-result.ts';
import { marcFile } from '../helpers/shared-data.ts';

async function read(file: string): Promise<ReadResult[]> {
  const out: ReadResult[] = [];
  for await (const result of readMarc([fs.readFileSync(marcFile(file))])) out.push(result);
  return out;
}

describe('MARC-8', () => {
  it('puts combining marks after their letter and maps ANSEL spacing characters', () => {
    assert.equal(decodeMarc8(Buffer.from([0x43, 0x61, 0x66, 0xe2, 0x65])), 'Cafe\u0301');
    assert.equal(decodeMarc8(Buffer.from([0xe8, 0x75, 0x62, 0x65, 0x72])), 'u\u0308ber');
    assert.equal(decodeMarc8(Buffer.from([0xa5, 0xb1, 0xb2, 0xc7])), 'Æłøß');
    // Ligature halves around two letters: one double diacritic after the first (t͡s).
    assert.equal(decodeMarc8(Buffer.from([0xeb, 0x74, 0xec, 0x73])), 't\u0361s');
  });

  it('refuses what it cannot read instead of guessing', () => {
    assert.throws(() => decodeMarc8(Buffer.from([0x1b, 0x28, 0x4e, 0x41])), /escape sequences/);
    assert.throws(() => decodeMarc8(Buffer.from([0x41, 0xbf])), /0xbf/);
  });

  it('reads brkrtest.mrc (MARC-8) to exactly the text of brkrtest_UTF8.mrc', async () => {
    const marc8 = await read('brkrtest.mrc');
    const utf8 = await read('brkrtest_UTF8.mrc');
    assert.equal(marc8.length, 8);
    marc8.forEach((result, i) => {
      assert.equal(result.error, undefined);
      assert.deepEqual(result.record.fields, utf8[i]!.record!.fields, `record ${i + 1}`);
    });
  });

  it('reads the Latin MARC-8 files, and records whose leader/09 names the wrong character set', async () => {
    for (const [file, count] of [['selectedRecs.mrc', 11], ['pymarc-marc8.dat', 1], ['pymarc-test.dat', 10], ['pymarc-marc.dat', 20]] as const) {
      const results = await read(file);
      assert.equal(results.length, count, file);
      assert.deepEqual(results.filter((r) => r.error).map((r) => r.error), [], file);
    }
    // Leader says UTF-8, bytes are MARC-8 (ruby-marc's test), and the other way round (pymarc's).
    const [accented] = await read('ruby-marc-marc8_accented_chars.marc');
    assert.ok(accented?.record);
    assert.doesNotMatch(JSON.stringify(accented.record), /\uFFFD/);
    assert.match(JSON.stringify(accented.record).normalize('NFC'), /[àâäçéèêëîïôöùûü]/);
    const [unflagged] = await read('pymarc-utf8_without_leader_flag.dat');
    assert.ok(unflagged?.record);
  });

  it('reports a record that is neither, by position, and reads the rest (sample1.mrc)', async () => {
    const results = await read('sample1.mrc');
    assert.equal(results.length, 8);
    const failed = results.filter((r) => r.error);
    assert.equal(failed.length, 1);
    assert.match(failed[0]!.error!, /neither UTF-8 .* nor MARC-8/);
    assert.match(failed[0]!.position, /^record \d+ \(byte \d+\)$/);
  });
});
