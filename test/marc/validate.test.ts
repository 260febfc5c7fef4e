// The one check of what a MARC record may hold (src/marc/validate.ts): each rule with the words
// both doors report, and ISO 2709's lengths counted as writeIso2709 writes them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readIso2709, writeIso2709 } from '../../src/marc/iso2709.ts';
import type { MarcRecord } from '../../src/marc/record.ts';
import { marcProblem } from '../../src/marc/validate.ts';
import { bib, fieldOfBytes, LEADER, recordOfBytes } from '../helpers/marc-records.ts';

const withField = (field: MarcRecord['fields'][number]): MarcRecord => ({ ...bib('Title'), fields: [...bib('Title').fields, field] });
const note = (value: string, code = 'a') => withField({ tag: '500', ind1: ' ', ind2: ' ', subfields: [{ code, value }] });

describe('the MARC validator', () => {
  it('takes a well-formed record', () => {
    assert.equal(marcProblem(bib('Title')), undefined);
    assert.equal(marcProblem(note('tabs\tand\nnew lines, fill | and é 𝄞')), undefined);
    assert.equal(marcProblem(withField({ tag: '500', ind1: '|', ind2: '#', subfields: [{ code: '$', value: 'marks' }] })), undefined);
  });

  it('refuses each thing ISO 2709 cannot carry, naming the field', () => {
    const cases: [string, MarcRecord, string][] = [
      ['short leader', { ...bib('T'), leader: 'short' }, 'the leader must be 24 ASCII characters'],
      ['non-ASCII leader', { ...bib('T'), leader: `${LEADER.slice(0, 23)}é` }, 'the leader must be 24 ASCII characters'],
      [
        'NUL in the leader',
        { ...bib('T'), leader: `${LEADER.slice(0, 23)}\u0000` },
        'the leader holds a NUL (0x00), which cannot be stored',
      ],
      ['bad tag', withField({ tag: '24$', ind1: ' ', ind2: ' ', subfields: [] }), 'field "24$": a tag is three ASCII letters or digits'],
      ['short tag', withField({ tag: '24', ind1: ' ', ind2: ' ', subfields: [] }), 'field "24": a tag is three ASCII letters or digits'],
      ['data tag, control field', withField({ tag: '500', value: 'x' }), 'field 500 is a data field but has a plain value'],
      [
        'control tag, data field',
        withField({ tag: '005', ind1: ' ', ind2: ' ', subfields: [] }),
        'field 005 is a control field but has indicators and subfields',
      ],
      [
        'two-character indicator',
        withField({ tag: '500', ind1: '10', ind2: ' ', subfields: [] }),
        'field 500: ind1 must be one ASCII character, not "10"',
      ],
      [
        'empty indicator',
        withField({ tag: '500', ind1: ' ', ind2: '', subfields: [] }),
        'field 500: ind2 must be one ASCII character, not ""',
      ],
      [
        'non-ASCII indicator',
        withField({ tag: '500', ind1: 'é', ind2: ' ', subfields: [] }),
        'field 500: ind1 must be one ASCII character, not "é"',
      ],
      ['blank subfield code', note('x', ' '), 'field 500: invalid subfield code " " (a code is one ASCII letter, digit or mark)'],
      ['long subfield code', note('x', 'ab'), 'field 500: invalid subfield code "ab" (a code is one ASCII letter, digit or mark)'],
      ['non-ASCII subfield code', note('x', 'é'), 'field 500: invalid subfield code "é" (a code is one ASCII letter, digit or mark)'],
      [
        'raw ESC',
        note('A \u001b(B'),
        'field 500 $a holds an ESC (0x1b): MARC-8 escape sequences are read in MARC-8 ISO 2709 records (leader/09 blank), never kept as text',
      ],
      ['NUL', note('A\u0000B'), 'field 500 $a holds a NUL (0x00), which cannot be stored'],
      ['subfield delimiter', note('A\u001fbB'), 'field 500 $a holds a subfield delimiter (0x1f), which ISO 2709 cannot carry in text'],
      [
        'field terminator',
        withField({ tag: '005', value: '2024\u001e' }),
        'field 005 holds a field terminator (0x1e), which ISO 2709 cannot carry in text',
      ],
      ['record terminator', note('\u001d'), 'field 500 $a holds a record terminator (0x1d), which ISO 2709 cannot carry in text'],
      ['field over 9,999 bytes', bib('T', fieldOfBytes('520', 12_034)), 'field 520 is 12034 bytes; ISO 2709 allows at most 9,999'],
      ['record over 99,999 bytes', recordOfBytes(100_000), 'the record is 100000 bytes; ISO 2709 allows at most 99,999'],
    ];
    for (const [what, record, message] of cases) assert.equal(marcProblem(record), message, what);
  });

  it('counts bytes as UTF-8, not characters', () => {
    // 4,997 two-byte letters and the field's 5 bytes of structure: 9,999 bytes.
    const widest = note('é'.repeat(4_997));
    assert.equal(marcProblem(widest), undefined);
    assert.equal(marcProblem(note('é'.repeat(4_998))), 'field 500 is 10001 bytes; ISO 2709 allows at most 9,999');
    // 3,332 three-byte euro signs, two letters and the terminator: 9,999 bytes.
    assert.equal(marcProblem(withField({ tag: '009', value: `${'€'.repeat(3_332)}xx` })), undefined);
    assert.equal(
      marcProblem(withField({ tag: '009', value: `${'€'.repeat(3_332)}xxx` })),
      'field 009 is 10000 bytes; ISO 2709 allows at most 9,999',
    );
  });

  it('takes the largest record ISO 2709 can hold, which writes and reads back whole', () => {
    const record = recordOfBytes(99_999);
    assert.ok(
      record.fields.some((f) => 'subfields' in f && Buffer.byteLength(f.subfields[0]!.value) === 9_999 - 5),
      'a field of 9,999 bytes',
    );
    assert.equal(marcProblem(record), undefined);
    const written = Buffer.from(writeIso2709(record));
    assert.equal(written.length, 99_999);
    assert.equal(written.subarray(0, 5).toString(), '99999', 'the leader gives the length');
    const directory = written.subarray(24, written.indexOf(0x1e)).toString();
    assert.ok(/^(\d{3}\d{4}\d{5})+$/.test(directory) && directory.includes('5209999'), 'a directory entry of length 9999');
    assert.deepEqual(readIso2709(written), { ...record, leader: written.subarray(0, 24).toString() });
  });
});
