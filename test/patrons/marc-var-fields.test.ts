// Patron varFields in MARC form ({"fieldTag", "marcTag", "ind1", "ind2", "subfields"}) as well as
// plain, on POST and PUT under /v6 and /v5: kept as given, the members derived from them, answered
// as stored; a form that is not whole refused naming its member, nothing written. And the PIN
// field (=): listed while a patron has a PIN, with the same content for every PIN, never written.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertRefused, caller, create, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

const NAME = {
  fieldTag: 'n',
  marcTag: '100',
  ind1: '1',
  ind2: ' ',
  subfields: [
    { tag: 'a', content: 'Wellcome,' },
    { tag: 'c', content: 'Mr' },
    { tag: 'b', content: 'Henry Solomon' },
  ],
};
const EMAIL = { fieldTag: 'z', marcTag: '270', ind1: ' ', ind2: ' ', subfields: [{ tag: 'm', content: 'henry@example.org' }] };
const FIELDS = 'names,emails,addresses,phones,varFields';

describe(`patron varFields in MARC form, and the PIN field, on ${ENGINE}`, () => {
  let t: TestApp;
  let api: Caller;
  before(async () => {
    t = await createTestApp();
    await setUpLibrary(t.testDb.db);
    api = caller(t, await bearer(t, ['all']));
  });
  after(() => t.close());

  const read = async (id: string, version = 'v6') => {
    const res = await api.get(`/${version}/patrons/${id}?fields=${FIELDS}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  const snapshot = () => t.testDb.db.query('select p.* from patrons p order by id');

  it('keeps a MARC-form name and email as given, derives names and emails from them, and answers them as stored', async () => {
    const id = await create(api, '/v6/patrons', {
      pin: '24680',
      varFields: [NAME, EMAIL, { fieldTag: 'x', content: 'Registered online' }],
    });
    const p = await read(id);
    // Sierra's full name: the prefix, the last name, a comma, the first and middle names.
    assert.deepEqual(p.names, ['Mr Wellcome, Henry Solomon']);
    assert.deepEqual(p.emails, ['henry@example.org']);
    assert.deepEqual(p.varFields, [{ fieldTag: '=', content: '********' }, NAME, EMAIL, { fieldTag: 'x', content: 'Registered online' }]);
    // Found by the derived values, as any other patron.
    const byName = await api.get(`/v6/patrons/find?varFieldTag=n&varFieldContent=${encodeURIComponent('Mr Wellcome, Henry Solomon')}`);
    assert.equal(byName.json().id, id);
    const byEmail = await api.get('/v5/patrons/find?varFieldTag=z&varFieldContent=henry@example.org&fields=varFields');
    assert.deepEqual(byEmail.json().varFields[2], EMAIL);
  });

  it('reads names as Sierra parses them: last name and first names, with or without the comma, a prefix, parts alone', async () => {
    const name = async (subfields: { tag: string; content: string }[]) =>
      (await read(await create(api, '/v6/patrons', { varFields: [{ fieldTag: 'n', marcTag: '100', subfields }] }))).names[0];
    assert.equal(
      await name([
        { tag: 'a', content: 'Smith,' },
        { tag: 'b', content: 'Jane' },
      ]),
      'Smith, Jane',
    );
    assert.equal(
      await name([
        { tag: 'a', content: 'Smith' },
        { tag: 'b', content: 'Jane' },
      ]),
      'Smith, Jane',
    );
    assert.equal(
      await name([
        { tag: 'b', content: 'Jane' },
        { tag: 'a', content: ' Smith, ' },
      ]),
      'Smith, Jane',
    );
    assert.equal(await name([{ tag: 'a', content: 'Cher' }]), 'Cher');
    assert.equal(
      await name([
        { tag: 'c', content: 'Dr' },
        { tag: 'b', content: 'Who' },
      ]),
      'Dr Who',
    );
    // Indicators not given are blanks, as Sierra answers a MARC field's.
    const id = await create(api, '/v6/patrons', {
      varFields: [{ fieldTag: 'n', marcTag: '100', subfields: [{ tag: 'a', content: 'Solo' }] }],
    });
    assert.deepEqual((await read(id)).varFields, [
      { fieldTag: 'n', marcTag: '100', ind1: ' ', ind2: ' ', subfields: [{ tag: 'a', content: 'Solo' }] },
    ]);
  });

  it('replaces only the tags a PUT gives, under /v5 as under /v6, and drops a MARC form its value no longer matches', async () => {
    const address = {
      fieldTag: 'a',
      marcTag: '371',
      ind1: ' ',
      ind2: ' ',
      subfields: [
        { tag: 'a', content: '1 High St' },
        { tag: 'b', content: 'Springfield' },
      ],
    };
    const id = await create(api, '/v6/patrons', {
      varFields: [NAME, address, { fieldTag: 'h', content: 'PO Box 9$Shelbyville' }, { fieldTag: 't', content: '555-0101' }],
    });
    const first = await read(id);
    assert.deepEqual(first.addresses, [
      { lines: ['1 High St', 'Springfield'], type: 'a' },
      { lines: ['PO Box 9', 'Shelbyville'], type: 'h' },
    ]);
    assert.deepEqual(
      first.varFields.find((v: any) => v.fieldTag === 'a'),
      address,
    );

    // The second address replaced (in MARC form): the first keeps its MARC form, the name too.
    const second = { fieldTag: 'h', marcTag: '371', ind1: ' ', ind2: ' ', subfields: [{ tag: 'a', content: 'Flat 2' }] };
    assert.equal((await api.send('PUT', `/v5/patrons/${id}`, { varFields: [second] })).statusCode, 204);
    let now = await read(id, 'v5');
    assert.deepEqual(
      now.varFields.filter((v: any) => ['n', 'a', 'h'].includes(v.fieldTag)),
      // (The addresses given come first, then those kept.)
      [NAME, second, address],
    );

    // The name replaced through `names`, the email through varFields plain: plain answers, MARC forms gone.
    assert.equal((await api.send('PUT', `/v6/patrons/${id}`, { names: ['Wellcome, Henry'] })).statusCode, 204);
    now = await read(id);
    assert.deepEqual(
      now.varFields.find((v: any) => v.fieldTag === 'n'),
      { fieldTag: 'n', content: 'Wellcome, Henry' },
    );
    const [row] = await t.testDb.db.query<{ marc_fields: any[] }>('select marc_fields from patrons where id = $1', [id]);
    assert.deepEqual(
      row!.marc_fields.map((m) => m.fieldTag),
      ['a', 'h'],
    );

    // A plain field with the members of the MARC form null, as Sierra answers them, is plain.
    const nulls = { marcTag: null, ind1: null, ind2: null, subfields: null };
    const plain = await api.send('PUT', `/v6/patrons/${id}`, { varFields: [{ fieldTag: 'z', content: 'h@example.org', ...nulls }] });
    assert.equal(plain.statusCode, 204, plain.body);
    assert.deepEqual((await read(id)).emails, ['h@example.org']);

    // A value changed beneath its MARC form (here by SQL) is answered as it now is, not as the form says.
    await t.testDb.db.query(`update patrons set addresses = '[{"lines": ["9 Elm Rd"], "type": "a"}]' where id = $1`, [id]);
    now = await read(id);
    assert.deepEqual(
      now.varFields.find((v: any) => v.fieldTag === 'a'),
      { fieldTag: 'a', content: '9 Elm Rd' },
    );
  });

  it('refuses a MARC form that is not whole, naming the member, and writes nothing', async () => {
    const id = await create(api, '/v6/patrons', { names: ['Kept, Karl'], pin: '1357' });
    const marc = (over: Record<string, unknown>) => ({
      fieldTag: 'n',
      marcTag: '100',
      subfields: [{ tag: 'a', content: 'X, Y' }],
      ...over,
    });
    const cases: [unknown[], string][] = [
      [[{ fieldTag: 'n', marcTag: '100' }], 'varFields[0].subfields'],
      [[marc({ subfields: [] })], 'varFields[0].subfields'],
      [[marc({ subfields: 'a|Smith' })], 'varFields[0].subfields'],
      [[marc({ subfields: [{ content: 'Smith' }] })], 'varFields[0].subfields[0].tag'],
      [
        [
          marc({
            subfields: [
              { tag: 'a', content: 'Smith' },
              { tag: 'AB', content: 'Jane' },
            ],
          }),
        ],
        'varFields[0].subfields[1].tag',
      ],
      [[marc({ subfields: [{ tag: 'a' }] })], 'varFields[0].subfields[0].content'],
      [[marc({ subfields: [{ tag: 'a', content: '  ' }] })], 'varFields[0].subfields[0].content'],
      [[marc({ subfields: [{ tag: 'a', content: 'Tab\there' }] })], 'varFields[0].subfields[0].content'],
      [[marc({ subfields: ['Smith'] })], 'varFields[0].subfields[0]'],
      [[marc({ ind1: '10' })], 'varFields[0].ind1'],
      [[marc({ ind2: '#' })], 'varFields[0].ind2'],
      [[marc({ marcTag: '10' })], 'varFields[0].marcTag'],
      [[marc({ marcTag: '001' })], 'varFields[0].marcTag'],
      [[marc({ marcTag: undefined })], 'varFields[0].marcTag'],
      [[marc({ content: 'X, Y' })], 'varFields[0].content'],
      [[{ fieldTag: 'n' }], 'varFields[0].content'],
      [
        [{ fieldTag: 'z', content: 'a@b' }, marc({ fieldTag: 'x', subfields: [{ tag: '!', content: 'note' }] })],
        'varFields[1].subfields[0].tag',
      ],
      [[marc({ fieldTag: 'q' })], 'varFields[0].fieldTag'],
      [[{ fieldTag: 'n', content: 'A, B' }, marc({ fieldTag: 'z', subfields: [{ tag: 'a', content: 'not an email' }] })], 'emails[0]'],
    ];
    const before = await snapshot();
    for (const [varFields, member] of cases) {
      for (const [method, url] of [
        ['PUT', `/v6/patrons/${id}`],
        ['PUT', `/v5/patrons/${id}`],
        ['POST', '/v6/patrons'],
      ] as const) {
        const res = await api.send(method, url, { varFields });
        assertRefused(res, 400, 126);
        assert.ok(res.json().description.startsWith(`${member} `), `${method} ${JSON.stringify(varFields)}: ${res.body}`);
      }
    }
    // A member Sierra's varField does not have is refused by the body's schema.
    const extra = await api.send('PUT', `/v6/patrons/${id}`, { varFields: [marc({ subFields: [] })] });
    assertRefused(extra, 400, 126);
    assert.match(extra.json().description, /subFields/);
    assert.deepEqual(await snapshot(), before);
  });

  it('lists the PIN field while a patron has a PIN, the same for every PIN, and never takes it as a write', async () => {
    const none = await create(api, '/v6/patrons', { names: ['Nopin, Nora'] });
    assert.deepEqual((await read(none)).varFields, [{ fieldTag: 'n', content: 'Nopin, Nora' }]);
    assert.equal((await api.send('PUT', `/v6/patrons/${none}`, { pin: 'a much longer passphrase' })).statusCode, 204);
    const short = await create(api, '/v6/patrons', { names: ['Short, Sam'], pin: '1234' });
    const long = (await read(none)).varFields[0];
    assert.deepEqual(long, { fieldTag: '=', content: '********' });
    assert.deepEqual((await read(short)).varFields[0], long);
    const [row] = await t.testDb.db.query<{ pin_hash: string }>('select pin_hash from patrons where id = $1', [short]);
    const body = (await api.get(`/v6/patrons/${short}?fields=default,varFields`)).body;
    assert.ok(!body.includes(row!.pin_hash) && !body.includes('1234') && !body.includes('scrypt'));

    const before = await snapshot();
    for (const [method, url, payload] of [
      ['PUT', `/v6/patrons/${short}`, { varFields: [{ fieldTag: '=', content: '9999' }] }],
      [
        'PUT',
        `/v5/patrons/${short}`,
        {
          varFields: [
            { fieldTag: 'z', content: 's@example.org' },
            { fieldTag: '=', content: '********' },
          ],
        },
      ],
      ['POST', '/v6/patrons', { names: ['New, Nell'], varFields: [{ fieldTag: '=', content: '4444' }] }],
    ] as const) {
      const res = await api.send(method, url, payload);
      assertRefused(res, 400, 126);
      assert.match(res.json().description, /^varFields\[\d\]\.fieldTag .*set the PIN with pin/);
    }
    assert.deepEqual(await snapshot(), before);
  });

  it('erases the MARC forms with the rest of a deleted patron', async () => {
    const id = await create(api, '/v6/patrons', { pin: '8642', varFields: [NAME, EMAIL] });
    assert.equal((await api.send('DELETE', `/v6/patrons/${id}`)).statusCode, 204);
    const [row] = await t.testDb.db.query<{ marc_fields: unknown[] }>('select marc_fields from patrons where id = $1', [id]);
    assert.deepEqual(row!.marc_fields, []);
    assert.deepEqual(Object.keys((await api.get(`/v6/patrons/${id}?fields=${FIELDS}`)).json()).sort(), ['deleted', 'deletedDate', 'id']);
  });
});
