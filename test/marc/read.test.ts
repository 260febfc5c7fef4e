// Reading and writing MARC on the real records of ../shared/data/marc.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { readIso2709, splitIso2709, writeIso2709 } from '../../src/marc/iso2709.ts';
import { fromMarcInJson, toMarcInJson } from '../../src/marc/marc-in-json.ts';
import { readMarcXml, toMarcXml } from '../../src/marc/marcxml.ts';
import { detectFormat, readMarc } from '../../src/marc/read.ts';
import type { ReadResult } from '../../src/marc/read-result.ts';
import { isControlField, type MarcRecord } from '../../src/marc/record.ts';
import { marcProblem } from '../../src/marc/validate.ts';
import { chunks, marcFile } from '../helpers/shared-data.ts';

async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

const records = (results: ReadResult[]) => results.map((r) => r.record).filter((r): r is MarcRecord => r !== undefined);
const title = (record: MarcRecord) =>
  record.fields.find((f) => f.tag === '245' && !isControlField(f)) as { subfields: { code: string; value: string }[] } | undefined;

const UTF8_FILES = {
  'pride-and-prejudice-fixed.mrc': 383,
  'brkrtest_UTF8.mrc': 8,
  '065001035.mrc': 40,
  'pymarc-diacritic.dat': 1,
  'pymarc-multi_isbn.dat': 1,
  'pymarc-utf8_with_leader_flag.dat': 1,
};

describe('ISO 2709, UTF-8', () => {
  for (const [file, count] of Object.entries(UTF8_FILES)) {
    it(`reads every record of ${file}, and writes each back byte for byte`, async () => {
      const results = await all(readMarc(chunks(file, 1000)));
      assert.deepEqual(
        results.filter((r) => r.error),
        [],
        'no record fails',
      );
      assert.equal(results.length, count);
      const pieces = await all(splitIso2709(chunks(file, 777)));
      assert.equal(pieces.length, count);
      for (const { bytes } of pieces) {
        const record = readIso2709(bytes);
        assert.deepEqual(Buffer.from(writeIso2709(record)), Buffer.from(bytes));
      }
    });
  }

  it('reads pymarc-regression45.dat, whose 752 fields carry a stray byte after the indicators', async () => {
    // The stray byte has no place in a MARC record's structure, so it cannot survive a round trip;
    // what is written is well formed, and reads back to the same record.
    const pieces = await all(splitIso2709(chunks('pymarc-regression45.dat')));
    assert.equal(pieces.length, 12);
    for (const { bytes } of pieces) {
      const record = readIso2709(bytes);
      const written = writeIso2709(record);
      assert.ok(written.length === bytes.length || written.length === bytes.length - 1);
      const again = readIso2709(written);
      assert.deepEqual(again.fields, record.fields);
      assert.equal(
        again.leader.slice(5, 12) + again.leader.slice(17),
        record.leader.slice(5, 12) + record.leader.slice(17),
        'leader apart from the lengths',
      );
    }
  });

  it('keeps diacritics and scripts as Unicode', async () => {
    const [result] = await all(readMarc(chunks('pymarc-utf8_with_leader_flag.dat')));
    assert.ok(result?.record);
    const text = JSON.stringify(result.record);
    assert.ok(
      [...text].some((c) => c.charCodeAt(0) > 0x7f),
      'has non-ASCII text',
    );
    assert.doesNotMatch(text, /\uFFFD/, 'no replacement characters');
  });

  it('reads records over 99,999 bytes whose length fields overflow', async () => {
    const results = await all(readMarc(chunks('bad_hathi_records.mrc', 65536)));
    assert.equal(results.length, 5);
    assert.deepEqual(
      results.filter((r) => r.error),
      [],
    );
    for (const record of records(results)) assert.ok(title(record), 'each has its title');
  });

  it('reports a truncated record and goes on with the others', async () => {
    const bytes = fs.readFileSync(marcFile('brkrtest_UTF8.mrc'));
    const pieces = await all(splitIso2709([bytes]));
    const second = pieces[1]!.bytes;
    const damaged = Buffer.concat([pieces[0]!.bytes, second.subarray(0, 40), Buffer.from([0x1d]), ...pieces.slice(2).map((p) => p.bytes)]);
    const results = await all(readMarc([damaged]));
    assert.equal(results.length, 8);
    assert.equal(results.filter((r) => r.error).length, 1);
    assert.match(results[1]!.error ?? '', /directory|field|short/);
    assert.match(results[1]!.position, /record 2/);
  });
});

describe('MARCXML', () => {
  it('reads OCLC_814388508.xml (Greek) and chabon-record-type.xml', async () => {
    const oclc = records(await all(readMarc(chunks('OCLC_814388508.xml'))));
    assert.equal(oclc.length, 1);
    assert.match(JSON.stringify(oclc[0]), /[\u0370-\u03ff]/, 'Greek text');
    assert.equal(records(await all(readMarc(chunks('chabon-record-type.xml')))).length, 2);
  });

  it('reports the malformed second record of three and keeps the other two', async () => {
    const results = await all(readMarc(chunks('ruby-marc-three-records-second-bad.xml', 512)));
    assert.equal(results.length, 3);
    assert.ok(results[0]!.record && results[2]!.record);
    assert.match(results[1]!.error ?? '', /./);
    assert.match(results[1]!.position, /record 2/);
  });

  it('writes what it reads', async () => {
    for (const record of records(await all(readMarc(chunks('pymarc-batch.xml'))))) {
      const again = records(await all(readMarcXml([`<collection>${toMarcXml(record)}</collection>`])));
      assert.deepEqual(again, [record]);
    }
  });
});

describe('MARC-in-JSON', () => {
  it('reads one record and a batch, and writes the same JSON back', async () => {
    for (const file of ['marc-in-json.json', 'pymarc-one.json', 'pymarc-batch.json']) {
      const json: unknown = JSON.parse(fs.readFileSync(marcFile(file), 'utf8'));
      const list = Array.isArray(json) ? json : [json];
      const results = await all(readMarc(chunks(file)));
      assert.equal(results.length, list.length, file);
      records(results).forEach((record, i) => assert.deepEqual(toMarcInJson(record), list[i]));
    }
  });

  it('gives the same records as MARCXML for the same batch', async () => {
    const fromJson = records(await all(readMarc(chunks('pymarc-batch.json'))));
    const fromXml = records(await all(readMarc(chunks('pymarc-batch.xml'))));
    assert.equal(fromJson.length, 2);
    assert.deepEqual(fromJson, fromXml);
  });

  it('refuses what is not the shape of a record, and leaves what it holds to the validator', () => {
    assert.throws(() => fromMarcInJson({ leader: 7, fields: [] }), /leader must be a string/);
    assert.throws(() => fromMarcInJson({ leader: '00000nam a2200000 a 4500', fields: {} }), /fields must be an array/);
    assert.throws(
      () =>
        fromMarcInJson({
          leader: '00000nam a2200000 a 4500',
          fields: [{ 245: { ind1: '1', ind2: '0', subfields: [{ a: 'x', b: 'y' }] } }],
        }),
      /each subfield must be \{"code": "value"\}/,
    );
    // Read as given; validate.ts (test/marc/validate.test.ts) says what is wrong with them.
    const read = (json: unknown) => marcProblem(fromMarcInJson(json));
    assert.equal(read({ leader: 'short', fields: [] }), 'the leader must be 24 ASCII characters');
    assert.equal(
      read({ leader: '00000nam a2200000 a 4500', fields: [{ 245: 'plain' }] }),
      'field 245 is a data field but has a plain value',
    );
    assert.match(
      read({ leader: '00000nam a2200000 a 4500', fields: [{ 245: { ind1: '1', ind2: '0', subfields: [{ ab: 'x' }] } }] })!,
      /^field 245: invalid subfield code "ab"/,
    );
  });
});

describe('format detection', () => {
  it('tells the formats apart by content', () => {
    assert.equal(detectFormat(Buffer.from('00714cam a2200205 a 4500')), 'iso2709');
    assert.equal(detectFormat(Buffer.from('\uFEFF<?xml version="1.0"?>')), 'marcxml');
    assert.equal(detectFormat(Buffer.from('  [{"leader":')), 'marc-in-json');
    assert.equal(detectFormat(Buffer.from('%PDF-1.4')), undefined);
  });
});
