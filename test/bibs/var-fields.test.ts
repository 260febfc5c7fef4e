// varFields are made straight from the stored MARC-in-JSON (src/bibs/present.ts): they must be
// what the checked reading of the same JSON gives, field for field, for every real record.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { Unexpected, varFields, varFieldsFromBytes, writeVarFields } from '../../src/bibs/var-fields.ts';
import { ByteWriter } from '../../src/shared/byte-writer.ts';
import { fromMarcInJson, toMarcInJson } from '../../src/marc/marc-in-json.ts';
import { readMarc } from '../../src/marc/read.ts';
import { isControlField } from '../../src/marc/record.ts';
import { chunks, MARC_DIR } from '../helpers/shared-data.ts';

/** The fast reading alone (no fallback), as text. */
function fast(text: string): string {
  const out = new ByteWriter(16);
  varFieldsFromBytes(Buffer.from(text), out);
  return out.written().toString();
}

/** What an answer holds: the fast reading, or the slow way where it throws. */
function written(text: string): string {
  const out = new ByteWriter(16);
  out.ascii('prefix');
  writeVarFields(text, out);
  const all = out.written().toString();
  assert.ok(all.startsWith('prefix'));
  return all.slice('prefix'.length);
}

/** The reference: the record read and checked, then each field as a varField (but its field group). */
function throughRecord(json: unknown) {
  return fromMarcInJson(json).fields.map((f) =>
    isControlField(f)
      ? { marcTag: f.tag, content: f.value }
      : { marcTag: f.tag, ind1: f.ind1, ind2: f.ind2, subfields: f.subfields.map((sf) => ({ tag: sf.code, content: sf.value })) },
  );
}

describe('varFields from stored MARC-in-JSON', () => {
  it('match the checked reading for every record in ../shared/data/marc', async () => {
    let records = 0;
    for (const name of fs.readdirSync(MARC_DIR).sort()) {
      for await (const result of readMarc(chunks(name))) {
        if (!result.record) continue;
        // Stored as the database holds it: JSON text, parsed back.
        const stored = JSON.parse(JSON.stringify(toMarcInJson(result.record)));
        const fields = varFields(stored);
        assert.deepEqual(
          fields.map(({ fieldTag: _, ...rest }) => rest),
          throughRecord(stored),
          `${name} ${result.position}`,
        );
        assert.ok(fields.every((f) => /^[atdnieprsy]$/.test(String(f.fieldTag)) && (f.content === undefined || f.fieldTag === 'y')));
        records++;
      }
    }
    assert.ok(records > 50, `read ${records} records`);
  });

  it('written straight from the stored text, are the varFields of the parsed record, however the text is spelt', async () => {
    let records = 0;
    // Stored text as each writer may spell it: compact, indented, every non-ASCII character
    // escaped, data-field members in another order (which Carrel never writes: the slow way).
    const spellings: [string, (marc: unknown) => string, boolean][] = [
      ['compact', (m) => JSON.stringify(m), true],
      ['indented', (m) => JSON.stringify(m, null, 2), true],
      ['escaped', (m) => JSON.stringify(m).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`), true],
      [
        'reordered',
        (m) =>
          JSON.stringify(m, (key, v: unknown) =>
            v && typeof v === 'object' && 'subfields' in v
              ? { subfields: (v as any).subfields, ind2: (v as any).ind2, ind1: (v as any).ind1 }
              : v,
          ),
        false,
      ],
    ];
    for (const name of fs.readdirSync(MARC_DIR).sort()) {
      for await (const result of readMarc(chunks(name))) {
        if (!result.record) continue;
        const marc = toMarcInJson(result.record);
        for (const [how, spell, takesFast] of spellings) {
          const text = spell(marc);
          const expected = varFields(JSON.parse(text));
          assert.deepEqual(JSON.parse(written(text)), expected, `${name} ${result.position} ${how}`);
          // The fast reading itself, not its fallback, for what Carrel stores.
          if (takesFast) assert.deepEqual(JSON.parse(fast(text)), expected, `${name} ${result.position} ${how}`);
          else assert.throws(() => fast(text), Unexpected);
        }
        records++;
      }
    }
    assert.ok(records > 50, `read ${records} records`);
  });

  it('takes the slow way for a shape it does not expect, with the same answer', () => {
    const odd = JSON.stringify({
      leader: '00000nam a2200000 a 4500',
      fields: [{ '245': { ind1: '1', ind2: '0', subfields: [{ a: 'T' }], extra: 1 } }],
    });
    assert.throws(() => fast(odd), Unexpected);
    assert.deepEqual(JSON.parse(written(odd)), varFields(JSON.parse(odd)));
    const blank = JSON.stringify({ leader: 'x', fields: [{ '500': { ind1: '', subfields: [{ a: 'Note "quoted" \\ back' }] } }] });
    assert.deepEqual(JSON.parse(fast(blank)), [
      { fieldTag: 'n', marcTag: '500', ind1: ' ', ind2: ' ', subfields: [{ tag: 'a', content: 'Note "quoted" \\ back' }] },
    ]);
  });

  it('gives blank indicators as spaces, and names each field group', () => {
    const fields = varFields({
      leader: '00000nam a2200000 a 4500',
      fields: [
        { '001': 'ocm1' },
        { '100': { ind1: '1', ind2: '', subfields: [{ a: 'Austen, Jane.' }] } },
        { '245': { ind1: '1', ind2: '0', subfields: [{ a: 'Pride and prejudice /' }, { c: 'Jane Austen.' }] } },
        { '650': { ind1: ' ', ind2: '0', subfields: [{ a: 'Courtship' }, { v: 'Fiction.' }] } },
      ],
    });
    assert.deepEqual(fields, [
      { fieldTag: 'y', marcTag: '001', content: 'ocm1' },
      { fieldTag: 'a', marcTag: '100', ind1: '1', ind2: ' ', subfields: [{ tag: 'a', content: 'Austen, Jane.' }] },
      {
        fieldTag: 't',
        marcTag: '245',
        ind1: '1',
        ind2: '0',
        subfields: [
          { tag: 'a', content: 'Pride and prejudice /' },
          { tag: 'c', content: 'Jane Austen.' },
        ],
      },
      {
        fieldTag: 'd',
        marcTag: '650',
        ind1: ' ',
        ind2: '0',
        subfields: [
          { tag: 'a', content: 'Courtship' },
          { tag: 'v', content: 'Fiction.' },
        ],
      },
    ]);
  });
});
