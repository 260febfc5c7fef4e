// MARC-8 to Unicode: every character set and escape sequence, and real Latin MARC-8 records checked
// against the same records in UTF-8. The expected texts of the non-Latin sets were checked against
// yaz-iconv's MARC-8 decoder (none of the shared MARC files uses an escape sequence).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { decodeMarc8 } from '../../src/marc/marc8.ts';
import { readMarc } from '../../src/marc/read.ts';
import type { ReadResult } from '../../src/marc/read-result.ts';
import { marcFile } from '../helpers/shared-data.ts';

async function readAll(bytes: Uint8Array): Promise<ReadResult[]> {
  const out: ReadResult[] = [];
  for await (const result of readMarc([bytes])) out.push(result);
  return out;
}

function read(file: string): Promise<ReadResult[]> {
  return readAll(fs.readFileSync(marcFile(file)));
}

const ESC = 0x1b;

/** MARC-8 bytes from byte values and ASCII strings: m8(ESC, '(N', 0x41). */
function m8(...parts: (number | string)[]): Uint8Array {
  return Uint8Array.from(parts.flatMap((part) => (typeof part === 'number' ? [part] : Array.from(part, (c) => c.charCodeAt(0)))));
}

/** The ANSEL tables as they were typed and checked by hand (before the generated tables). */
const HAND_SPACING: Record<number, number> = {
  0x88: 0x0098,
  0x89: 0x009c,
  0x8d: 0x200d,
  0x8e: 0x200c,
  0xa1: 0x0141,
  0xa2: 0x00d8,
  0xa3: 0x0110,
  0xa4: 0x00de,
  0xa5: 0x00c6,
  0xa6: 0x0152,
  0xa7: 0x02b9,
  0xa8: 0x00b7,
  0xa9: 0x266d,
  0xaa: 0x00ae,
  0xab: 0x00b1,
  0xac: 0x01a0,
  0xad: 0x01af,
  0xae: 0x02bc,
  0xb0: 0x02bb,
  0xb1: 0x0142,
  0xb2: 0x00f8,
  0xb3: 0x0111,
  0xb4: 0x00fe,
  0xb5: 0x00e6,
  0xb6: 0x0153,
  0xb7: 0x02ba,
  0xb8: 0x0131,
  0xb9: 0x00a3,
  0xba: 0x00f0,
  0xbc: 0x01a1,
  0xbd: 0x01b0,
  0xc0: 0x00b0,
  0xc1: 0x2113,
  0xc2: 0x2117,
  0xc3: 0x00a9,
  0xc4: 0x266f,
  0xc5: 0x00bf,
  0xc6: 0x00a1,
  0xc7: 0x00df,
  0xc8: 0x20ac,
};
const HAND_COMBINING: Record<number, number> = {
  0xe0: 0x0309,
  0xe1: 0x0300,
  0xe2: 0x0301,
  0xe3: 0x0302,
  0xe4: 0x0303,
  0xe5: 0x0304,
  0xe6: 0x0306,
  0xe7: 0x0307,
  0xe8: 0x0308,
  0xe9: 0x030c,
  0xea: 0x030a,
  0xeb: 0x0361,
  0xed: 0x0315,
  0xee: 0x030b,
  0xef: 0x0310,
  0xf0: 0x0327,
  0xf1: 0x0328,
  0xf2: 0x0323,
  0xf3: 0x0324,
  0xf4: 0x0325,
  0xf5: 0x0333,
  0xf6: 0x0332,
  0xf7: 0x0326,
  0xf8: 0x031c,
  0xf9: 0x032e,
  0xfa: 0x0360,
  0xfe: 0x0313,
};

/** One MARC-8 ISO 2709 record (leader/09 blank) with the given data fields, each ind1 ind2 $a... */
function marc8Record(fields: [tag: string, body: Uint8Array][]): Uint8Array {
  const bodies = fields.map(([, body]) => Uint8Array.from([...body, 0x1e]));
  let directory = '';
  let offset = 0;
  fields.forEach(([tag], i) => {
    directory += `${tag}${String(bodies[i]!.length).padStart(4, '0')}${String(offset).padStart(5, '0')}`;
    offset += bodies[i]!.length;
  });
  const base = 24 + directory.length + 1;
  const total = base + offset + 1;
  const leader = `${String(total).padStart(5, '0')}nam  22${String(base).padStart(5, '0')} a 4500`;
  return Uint8Array.from([...m8(leader, directory, 0x1e), ...bodies.flatMap((body) => [...body]), 0x1d]);
}

describe('MARC-8', () => {
  it('puts combining marks after their letter and maps ANSEL spacing characters', () => {
    assert.equal(decodeMarc8(Buffer.from([0x43, 0x61, 0x66, 0xe2, 0x65])), 'Cafe\u0301');
    assert.equal(decodeMarc8(Buffer.from([0xe8, 0x75, 0x62, 0x65, 0x72])), 'u\u0308ber');
    assert.equal(decodeMarc8(Buffer.from([0xa5, 0xb1, 0xb2, 0xc7])), 'Æłøß');
    // Ligature halves around two letters: one double diacritic after the first (t͡s).
    assert.equal(decodeMarc8(Buffer.from([0xeb, 0x74, 0xec, 0x73])), 't\u0361s');
  });

  it('maps ANSEL exactly as the hand-checked tables did', () => {
    for (const [byte, char] of Object.entries(HAND_SPACING)) {
      assert.equal(decodeMarc8(m8(Number(byte))), String.fromCharCode(char), `0x${Number(byte).toString(16)}`);
    }
    for (const [byte, mark] of Object.entries(HAND_COMBINING)) {
      assert.equal(decodeMarc8(m8(Number(byte), 'a')), `a${String.fromCharCode(mark)}`, `0x${Number(byte).toString(16)}`);
    }
    for (let byte = 0x80; byte <= 0xff; byte++) {
      if (HAND_SPACING[byte] || HAND_COMBINING[byte] || byte === 0xec || byte === 0xfb) continue;
      assert.throws(() => decodeMarc8(m8(byte, 'a')), new RegExp(`0x${byte.toString(16)}`));
    }
  });

  it('reads Cyrillic, basic and extended, in G0 and in G1, and returns to ASCII', () => {
    // ESC ( N: basic Cyrillic as G0; ESC ( B: back to ASCII.
    assert.equal(
      decodeMarc8(m8(ESC, '(N', 0x77, 0x4f, 0x4a, 0x4e, 0x41, ' ', 0x49, ' ', 0x4d, 0x49, 0x52, ESC, '(B', ' (1869)')),
      'Война и мир (1869)',
    );
    // Basic Cyrillic in G0 and extended Cyrillic in G1 (ESC ) Q) at once: Київ.
    assert.equal(decodeMarc8(m8(ESC, '(N', ESC, ')Q', 0x6b, 0x49, 0xc7, 0x57)), 'Київ');
    // The other intermediates: ESC , N (G0) and ESC - N (G1, high bytes).
    assert.equal(decodeMarc8(m8(ESC, ',N', 0x4d, 0x49, 0x52)), 'мир');
    assert.equal(decodeMarc8(m8('Mir = ', ESC, '-N', 0xcd, 0xc9, 0xd2)), 'Mir = мир');
    // ESC s (technique 1's way back) returns to ASCII from any G0 set.
    assert.equal(decodeMarc8(m8(ESC, '(N', 0x41, ESC, 's', 'A')), 'аA');
    // An ANSEL mark (the stress accent of Russian dictionaries) before a Cyrillic letter.
    assert.equal(decodeMarc8(m8(ESC, '(N', 0x4d, 0xe2, 0x49, 0x52)), 'ми\u0301р');
  });

  it('reads Greek, Hebrew and Arabic, marks after their letter', () => {
    // Basic Greek (ESC ( S): λόγος, the acute (0x22) before its omicron.
    assert.equal(decodeMarc8(m8(ESC, '(S', 0x6e, 0x22, 0x72, 0x64, 0x72, 0x77)), 'λο\u0301γος');
    // Basic Hebrew (ESC ( 2): שָׁלוֹם, shin dot and qamats before shin, holam before vav.
    assert.equal(decodeMarc8(m8(ESC, '(2', 0x4d, 0x41, 0x79, 0x6c, 0x45, 0x65, 0x6d)), '\u05e9\u05c1\u05b8\u05dc\u05d5\u05b9\u05dd');
    // Basic Arabic (ESC ( 3): كتاب, then كَتَبَ with a fatha before each letter.
    assert.equal(decodeMarc8(m8(ESC, '(3', 0x63, 0x4a, 0x47, 0x48)), '\u0643\u062a\u0627\u0628');
    assert.equal(decodeMarc8(m8(ESC, '(3', 0x6e, 0x63, 0x6e, 0x4a, 0x6e, 0x48)), '\u0643\u064e\u062a\u064e\u0628\u064e');
    // Extended Arabic in G1 (ESC ) 4) beside basic Arabic in G0: پارس.
    assert.equal(decodeMarc8(m8(ESC, '(3', ESC, ')4', 0xa9, 0x47, 0x51, 0x53)), '\u067e\u0627\u0631\u0633');
    // Arabic digits and punctuation of the set, and the space, which every set shares.
    assert.equal(decodeMarc8(m8(ESC, '(3', 0x31, 0x39, 0x38, 0x34, ' ', 0x3f)), '\u0661\u0669\u0668\u0664 \u061f');
  });

  it('reads EACC (Chinese, Japanese, Korean: three bytes a character)', () => {
    assert.equal(decodeMarc8(m8(ESC, '$1', 0x21, 0x30, 0x21, ESC, '(B')), '一');
    assert.equal(
      decodeMarc8(m8(ESC, '$1', 0x21, 0x30, 0x34, 0x21, 0x42, 0x58, ' ', 0x21, 0x42, 0x73, 0x21, 0x43, 0x69, 0x21, 0x58, 0x6c)),
      '中文 日本語',
    );
    assert.equal(decodeMarc8(m8(ESC, '$1', 0x6f, 0x5c, 0x65, 0x6f, 0x49, 0x6f, 0x6f, 0x55, 0x44)), '한국어');
    assert.equal(
      decodeMarc8(m8(ESC, '$1', 0x69, 0x24, 0x52, 0x69, 0x24, 0x69, 0x69, 0x24, 0x2c, 0x69, 0x24, 0x4a, ESC, '(B', '.')),
      'ひらがな.',
    );
    // ESC $ , 1 (G0) and ESC $ ) 1 (G1, high bytes), with ASCII in G0 around it.
    assert.equal(decodeMarc8(m8(ESC, '$,1', 0x21, 0x30, 0x21)), '一');
    assert.equal(decodeMarc8(m8('Zhongwen ', ESC, '$)1', 0xa1, 0xb0, 0xb4, 0xa1, 0xc2, 0xd8, ' (1)')), 'Zhongwen 中文 (1)');
    // Codes with 0x20 inside them: IDEOGRAPHIC SPACE, LEFT DOUBLE QUOTATION MARK (one yaz cannot read).
    assert.equal(decodeMarc8(m8(ESC, '$1', 0x21, 0x23, 0x20, 0x21, 0x30, 0x21, 0x21, 0x20, 0x40)), '\u3000一\u201c');
  });

  it('reads the Greek symbols, subscripts and superscripts (technique 1) and ANSEL as G0', () => {
    assert.equal(decodeMarc8(m8('H', ESC, 'b', '2', ESC, 's', 'O')), 'H₂O');
    assert.equal(decodeMarc8(m8('E=mc', ESC, 'p', '2', ESC, 's')), 'E=mc²');
    assert.equal(decodeMarc8(m8(ESC, 'p', '(-1)', ESC, 'b', '10', ESC, 's', '!')), '⁽⁻¹⁾₁₀!');
    assert.equal(decodeMarc8(m8(ESC, 'g', 'abc', ESC, 's', 'abc')), 'αβγabc');
    // ESC ( ! E: ANSEL in G0, so 0x62 is the acute; it waits for its letter across the escape.
    assert.equal(decodeMarc8(m8(ESC, '(!E', 0x62, ESC, '(B', 'e')), 'e\u0301');
    // ESC ) B: ASCII in G1.
    assert.equal(decodeMarc8(m8(ESC, ')B', 0xc1, 0xc2)), 'AB');
  });

  it('refuses what it cannot read, naming it, instead of guessing', () => {
    const refuses = (bytes: Uint8Array, message: RegExp) =>
      assert.throws(
        () => decodeMarc8(bytes),
        (error: Error) => error.name === 'MarcError' && message.test(error.message),
      );
    refuses(m8(ESC, '(Z', 'A'), /unknown MARC-8 escape sequence ESC \( Z \(0x1b 0x28 0x5a\)/);
    refuses(m8(ESC, '$N', 'A'), /unknown MARC-8 escape sequence ESC \$ N/);
    refuses(m8(ESC, '(g', 'a'), /unknown MARC-8 escape sequence ESC \( g/);
    refuses(m8(ESC, '(!F', 'a'), /unknown MARC-8 escape sequence ESC \( ! F/);
    refuses(m8(ESC, 'x'), /unknown MARC-8 escape sequence ESC x/);
    refuses(m8('a', ESC, '('), /incomplete MARC-8 escape sequence ESC \(/);
    refuses(m8('a', ESC), /escape \(0x1b\) at the end/);
    refuses(m8(0x41, 0xbf), /byte 0xbf is not a character of the MARC-8 ANSEL extended Latin set/);
    refuses(m8(0x81), /byte 0x81 is not a MARC-8 character/);
    refuses(m8(ESC, '(Q', 0x21), /byte 0x21 is not a character of the MARC-8 extended Cyrillic set \(G0\)/);
    refuses(m8('H', ESC, 'b', 'X'), /byte 0x58 is not a character of the MARC-8 subscripts set/);
    refuses(m8(ESC, '$1', 0x7e, 0x7e, 0x7e), /EACC code 0x7e7e7e is not a character/);
    refuses(m8(ESC, '$1', 0x21, 0x30), /EACC character .* cut short/);
    refuses(m8(ESC, '$1', 0x21, 0x0a, 0x21), /not an EACC character/);
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
    for (const [file, count] of [
      ['selectedRecs.mrc', 11],
      ['pymarc-marc8.dat', 1],
      ['pymarc-test.dat', 10],
      ['pymarc-marc.dat', 20],
    ] as const) {
      const results = await read(file);
      assert.equal(results.length, count, file);
      assert.deepEqual(
        results.filter((r) => r.error).map((r) => r.error),
        [],
        file,
      );
    }
    // Leader says UTF-8, bytes are MARC-8 (ruby-marc's test), and the other way round (pymarc's).
    const [accented] = await read('ruby-marc-marc8_accented_chars.marc');
    assert.ok(accented?.record);
    assert.doesNotMatch(JSON.stringify(accented.record), /\uFFFD/);
    assert.match(JSON.stringify(accented.record).normalize('NFC'), /[àâäçéèêëîïôöùûü]/);
    const [unflagged] = await read('pymarc-utf8_without_leader_flag.dat');
    assert.ok(unflagged?.record);
  });

  it('reads a MARC-8 record that switches sets, and reports one with an unknown set by its field', async () => {
    const title = m8(
      '10',
      0x1f,
      'a',
      ESC,
      '(N',
      0x77,
      0x4f,
      0x4a,
      0x4e,
      0x41,
      ' ',
      0x49,
      ' ',
      0x4d,
      0x49,
      0x52,
      ESC,
      '(B',
      ' /',
      0x1f,
      'c',
      'L. N. Tolsto',
      0xe2,
      'i.',
    );
    const original = m8('00', 0x1f, '6', '245-01/$1', 0x1f, 'a', ESC, '$1', 0x21, 0x30, 0x34, 0x21, 0x42, 0x58, ESC, '(B');
    const [good] = await readAll(
      marc8Record([
        ['245', title],
        ['880', original],
      ]),
    );
    assert.equal(good?.error, undefined);
    assert.deepEqual(good?.record?.fields, [
      {
        tag: '245',
        ind1: '1',
        ind2: '0',
        subfields: [
          { code: 'a', value: 'Война и мир /' },
          { code: 'c', value: 'L. N. Tolstoi\u0301.' },
        ],
      },
      {
        tag: '880',
        ind1: '0',
        ind2: '0',
        subfields: [
          { code: '6', value: '245-01/$1' },
          { code: 'a', value: '中文' },
        ],
      },
    ]);
    const [bad] = await readAll(marc8Record([['245', m8('10', 0x1f, 'a', ESC, '(Z', 'x')]]));
    // All its bytes are ASCII, so it would read as UTF-8, escape sequence and all: its escape marks it as MARC-8.
    assert.match(bad?.error ?? '', /^field 245: unknown MARC-8 escape sequence ESC \( Z/);
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
