// `carrel profile apply|export|schema` through the real command: the plan it prints, a dry run,
// a second apply that changes nothing, an export that applies back unchanged, and a refusal.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { commandWorkspace, ENGINE } from '../helpers/db.ts';
import { carrel } from '../helpers/process.ts';

const PROFILE = `
timeZone: America/Chicago
branches:
  - id: 1
    name: Hunt Library
    locations:
      - { code: hunt, name: Hunt Library, pickup: true, holdShelfDays: 10 }
      - { code: hunt-audio, name: Hunt audio }
itemTypes:
  - { code: book, name: Book }
patronTypes:
  - { code: 0, name: Adult }
circulationRules:
  - { loanDays: 28, renewals: 1, holdable: true, finePerDay: 0, graceDays: 0 }
`;

describe(`carrel profile on ${ENGINE}`, () => {
  const work = commandWorkspace('profile');

  it('plans, applies, applies again with no change, and exports what applies back unchanged', async () => {
    const profile = work.file('library.yaml', PROFILE);
    const dry = await carrel(['profile', 'apply', '--dry-run', profile], work.env);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^Applying the profile would make \d+ changes \(dry run: nothing written\):\n/);
    assert.match(dry.stdout, /^ {2}\+ location hunt-audio$/m);
    assert.match(dry.stdout, /^ {2}- location mn$/m, 'the starter profile a new database starts from');
    assert.match(
      dry.stdout,
      /^ {2}~ settings: timeZone UTC → America\/Chicago; blockMoneyOwed 25.00 → none; blockOverdueItems 20 → none$/m,
    );
    assert.match(
      dry.stdout,
      /^ {2}~ rule patronType \* × itemType \* × location \*: loanDays 21 → 28; renewals 3 → 1; finePerDay 0.25 → 0.00; maxFine 10.00 → none$/m,
    );

    const applied = await carrel(['profile', 'apply', profile, '--json'], work.env);
    assert.equal(applied.code, 0, applied.stderr);
    const result = JSON.parse(applied.stdout);
    assert.equal(result.applied, true);
    assert.equal(result.changes.length, dry.stdout.trim().split('\n').length - 1);

    const again = await carrel(['profile', 'apply', profile], work.env);
    assert.equal(again.stdout, 'The library already matches the profile: nothing to change.\n');

    const out = path.join(work.dir, 'exported.yaml');
    const exported = await carrel(['profile', 'export', '--output', out], work.env);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(fs.readFileSync(out, 'utf8'), /code: hunt-audio/);
    assert.equal(
      (await carrel(['profile', 'apply', out], work.env)).stdout,
      'The library already matches the profile: nothing to change.\n',
    );
    const json = await carrel(['profile', 'export', '--json'], work.env);
    assert.equal(JSON.parse(json.stdout).timeZone, 'America/Chicago');
    assert.equal((await carrel(['profile', 'apply', work.file('exported.json', json.stdout)], work.env)).code, 0);
  });

  it('refuses a bad file or a missing one with every problem, exit code 1, changing nothing', async () => {
    const bad = await carrel(
      ['profile', 'apply', work.file('bad.yaml', PROFILE.replace('America/Chicago', 'Chicago').replace('hunt-audio', 'hunt audio'))],
      work.env,
    );
    assert.equal(bad.code, 1);
    assert.match(
      bad.stderr,
      /^carrel: the library profile has a problem:\n {2}branches\[0\]\.locations\[1\]\.code: must be a code of 1 to 20/,
    );
    const meaning = await carrel(['profile', 'apply', work.file('bad2.yaml', PROFILE.replace('America/Chicago', 'Chicago'))], work.env);
    assert.match(meaning.stderr, /timeZone: "Chicago" is not an IANA time zone/);
    const missing = await carrel(['profile', 'apply', path.join(work.dir, 'nope.yaml')], work.env);
    assert.match(missing.stderr, /cannot read .*nope\.yaml: no such file/);
    const current = await carrel(['profile', 'export', '--json'], work.env);
    assert.equal(JSON.parse(current.stdout).timeZone, 'America/Chicago');
  });

  it('prints its JSON Schema', async () => {
    const schema = await carrel(['profile', 'schema'], work.env);
    const json = JSON.parse(schema.stdout);
    assert.equal(json.title, 'Carrel library profile');
    assert.deepEqual(Object.keys(json.properties.itemStatuses.items.properties), [
      'code',
      'name',
      'available',
      'holdable',
      'onShelf',
      'sip2Status',
    ]);
    assert.equal(json.properties.patronFixedFields.items.properties.number.maximum, 999);
  });
});
