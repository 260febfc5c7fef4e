// `carrel profile apply|export` with the codes a library defines (itemStatuses, patronFixedFields)
// through the real command: the plan it prints, the export, and every problem of a bad file.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { STANDARD_ITEM_STATUSES } from '../../src/items/statuses.ts';
import { commandWorkspace, ENGINE } from '../helpers/db.ts';
import { carrel } from '../helpers/process.ts';

const PROFILE = `
branches:
  - id: 1
    name: Hunt Library
    locations:
      - { code: hunt, name: Hunt Library, pickup: true }
itemTypes:
  - { code: book, name: Book }
patronTypes:
  - { code: 0, name: Adult }
circulationRules:
  - { loanDays: 28, renewals: 1, holdable: true, finePerDay: 0, graceDays: 0 }
itemStatuses:
${STANDARD_ITEM_STATUSES.map((s) => `  - ${JSON.stringify(s)}`).join('\n')}
  - { code: k, name: ON DISPLAY, available: true, holdable: true, onShelf: true }
  - { code: q, name: LOST ON ROUTE, sip2Status: '12' }
patronFixedFields:
  - { number: 44, codes: [{ code: s, name: Student }, { code: a, name: Adult }] }
  - { number: 300, label: Borrower Category, short: BCAT }
`;

describe(`carrel profile with the library's codes on ${ENGINE}`, () => {
  const work = commandWorkspace('codes');

  it('applies and exports item statuses and patron fixed fields', async () => {
    const applied = await carrel(['profile', 'apply', work.file('codes.yaml', PROFILE)], work.env);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, /^ {2}\+ item status k$/m);
    assert.match(applied.stdout, /^ {2}\+ item status q$/m);
    assert.match(applied.stdout, /^ {2}\+ patron fixed field 44$/m);
    assert.doesNotMatch(applied.stdout, /item status -/, 'the standard statuses are there already');

    const exported = JSON.parse((await carrel(['profile', 'export', '--json'], work.env)).stdout);
    // In code order ("C"), each with the meanings it has beyond the defaults.
    assert.deepEqual(
      exported.itemStatuses.map((s: { code: string }) => s.code),
      ['!', '$', '-', 'd', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 't', 'w', 'z'],
    );
    assert.deepEqual(exported.itemStatuses[4], { code: 'k', name: 'ON DISPLAY', available: true, holdable: true, onShelf: true });
    assert.deepEqual(exported.itemStatuses[10], { code: 'q', name: 'LOST ON ROUTE', sip2Status: '12' });
    assert.deepEqual(exported.itemStatuses[11], { code: 't', name: 'IN TRANSIT', holdable: true, sip2Status: '10' });
    assert.deepEqual(exported.patronFixedFields, [
      {
        number: 44,
        label: 'Patron Code 1',
        short: 'PCODE1',
        codes: [
          { code: 'a', name: 'Adult' },
          { code: 's', name: 'Student' },
        ],
      },
      { number: 300, label: 'Borrower Category', short: 'BCAT' },
    ]);
  });

  it('refuses a file that misdefines them, naming every place', async () => {
    const shape = await carrel(
      [
        'profile',
        'apply',
        work.file('bad-shape.yaml', `${PROFILE.replace('code: q,', 'code: qq,')}  - { number: 45, codes: [{ code: 'a b', name: X }] }\n`),
      ],
      work.env,
    );
    assert.equal(shape.code, 1);
    assert.match(shape.stderr, /itemStatuses\[13\]\.code: must be one printable character/);
    assert.match(shape.stderr, /patronFixedFields\[2\]\.codes\[0\]\.code: must be 1 to 20 printable characters, no spaces/);

    const meaning = await carrel(
      [
        'profile',
        'apply',
        work.file('bad-meaning.yaml', `${PROFILE.replace('- {"code":"t"', '- {"code":"T"')}  - { number: 47 }\n  - { number: 301 }\n`),
      ],
      work.env,
    );
    assert.equal(meaning.code, 1);
    assert.match(meaning.stderr, /itemStatuses: t is missing \(circulation sets it\)/);
    assert.match(meaning.stderr, /patronFixedFields\[2\]\.number: 47 \(Patron Type\) is Carrel's own/);
    assert.match(meaning.stderr, /patronFixedFields\[3\]\.label: field 301 is not one of Sierra's standard fields: give it a label/);
  });
});
