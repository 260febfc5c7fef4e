// varFields are made straight from the stored MARC-in-JSON (src/bibs/present.ts): they must be
// what the checked reading of the same JSON gives, field for field, for every real record.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { varFields } from '../../src/bibs/present.ts';
import { fromMarcInJson, toMarcInJson } from '../../src/marc/marc-in-json.ts';
import { readMarc } from '../../src/marc/read.ts';
import { isControlField } from '../../src/marc/record.ts';
import { chunks, MARC_DIR } from '../helpers/shared-data.ts';

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
