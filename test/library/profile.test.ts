// The library profile: the starter a new database starts from, apply / re-apply / export round
// trips, every kind of refusal, and the rules it sets honoured by checkout, holds, blocks and the
// time zone; over REST for administration keys.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { insertItem } from '../../src/items/repository.ts';
import { formatProfile, parseProfile, ProfileError, type Profile } from '../../src/library/profile.ts';
import { readStarterProfile } from '../../src/library/service.ts';
import { FixedClock } from '../../src/shared/calendar.ts';
import { caller, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, addPatron } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';
import { LIBRARY } from '../helpers/library-profile.ts';

const NOW = new Date('2026-11-02T10:00:00Z');

describe(`library profile on ${ENGINE}`, () => {
  let t: TestApp;
  let admin: Caller;
  let desk: Caller;
  // 2026-11-06 22:30 UTC is Saturday 7 November in Auckland (UTC+13 in summer).
  const clock = FixedClock.at(new Date('2026-11-06T22:30:00Z'));
  before(async () => {
    t = await createTestApp({}, { clock });
    admin = caller(t, await bearer(t, ['Admin_Write']));
    desk = caller(t, await bearer(t, ['all']));
  });
  after(() => t.close());

  const library = () => t.services.library;
  const item = (bib: string, location: string, itemType: string | undefined, barcode: string) =>
    insertItem(t.testDb.db, { bibIds: [bib], location, status: '-', itemType, barcode }, NOW);

  it('a new database starts from the starter profile, once', async () => {
    assert.equal(await library().startIfNew(), true);
    const profile = await library().profile();
    assert.deepEqual(profile, readStarterProfile());
    assert.deepEqual(
      profile.branches.flatMap((b) => b.locations.filter((l) => l.pickup).map((l) => l.code)),
      ['mn'],
    );
    assert.equal(await library().startIfNew(), false);
    assert.deepEqual((await library().apply(readStarterProfile())).changes, []);
  });

  it('applies a profile, printing each change; applying it again changes nothing; export reads back the same', async () => {
    const wanted = parseProfile(LIBRARY);
    const dry = await library().apply(wanted, { dryRun: true });
    assert.equal(dry.applied, false);
    assert.deepEqual(await library().profile(), readStarterProfile(), 'a dry run writes nothing');
    const keys = dry.changes.map((c) => `${c.action} ${c.kind} ${c.key}`);
    for (const k of [
      'add location hunt-audio',
      'add branch 7',
      'remove location mn',
      'remove itemType kit',
      'add patronType 9',
      'change branch 1',
    ]) {
      assert.ok(keys.includes(k), `${k} in ${keys.join(', ')}`);
    }
    const tz = dry.changes.find((c) => c.kind === 'settings')!;
    assert.deepEqual(tz.fields!.timeZone, { from: 'UTC', to: 'Pacific/Auckland' });

    const applied = await library().apply(wanted);
    assert.equal(applied.applied, true);
    assert.deepEqual(applied.changes, dry.changes);
    assert.deepEqual(await library().profile(), wanted);
    assert.deepEqual((await library().apply(wanted)).changes, []);
    for (const as of ['yaml', 'json'] as const) {
      const again = parseProfile(formatProfile(await library().profile(), as));
      assert.deepEqual(again, wanted, `${as} round trip`);
      assert.deepEqual((await library().apply(again)).changes, []);
    }
    // Codes are kept as written, up to 20 characters.
    const codes = (await t.testDb.db.query<{ code: string }>('select code from item_types order by code')).map((r) => r.code);
    assert.deepEqual(codes, ['book', 'dvd', 'reference-only-items']);
  });

  it('refuses a file with problems, naming each place, and changes nothing', async () => {
    const bad = `
timeZone: Mars/Olympus
branches:
  - id: 1
    name: Central
    colour: red
    locations:
      - { code: 'has space', name: X }
      - { code: cen, name: Central, openDays: [mon, someday], closedDates: ['2026-02-30'] }
      - { code: cen, name: Again }
itemTypes: [{ code: book, name: Book }, { code: book, name: Book again }]
circulationRules:
  - { itemType: dvd, loanDays: 0, finePerDay: '1.234' }
  - { patronType: 3 }
`;
    const error = (() => {
      try {
        parseProfile(bad);
      } catch (e) {
        return e as ProfileError;
      }
      assert.fail('accepted');
    })();
    assert.ok(error instanceof ProfileError);
    const text = error.problems.join('\n');
    for (const expected of [
      /branches\[0\]: unknown member colour/,
      /branches\[0\]\.locations\[0\]\.code: must be a code of 1 to 20/,
      /branches\[0\]\.locations\[1\]\.openDays\[1\]: must be one of sun, mon/,
      /circulationRules\[0\]\.loanDays: must be >= 1/,
    ]) {
      assert.match(text, expected);
    }
    // Past the schema, the meaning: every problem at once.
    const meaning = parseProblems(`
timeZone: Mars/Olympus
branches:
  - id: 1
    name: Central
    locations:
      - { code: cen, name: Central, closedDates: ['2026-02-30'] }
      - { code: cen, name: Again }
itemTypes: [{ code: book, name: Book }, { code: book, name: Book again }]
patronTypes: [{ code: 1, name: Juvenile }]
circulationRules:
  - { itemType: dvd, loanDays: 3, finePerDay: '1.234' }
  - { patronType: 3, loanDays: 5 }
  - { patronType: 3, loanDays: 6 }
`);
    for (const expected of [
      /timeZone: "Mars\/Olympus" is not an IANA time zone/,
      /closedDates\[0\]: date "2026-02-30" is not a calendar date/,
      /location cen is listed twice/,
      /itemTypes: book is listed twice/,
      /circulationRules\[0\]\.itemType: dvd is not one of the profile's itemTypes/,
      /circulationRules\[0\]\.finePerDay: "1.234" is not an amount/,
      /circulationRules\[1\]\.patronType: 3 is not one of the profile's patronTypes/,
      /more than one rule for patronType 3 × itemType \* × location \*/,
      /no default rule/,
      /patronTypes: 0 is missing/,
    ]) {
      assert.match(meaning, expected);
    }
    const types = 'itemTypes: [{ code: book, name: Book }]\npatronTypes: [{ code: 0, name: Adult }]\n';
    assert.match(
      parseProblems(`branches: [{ id: 1, name: A }]\n${types}circulationRules: [{ loanDays: 3 }]`),
      /the default rule must set renewals, holdable, finePerDay, graceDays/,
    );
    assert.match(
      parseProblems('branches: [{ id: 1, name: A }]\ncirculationRules: [{ loanDays: 3 }]'),
      /\(the whole file\): must have required propert/,
    );
    assert.match(parseProblems('branches: [\n'), /the profile: /);
    assert.match(parseProblems('- a list'), /must be a mapping/);
  });

  it('refuses to remove a location, item type or patron type still in use, and writes nothing', async () => {
    const bib = await addBib(t.testDb.db, 'In use');
    await item(bib, 'riv', 'dvd', 'USE-1');
    const patron = await addPatron(t.testDb.db);
    await t.testDb.db.query('update patrons set patron_type = 9 where id = $1', [patron]);
    const before = await library().profile();
    const without: Profile = {
      ...before,
      branches: before.branches.filter((b) => b.id !== 7),
      itemTypes: before.itemTypes.filter((i) => i.code !== 'dvd'),
      patronTypes: before.patronTypes.filter((p) => p.code !== 9),
      circulationRules: before.circulationRules.filter((r) => r.itemType !== 'dvd' && r.patronType !== 9),
    };
    await assert.rejects(
      library().apply(without),
      (e: ProfileError) =>
        e.problems.length === 3 &&
        /location riv cannot be removed: 1 item are there/.test(e.problems[0]!) &&
        /item type dvd cannot be removed: 1 item has it/.test(e.problems[1]!) &&
        /patron type 9 cannot be removed: 1 patron has it/.test(e.problems[2]!),
    );
    assert.deepEqual(await library().profile(), before);
    await t.testDb.db.query('update patrons set patron_type = 0 where id = $1', [patron]);
  });

  it('checkouts take the loan period of the most specific rule, in the library time zone, past closed days', async () => {
    const db = t.testDb.db;
    const bib = await addBib(db, 'Loans');
    const book = await item(bib, 'cen', 'book', 'L-BOOK');
    const dvd = await item(bib, 'cen', 'dvd', 'L-DVD');
    const audio = await item(bib, 'hunt-audio', 'dvd', 'L-AUDIO');
    const plain = await item(bib, 'riv', undefined, 'L-PLAIN');
    const adult = await addPatron(db);
    const visitor = await addPatron(db);
    await db.query('update patrons set patron_type = 9 where id = $1', [visitor]);
    const due = async (patron: string, itemId: string) => {
      const res = await desk.send('POST', `/v6/patrons/${patron}/checkouts`, { itemId });
      assert.equal(res.statusCode, 200, res.body);
      const list = (await desk.get(`/v6/patrons/${patron}/checkouts`)).json().entries as { item: string; dueDate: string }[];
      return list.find((c) => c.item.endsWith(`/${itemId}`))!.dueDate;
    };
    // Today is Saturday 2026-11-07 in Auckland (it is still the 6th in UTC).
    assert.equal(await library().today(), '2026-11-07');
    assert.equal(await due(adult, book), '2026-11-23', 'the default 14 days, to Saturday the 21st: Central is open Monday to Friday');
    assert.equal(await due(adult, dvd), '2026-11-11', 'dvd: 3 days, to the 10th, a day Central is closed');
    assert.equal(await due(visitor, audio), '2026-11-08', 'the location rule (1 day) beats patron type × item type (2 days)');
    assert.equal(await due(visitor, plain), '2026-11-14', 'patron type 9: 7 days');
  });

  it('holds follow holdable, the hold limits and the blocks', async () => {
    const db = t.testDb.db;
    const refBib = await addBib(db, 'Reference only');
    const refItem = await item(refBib, 'cen', 'reference-only-items', 'H-REF');
    const patron = await addPatron(db);
    const place = (body: Record<string, unknown>, who = patron) => desk.send('POST', `/v6/patrons/${who}/holds/requests`, body);
    const refused = (res: Awaited<ReturnType<typeof place>>, specific: number) => {
      assert.equal(res.json().code, 132, res.body);
      assert.equal(res.json().specificCode, specific, res.body);
    };
    refused(await place({ recordType: 'b', recordNumber: Number(refBib), pickupLocation: 'cen' }), 4);
    refused(await place({ recordType: 'i', recordNumber: Number(refItem), pickupLocation: 'cen' }), 4);
    // Holdable once another copy under a holdable rule is there.
    const book = await item(refBib, 'cen', 'book', 'H-BOOK');
    const ok = await place({ recordType: 'b', recordNumber: Number(refBib), pickupLocation: 'cen' });
    assert.equal(ok.statusCode, 204, ok.body);
    const hold = (await desk.get(`/v6/patrons/${patron}/holds`)).json().entries[0];
    assert.equal(hold.notNeededAfterDate, '2027-01-07', 'holds.neededByMonths 2 from Auckland today');
    // Ready today (Saturday the 7th in Auckland): 5 shelf days, to Thursday the 12th (from UTC's
    // Friday the 6th it would be Wednesday the 11th).
    assert.equal(
      (await desk.send('POST', `/v6/items/${refItem}/checkin`)).json().status,
      '-',
      'a copy its rule keeps from holds fills none',
    );
    assert.equal((await desk.send('POST', `/v6/items/${book}/checkin`)).json().status, '!');
    const ready = (await desk.get(`/v6/patrons/${patron}/holds`)).json().entries[0];
    assert.equal(ready.pickupByDate, '2026-11-12T00:00:00Z');

    // The visitor's rule allows one hold; the library's limit is 4.
    const visitor = await addPatron(db);
    await db.query('update patrons set patron_type = 9 where id = $1', [visitor]);
    const bibs = await Promise.all(
      [1, 2, 3, 4, 5].map(async (n) => {
        const b = await addBib(db, `Limit ${n}`);
        await item(b, 'riv', 'book', `H-LIM-${n}`);
        return b;
      }),
    );
    assert.equal((await place({ recordType: 'b', recordNumber: Number(bibs[0]), pickupLocation: 'riv' }, visitor)).statusCode, 204);
    refused(await place({ recordType: 'b', recordNumber: Number(bibs[1]), pickupLocation: 'riv' }, visitor), 7);
    for (const b of bibs.slice(0, 3))
      assert.equal((await place({ recordType: 'b', recordNumber: Number(b), pickupLocation: 'riv' })).statusCode, 204);
    refused(await place({ recordType: 'b', recordNumber: Number(bibs[3]), pickupLocation: 'riv' }), 7);

    // Blocks: owing more than 10.00, or two overdue items.
    const owing = await addPatron(db);
    await db.query("update patrons set money_owed = '10.01' where id = $1", [owing]);
    const blocked = await place({ recordType: 'b', recordNumber: Number(bibs[4]), pickupLocation: 'riv' }, owing);
    refused(blocked, 2);
    assert.match(blocked.json().description, /owes 10.01, more than the library's limit of 10.00/);
    await db.query("update patrons set money_owed = '10.00' where id = $1", [owing]);
    assert.equal((await place({ recordType: 'b', recordNumber: Number(bibs[4]), pickupLocation: 'riv' }, owing)).statusCode, 204);
    const late = await addPatron(db);
    for (const n of [1, 2]) {
      const b = await addBib(db, `Overdue ${n}`);
      const i = await item(b, 'riv', 'book', `H-LATE-${n}`);
      await db.query("insert into checkouts (patron_id, item_id, out_date, due_date) values ($1, $2, now(), '2026-11-06')", [late, i]);
    }
    const lateRes = await desk.send('POST', `/v6/patrons/${late}/checkouts`, { itemBarcode: 'H-LIM-5' });
    refused(lateRes, 2);
    assert.match(lateRes.json().description, /2 overdue items/);
  });

  it('over REST: read with Branches_Read, plan and apply with Admin_Write only', async () => {
    const reader = caller(t, await bearer(t, ['Bibs_Read']));
    const doc = (await reader.get('/v6/library/profile')).json();
    assert.equal(doc.timeZone, 'Pacific/Auckland');
    const changed = { ...doc, holds: { limit: 9, neededByMonths: 2 } };
    assert.equal((await reader.send('PUT', '/v6/library/profile', changed)).statusCode, 403);
    assert.equal((await reader.send('POST', '/v6/library/profile/plan', changed)).statusCode, 403);
    const plan = await admin.send('POST', '/v6/library/profile/plan', changed);
    assert.equal(plan.statusCode, 200, plan.body);
    assert.deepEqual(plan.json().changes, [
      { action: 'change', kind: 'settings', key: 'library', fields: { holdLimit: { from: 4, to: 9 } } },
    ]);
    assert.equal((await library().settings()).holdLimit, 4);
    const put = await admin.send('PUT', '/v6/library/profile', changed);
    assert.equal(put.statusCode, 204, put.body);
    assert.equal((await library().settings()).holdLimit, 9);
    const bad = await admin.send('PUT', '/v6/library/profile', { ...doc, timeZone: 'Nowhere/Else' });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().description, /timeZone: "Nowhere\/Else" is not an IANA time zone/);
    const orphan = await admin.send('PUT', '/v6/library/profile', {
      ...doc,
      branches: doc.branches.filter((b: { id: number }) => b.id !== 7),
    });
    assert.equal(orphan.statusCode, 400);
    assert.match(orphan.json().description, /location riv cannot be removed/);
  });
});

function parseProblems(text: string): string {
  try {
    parseProfile(text);
  } catch (e) {
    return e instanceof ProfileError ? e.problems.join('\n') : (e as Error).message;
  }
  assert.fail('accepted');
}

describe(`the starter profile on ${ENGINE}`, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it("leaves a database that holds anything as it is: it is the library's", async () => {
    await addPatron(t.testDb.db);
    assert.equal(await t.services.library.startIfNew(), false);
    assert.deepEqual((await t.services.library.profile()).branches, []);
    assert.equal(await t.services.library.startIfNew(), false, 'asked once');
  });
});
