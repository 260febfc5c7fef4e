// Codes a library defines in its profile (itemStatuses, patronFixedFields), read and written at
// every door: item and patron writes and answers over REST, JSON queries, sierra_view through the
// SQL service, the Patron API dump, SIP2 item information through a real socket; and a profile
// that removes a code still in use, refused with a count and nothing written.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SqlService } from '../../src/sql/service.ts';
import type { SipDoor } from '../../src/sip2/server.ts';
import { assertRefused, caller, create, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { Kiosk, openTestDoor } from '../helpers/sip2.ts';
import { bearer } from '../helpers/tokens.ts';

/** Sierra's record id of a patron in sierra_view (carrel_sierra_patron). */
const SIERRA_PATRON = 481036337152n;

const LIBRARY_CODES = {
  itemStatuses: [
    { code: '-', name: 'AVAILABLE', available: true, holdable: true, onShelf: true },
    { code: 't', name: 'IN TRANSIT', holdable: true, sip2Status: '10' },
    { code: '!', name: 'ON HOLDSHELF', holdable: true, sip2Status: '08' },
    { code: 'm', name: 'MISSING', sip2Status: '13' },
    // The library's own: on display (available, holdable), at the bindery (neither), lost in a van.
    { code: 'k', name: 'ON DISPLAY', available: true, holdable: true, onShelf: true },
    { code: 'r', name: 'AT BINDERY' },
    { code: 'q', name: 'LOST ON ROUTE', sip2Status: '12' },
  ],
  patronFixedFields: [
    {
      number: 44,
      codes: [
        { code: 'a', name: 'Adult' },
        { code: 's', name: 'Student' },
      ],
    },
    { number: 46 },
    {
      number: 268,
      codes: [
        { code: 'z', name: 'Email' },
        { code: 'p', name: 'Print' },
      ],
    },
    { number: 300, label: 'Borrower Category', short: 'BCAT' },
  ],
};

describe(`codes a library defines on ${ENGINE}`, () => {
  let t: TestApp;
  let admin: Caller;
  let api: Caller;
  let bib: string;
  let base: Record<string, unknown>;
  let door: SipDoor;
  const kiosks: Kiosk[] = [];

  const apply = (extra: Record<string, unknown>) => admin.send('PUT', '/v6/library/profile', { ...base, ...extra });
  const item = async (status: string, barcode: string) =>
    create(api, '/v6/items', { bibIds: [Number(bib)], location: 'mn', status, barcodes: [barcode] });
  const patron = (body: Record<string, unknown>) => api.send('POST', '/v6/patrons', { names: ['Reader, A'], ...body });
  const readPatron = async (id: string) => (await api.get(`/v6/patrons/${id}?fields=fixedFields,patronCodes`)).json();

  before(async () => {
    t = await createTestApp();
    await setUpLibrary(t.testDb.db);
    admin = caller(t, await bearer(t, ['all']));
    api = caller(t, await bearer(t, ['all']));
    bib = await addBib(t.testDb.db, 'Codes');
    base = (await admin.get('/v6/library/profile')).json();
    // The standard statuses until the library says otherwise.
    assert.deepEqual(
      (base.itemStatuses as { code: string }[]).map((s) => s.code),
      ['!', '$', '-', 'd', 'l', 'm', 'n', 'o', 'p', 't', 'w', 'z'],
    );
    assert.deepEqual(base.patronFixedFields, []);
    const res = await apply(LIBRARY_CODES);
    assert.equal(res.statusCode, 204, res.body);
    login = await t.services.sipAccounts.create('codes-kiosk', 'CARREL', 'mn', 'all');
    door = await openTestDoor(t);
  });
  after(async () => {
    for (const k of kiosks) k.end();
    await door?.close();
    await t.close();
  });
  let login: { name: string; password: string };

  it('keeps them in the profile, with defaults filled in, and refuses a profile that misdefines them', async () => {
    const doc = (await admin.get('/v6/library/profile')).json();
    assert.deepEqual(
      doc.itemStatuses.find((s: { code: string }) => s.code === 'k'),
      { code: 'k', name: 'ON DISPLAY', available: true, holdable: true, onShelf: true },
    );
    assert.deepEqual(
      doc.itemStatuses.find((s: { code: string }) => s.code === 'q'),
      { code: 'q', name: 'LOST ON ROUTE', sip2Status: '12' },
    );
    assert.deepEqual(doc.patronFixedFields, [
      { number: 44, label: 'Patron Code 1', short: 'PCODE1', codes: LIBRARY_CODES.patronFixedFields[0]!.codes },
      { number: 46, label: 'Patron Code 3', short: 'PCODE3' },
      // Codes in code order.
      {
        number: 268,
        label: 'Notice Preference',
        short: 'NOTICE PREF',
        codes: [
          { code: 'p', name: 'Print' },
          { code: 'z', name: 'Email' },
        ],
      },
      { number: 300, label: 'Borrower Category', short: 'BCAT' },
    ]);
    // Applied again: nothing to change.
    const plan = await admin.send('POST', '/v6/library/profile/plan', doc);
    assert.deepEqual(plan.json().changes, []);

    for (const [extra, pattern] of [
      [{ itemStatuses: [...LIBRARY_CODES.itemStatuses, { code: 'ab', name: 'Two' }] }, /itemStatuses\.7\.code must match pattern/],
      [{ itemStatuses: LIBRARY_CODES.itemStatuses.filter((s) => s.code !== 't') }, /itemStatuses: t is missing \(circulation sets it\)/],
      [
        { itemStatuses: [...LIBRARY_CODES.itemStatuses, { code: 'x', name: 'X', sip2Status: '14' }] },
        /itemStatuses\.7\.sip2Status must match pattern/,
      ],
      [{ patronFixedFields: [{ number: 47 }] }, /patronFixedFields\[0\]\.number: 47 \(Patron Type\) is Carrel's own/],
      [{ patronFixedFields: [{ number: 301 }] }, /patronFixedFields\[0\]\.label: field 301 is not one of Sierra's standard fields/],
      [{ patronFixedFields: [{ number: 44 }, { number: 44 }] }, /patronFixedFields: 44 is listed twice/],
    ] as const) {
      const res = await apply({ ...LIBRARY_CODES, ...extra });
      assertRefused(res, 400, 126);
      assert.match(res.json().description, pattern);
    }
    assert.deepEqual((await admin.get('/v6/library/profile')).json(), doc, 'nothing written');
  });

  it('item writes take any defined status and answer it with its name; an undefined one is refused', async () => {
    const id = await item('k', 'CODES-K');
    let answer = (await api.get(`/v6/items/${id}?fields=status,fixedFields`)).json();
    assert.deepEqual(answer.status, { code: 'k', display: 'ON DISPLAY' });
    assert.deepEqual(answer.fixedFields['88'], { label: 'Status', value: 'k', display: 'ON DISPLAY' });
    assert.equal((await api.send('PUT', `/v6/items/${id}`, { status: 'r' })).statusCode, 204);
    answer = (await api.get(`/v6/items/${id}?fields=status`)).json();
    assert.deepEqual(answer.status, { code: 'r', display: 'AT BINDERY' });
    const refused = await api.send('PUT', `/v6/items/${id}`, { status: 'y' });
    assertRefused(refused, 400, 132);
    assert.match(refused.json().description, /status: no item status y/);
    assert.equal((await api.get(`/v6/items/${id}?fields=status`)).json().status.code, 'r', 'nothing written');
    const metadata = (await api.get('/v6/items/metadata?fields=status')).json();
    assert.ok(metadata[0].values.some((v: { code: string; desc: string }) => v.code === 'q' && v.desc === 'LOST ON ROUTE'));
  });

  it('the public catalogue shows a copy available, to read in the library, or not, as its status says', async () => {
    const shown = await create(api, '/v6/bibs', { authors: ['Shown, S.'], titles: ['Shown'] });
    for (const [status, barcode] of [
      ['k', 'CAT-K'],
      ['r', 'CAT-R'],
    ] as const)
      await create(api, '/v6/items', { bibIds: [Number(shown)], location: 'mn', status, barcodes: [barcode] });
    const page = await t.app.inject({ method: 'GET', url: `/catalog/record/${shown}` });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<td data-label="Status" class="status-available">On display<\/td>/);
    assert.match(page.body, /<td data-label="Status" class="status-unavailable">At bindery<\/td>/);
  });

  it('an item-level hold follows the status: holdable or not as the profile says', async () => {
    const p = await create(api, '/v6/patrons', { names: ['Holder, H'], barcodes: ['CODES-H'], homeLibraryCode: 'mn' });
    const onDisplay = await item('k', 'CODES-HK');
    const atBindery = await item('r', 'CODES-HR');
    const place = (id: string) =>
      api.send('POST', `/v6/patrons/${p}/holds/requests`, { recordType: 'i', recordNumber: Number(id), pickupLocation: 'mn' });
    const ok = await place(onDisplay);
    assert.equal(ok.statusCode, 204, ok.body);
    const refused = await place(atBindery);
    assert.ok(refused.statusCode >= 400, refused.body);
    assert.match(refused.json().description, /cannot be held|not holdable|may not/i);
  });

  it('patron writes take defined fixed fields, checked against their codes, and answers show them', async () => {
    const res = await patron({
      barcodes: ['CODES-P1'],
      fixedFields: { '44': { label: 'PCODE1', value: 's' }, '46': { value: 7 }, '268': { value: 'z' }, '300': { value: 'Faculty' } },
    });
    assert.equal(res.statusCode, 200, res.body);
    const id = String(res.json().link).split('/').pop()!;
    let answer = await readPatron(id);
    assert.deepEqual(answer.fixedFields['44'], { label: 'Patron Code 1', value: 's', display: 'Student' });
    assert.deepEqual(answer.fixedFields['46'], { label: 'Patron Code 3', value: '7' });
    assert.deepEqual(answer.fixedFields['268'], { label: 'Notice Preference', value: 'z', display: 'Email' });
    assert.deepEqual(answer.fixedFields['300'], { label: 'Borrower Category', value: 'Faculty' });
    assert.deepEqual(answer.patronCodes, { pcode1: 's', pcode2: '-', pcode3: 7, pcode4: 0 });
    // Keys in number order, as Sierra answers them.
    const keys = Object.keys(answer.fixedFields).map(Number);
    assert.deepEqual(
      keys,
      [...keys].sort((a, b) => a - b),
    );

    // A PUT changes those given, clears one given null, and leaves the others.
    assert.equal(
      (await api.send('PUT', `/v6/patrons/${id}`, { fixedFields: { '44': { value: 'a' }, '300': { value: null } } })).statusCode,
      204,
    );
    answer = await readPatron(id);
    assert.deepEqual(answer.fixedFields['44'], { label: 'Patron Code 1', value: 'a', display: 'Adult' });
    assert.equal(answer.fixedFields['300'], undefined);
    assert.equal(answer.fixedFields['268'].value, 'z');

    const before = await t.testDb.db.query('select * from patron_fixed_values order by patron_id, field_number');
    const patrons = (await t.testDb.db.query<{ n: number }>('select count(*)::int as n from patrons'))[0]!.n;
    for (const [fixedFields, pattern] of [
      [{ '268': { value: 'q' } }, /fixedFields\.268 must be one of p, z/],
      [{ '301': { value: 'x' } }, /fixedFields\.301 is not a patron fixed field this library defines \(it defines 44, 46, 268, 300/],
      [{ '48': { value: 3 } }, /fixedFields\.48 cannot be written/],
      [{ abc: { value: 'x' } }, /fixedFields\.abc is not a fixed-field number/],
      [{ '300': { value: { nested: true } } }, /fixedFields\.300 must be text or a number/],
      // A good field beside a bad one: neither is written.
      [{ '44': { value: 's' }, '268': { value: 'q' } }, /fixedFields\.268/],
    ] as const) {
      for (const write of [() => patron({ fixedFields }), () => api.send('PUT', `/v6/patrons/${id}`, { fixedFields })]) {
        const refused = await write();
        assertRefused(refused, 400, 126);
        assert.match(refused.json().description, pattern);
      }
    }
    assert.deepEqual(
      await t.testDb.db.query('select * from patron_fixed_values order by patron_id, field_number'),
      before,
      'nothing written',
    );
    assert.equal((await t.testDb.db.query<{ n: number }>('select count(*)::int as n from patrons'))[0]!.n, patrons);
  });

  it('JSON queries search defined patron fixed fields and defined statuses; an undefined field is refused', async () => {
    const id = await create(api, '/v6/patrons', { names: ['Query, Q'], fixedFields: { '44': { value: 's' }, '300': { value: 'Staff' } } });
    const other = await create(api, '/v6/patrons', { names: ['Query, R'], fixedFields: { '44': { value: 'a' } } });
    const query = async (resource: string, target: object, op: string, operands: string[]) => {
      const res = await api.send('POST', `/v6/${resource}/query?offset=0&limit=100`, { target, expr: { op, operands } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().entries.map((e: { link: string }) => e.link.split('/').pop());
    };
    const patronTarget = (id: number) => ({ record: { type: 'patron' }, id });
    const students = await query('patrons', patronTarget(44), 'equals', ['s']);
    assert.ok(students.includes(id));
    assert.ok(!students.includes(other));
    assert.deepEqual(await query('patrons', patronTarget(300), 'equals', ['staff']), [id]);
    assert.ok((await query('patrons', patronTarget(300), 'not_exists', [])).includes(other));
    const k = await item('k', 'CODES-Q');
    assert.ok((await query('items', { record: { type: 'item' }, id: 88 }, 'equals', ['k'])).includes(k));
    const refused = await api.send('POST', '/v6/patrons/query?offset=0&limit=10', {
      target: patronTarget(301),
      expr: { op: 'equals', operands: ['x'] },
    });
    assertRefused(refused, 400, 108);
    assert.match(refused.json().description, /fixed field 301/);
  });

  it('sierra_view shows the statuses and the patron codes to the SQL reader', async () => {
    const sql = new SqlService(t.testDb.db, { statementTimeoutMs: 30_000, rowCap: 100_000 });
    const rows = async (statement: string) => {
      const answer = await sql.run(statement);
      return answer.rows.map((row) => Object.fromEntries(row.map((v, i) => [answer.columns[i]!, v])));
    };
    const statuses = await rows(
      `select p.code, n.name from sierra_view.item_status_property p
       join sierra_view.item_status_property_name n on n.item_status_property_id = p.id order by p.code`,
    );
    assert.deepEqual(
      statuses.find((s) => s.code === 'k'),
      { code: 'k', name: 'ON DISPLAY' },
    );
    assert.equal(statuses.length, LIBRARY_CODES.itemStatuses.length);
    const id = await create(api, '/v6/patrons', {
      names: ['Sql, S'],
      fixedFields: { '44': { value: 's' }, '46': { value: '12' }, '268': { value: 'p' } },
    });
    const [record] = await rows(
      `select pcode1, pcode2, pcode3, pcode4, notification_medium_code from sierra_view.patron_record where id = ${BigInt(id) + SIERRA_PATRON}`,
    );
    assert.deepEqual(record, { pcode1: 's', pcode2: '-', pcode3: 12, pcode4: 0, notification_medium_code: 'p' });
    const [view] = await rows(`select pcode1, pcode3 from sierra_view.patron_view where id = ${BigInt(id) + SIERRA_PATRON}`);
    assert.deepEqual(view, { pcode1: 's', pcode3: 12 });
    assert.deepEqual(await rows('select code, name, display_order from sierra_view.user_defined_pcode1_myuser order by code'), [
      { code: 'a', name: 'Adult', display_order: 0 },
      { code: 's', name: 'Student', display_order: 1 },
    ]);
    // Field 45 has no codes: Sierra's none.
    assert.deepEqual(await rows('select code, name from sierra_view.user_defined_pcode2_myuser'), [{ code: '-', name: 'none' }]);
  });

  it('the Patron API dump lists the defined fields with their short labels', async () => {
    const id = await create(api, '/v6/patrons', {
      names: ['Dump, D'],
      barcodes: ['CODES-D1'],
      fixedFields: { '44': { value: 'a' }, '268': { value: 'p' }, '300': { value: 'Alumni' } },
    });
    const res = await t.app.inject({ method: 'GET', url: '/PATRONAPI/CODES-D1/dump', remoteAddress: '127.0.0.1' });
    assert.equal(res.statusCode, 200, res.body);
    const lines = res.body.split('\n').map((l) => l.trim());
    for (const line of [
      'PCODE1[p44]=a<BR>',
      'NOTICE PREF[p268]=p<BR>',
      'BCAT[p300]=Alumni<BR>',
      'PCODE2[p45]=-<BR>',
      `RECORD #[p81]=${id}<BR>`,
    ]) {
      assert.ok(lines.includes(line), `${line} in ${res.body}`);
    }
    const numbers = lines.flatMap((l) => /\[p(\d+)\]/.exec(l)?.[1] ?? []).map(Number);
    const fixed = numbers.filter((n) => n !== 8);
    assert.deepEqual(
      fixed,
      [...fixed].sort((a, b) => a - b),
      'in number order',
    );
  });

  it('SIP2 item information answers the circulation status the profile gives the status', async () => {
    for (const [status, barcode] of [
      ['k', 'SIP-K'],
      ['r', 'SIP-R'],
      ['q', 'SIP-Q'],
      ['-', 'SIP-A'],
      ['m', 'SIP-M'],
    ] as const)
      await item(status, barcode);
    const k = await Kiosk.connect(door.port);
    kiosks.push(k);
    assert.match(await k.ask(`9300CN${login.name}|CO${login.password}|CPlobby|`), /^941/);
    const circulationStatus = async (barcode: string) => {
      const answer = await k.ask(`1720060329    201700AOCARREL|AB${barcode}|`);
      return /^18(\d\d)/.exec(answer)?.[1];
    };
    assert.equal(await circulationStatus('SIP-K'), '03', 'available: its default');
    assert.equal(await circulationStatus('SIP-R'), '01', 'neither available nor given one: other');
    assert.equal(await circulationStatus('SIP-Q'), '12', 'as the profile says');
    assert.equal(await circulationStatus('SIP-A'), '03');
    assert.equal(await circulationStatus('SIP-M'), '13');
  });

  it('a profile removing a code still in use is refused with a count, and nothing is written', async () => {
    // Items with k exist (earlier tests); patrons have 44 and 268 values.
    const before = (await admin.get('/v6/library/profile')).json();
    const res = await apply({
      itemStatuses: LIBRARY_CODES.itemStatuses.filter((s) => s.code !== 'k' && s.code !== 'q'),
      patronFixedFields: [
        { number: 46 },
        { number: 268, codes: [{ code: 'z', name: 'Email' }] },
        { number: 300, label: 'Borrower Category', short: 'BCAT' },
      ],
    });
    assertRefused(res, 400, 126);
    const text = res.json().description;
    const usedK = (await t.testDb.db.query<{ n: number }>(`select count(*)::int as n from items where status = 'k'`))[0]!.n;
    const used44 = (
      await t.testDb.db.query<{ n: number }>('select count(*)::int as n from patron_fixed_values where field_number = 44')
    )[0]!.n;
    const usedP = (
      await t.testDb.db.query<{ n: number }>(`select count(*)::int as n from patron_fixed_values where field_number = 268 and value = 'p'`)
    )[0]!.n;
    assert.ok(usedK > 1 && used44 > 1 && usedP > 1);
    assert.match(text, new RegExp(`item status k cannot be removed: ${usedK} items have it`));
    assert.match(text, /item status q cannot be removed: 1 item has it/);
    assert.match(text, new RegExp(`patron fixed field 44 cannot be removed: ${used44} patrons have a value`));
    assert.match(text, new RegExp(`patron fixed field 268 cannot lose code p: ${usedP} patrons have it`));
    assert.deepEqual((await admin.get('/v6/library/profile')).json(), before, 'nothing written');
    // A code no record uses goes.
    const unused = await apply({ ...LIBRARY_CODES, itemStatuses: LIBRARY_CODES.itemStatuses.filter((s) => s.code !== 'm') });
    assert.equal(unused.statusCode, 400, 'm is used by SIP-M');
    await t.testDb.db.query(`update items set status = '-' where status = 'm'`);
    const applied = await apply({ ...LIBRARY_CODES, itemStatuses: LIBRARY_CODES.itemStatuses.filter((s) => s.code !== 'm') });
    assert.equal(applied.statusCode, 204, applied.body);
    assert.ok(!(await admin.get('/v6/library/profile')).json().itemStatuses.some((s: { code: string }) => s.code === 'm'));
  });
});
