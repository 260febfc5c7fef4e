// A self-registration integration: Wellcome Collection's identity service (wellcomecollection/identity,
// packages/shared/sierra-client, HttpSierraClient), which signs new library members up online and
// creates each as a Sierra patron in MARC form: the name as n/100 with the last name in $a (ending in
// a comma) and the first name in $b, the email z, a note x. Replayed call by call as it puts them on
// the wire (axios 0.21: its headers, a JSON body even for the token, `/patrons/` with its trailing
// slash, commas left as they are in `fields`), and each answer read the way it reads it: the new id
// from the link's last segment, the name from the n field's subfields when it has no content, the
// email and notes from their varFields' content, the role from the patron type.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { insertBranch, insertLocation } from '../../src/branches/repository.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';
import { wire, type WireAnswer } from '../helpers/wire.ts';

const ROOT = '/iii/sierra-api';
const AGENT = 'axios/0.21.4';

/** A varField as the client types it: content, or MARC tag and subfields. */
interface VarField {
  fieldTag: string;
  content?: string;
  subfields?: { tag: string; content: string }[];
}

describe(`a self-registration integration (Wellcome Collection's identity) against Carrel on ${ENGINE}`, () => {
  let t: TestApp;
  let port: number;
  let token = '';

  /** axios 0.21 on Node: a JSON body as application/json;charset=utf-8 with its length; no Content-Type without one. */
  const send = (method: string, path: string, body?: unknown, authorization = `Bearer ${token}`): Promise<WireAnswer> => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    return wire(
      port,
      method,
      path,
      {
        accept: 'application/json, text/plain, */*',
        authorization,
        'user-agent': AGENT,
        ...(data === undefined
          ? {}
          : { 'content-type': 'application/json;charset=utf-8', 'content-length': String(Buffer.byteLength(data)) }),
      },
      data,
    );
  };
  /** axios's query string: encodeURIComponent, then ',' ':' '$' '[' ']' put back and spaces as '+'. */
  const query = (params: Record<string, string>) =>
    Object.entries(params)
      .map(([k, v]) => `${k}=${encodeURIComponent(v).replaceAll('%2C', ',').replaceAll('%3A', ':').replaceAll('%20', '+')}`)
      .join('&');
  const FIELDS = ['varFields', 'patronType', 'createdDate'];

  /** What the client makes of a patron: the name from n (its content, else its $a and $b without trailing commas). */
  function patronRecord(p: { id: number | string; patronType: number; varFields: VarField[]; createdDate: string }) {
    const contents = (tag: string) => p.varFields.filter((v) => v.fieldTag === tag && v.content).map((v) => v.content!);
    const name = p.varFields.find((v) => v.fieldTag === 'n');
    assert.ok(name && !name.content && name.subfields, `the name in MARC form: ${JSON.stringify(name)}`);
    const part = (tag: string) => (name.subfields!.find((s) => s.tag === tag)?.content ?? '').trim().replace(/,*$/, '');
    const verified = contents('x')
      .map((note) => /^Auth0:\s+(\S+@\S+\.\S+)\s.*verified/.exec(note)?.[1])
      .find(Boolean);
    assert.equal(p.patronType, 29, 'a self-registered patron');
    assert.ok(!Number.isNaN(new Date(p.createdDate).getTime()));
    return {
      recordNumber: Number(p.id),
      firstName: part('b'),
      lastName: part('a'),
      barcode: contents('b')[0] ?? '',
      email: contents('z')[0] ?? '',
      verifiedEmail: verified,
    };
  }

  before(async () => {
    t = await createTestApp();
    const branch = await insertBranch(t.testDb.db, 'Wellcome Library', null);
    // The home library it gives self-registered members ('sreg ', padded as Sierra keeps codes), and their patron type.
    await insertLocation(t.testDb.db, { code: 'sreg', name: 'Self registered', pickup: false, hold_shelf_days: 7 }, branch);
    await t.testDb.db.query("insert into patron_types (code, description) values (29, 'Self Registered')");
    const key = await t.services.auth.createKey('identity', ['all'], 0);
    // The fixed fields the client writes beyond the home library, as the library defines them in its
    // profile: 46 (user category), 54 (patron message) and 268 (notice preference).
    const admin = { authorization: await bearer(t, ['all']) };
    const profile = (await t.app.inject({ method: 'GET', url: '/v6/library/profile', headers: admin })).json();
    const applied = await t.app.inject({
      method: 'PUT',
      url: '/v6/library/profile',
      headers: admin,
      payload: {
        ...profile,
        patronFixedFields: [
          { number: 46, codes: [{ code: '13', name: 'Self registered' }] },
          { number: 54, codes: [{ code: 's', name: 'See staff' }] },
          { number: 268, codes: [{ code: 'z', name: 'Email' }] },
        ],
      },
    });
    assert.equal(applied.statusCode, 204, applied.body);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
    // Its token call: an empty JSON object, the key and secret as basic auth.
    const res = await send('POST', `${ROOT}/token`, {}, `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}`);
    assert.equal(res.status, 200, res.body);
    token = res.json().access_token;
    assert.ok(res.json().expires_in > 30, 'a token it keeps (it renews 30 s before expiry)');
  });
  after(() => t.close());

  it('registers a member: no patron with the email yet, then the patron created in MARC form and read back', async () => {
    const email = 'Jane.Smith@Example.org';
    const none = await send(
      'GET',
      `${ROOT}/v6/patrons/find?${query({ varFieldTag: 'z', varFieldContent: email.toLowerCase(), fields: FIELDS.join(',') })}`,
    );
    assert.equal(none.status, 404, none.body);

    // createPatron, as it sends it, fixedFields and all.
    const created = await send('POST', `${ROOT}/v6/patrons/`, {
      patronType: 29,
      pin: 'correct horse battery staple',
      fixedFields: {
        46: { label: 'USER CATEGORY', value: '13' },
        53: { label: 'HOME LIBR', value: 'sreg ' },
        54: { label: 'PATRON MESSAGE', value: 's' },
        268: { label: 'NOTICE PREFERENCE', value: 'z' },
      },
      varFields: [
        {
          fieldTag: 'n',
          marcTag: '100',
          subfields: [
            { tag: 'a', content: 'Smith,' },
            { tag: 'b', content: 'Jane' },
          ],
        },
        { fieldTag: 'z', content: email.toLocaleLowerCase() },
        {
          fieldTag: 'x',
          content: 'Auth0_Registration: this user was created using membership sign-up via Auth0 on wellcomecollection.org',
        },
      ],
    });
    assert.equal(created.status, 200, created.body);
    const match = /\/patrons\/(?<patronId>\d+)$/.exec(created.json().link);
    assert.ok(match, created.body);
    const id = Number(match.groups!.patronId);

    const read = await send('GET', `${ROOT}/v6/patrons/${id}?${query({ fields: [...FIELDS, 'deleted'].join(',') })}`);
    assert.equal(read.status, 200, read.body);
    assert.equal(read.json().deleted, false);
    // The fixed fields it wrote, kept (the client itself reads none of them back).
    const fixed = (await send('GET', `${ROOT}/v6/patrons/${id}?fields=fixedFields`)).json().fixedFields;
    assert.deepEqual([fixed['46']?.value, fixed['54']?.value, fixed['268']?.value], ['13', 's', 'z']);
    assert.deepEqual(patronRecord(read.json()), {
      recordNumber: id,
      firstName: 'Jane',
      lastName: 'Smith',
      barcode: '',
      email: 'jane.smith@example.org',
      verifiedEmail: undefined,
    });
    // The name as it was sent (indicators blank), the patron's PIN listed as set, not shown.
    assert.deepEqual(read.json().varFields.slice(0, 2), [
      { fieldTag: '=', content: '********' },
      {
        fieldTag: 'n',
        marcTag: '100',
        ind1: ' ',
        ind2: ' ',
        subfields: [
          { tag: 'a', content: 'Smith,' },
          { tag: 'b', content: 'Jane' },
        ],
      },
    ]);
    assert.ok(!read.body.includes('horse'));

    // getPatronRecordByEmail finds the one patron and reads it the same way.
    const found = await send(
      'GET',
      `${ROOT}/v6/patrons/find?${query({ varFieldTag: 'z', varFieldContent: 'jane.smith@example.org', fields: FIELDS.join(',') })}`,
    );
    assert.equal(found.status, 200, found.body);
    assert.equal(patronRecord(found.json()).recordNumber, id);
    // Staff reading names, and lists by name, see Sierra's full name.
    const names = (await send('GET', `${ROOT}/v6/patrons/${id}?fields=names,homeLibraryCode`)).json();
    assert.deepEqual(names, { id: String(id), names: ['Smith, Jane'], homeLibraryCode: 'sreg' });
  });

  it('marks the email verified and changes it, keeping the name in MARC form', async () => {
    const id = (
      await send(
        'GET',
        `${ROOT}/v6/patrons/find?${query({ varFieldTag: 'z', varFieldContent: 'jane.smith@example.org', fields: FIELDS.join(',') })}`,
      )
    ).json().id;
    // markPatronEmailVerified: read the notes, send them back with its verification note.
    const current = (await send('GET', `${ROOT}/v6/patrons/${id}?${query({ fields: FIELDS.join(',') })}`)).json();
    const notes = current.varFields.filter((v: VarField) => v.fieldTag === 'x').map((v: VarField) => v.content);
    const verification = `Auth0: jane.smith@example.org verified by the user clicking a verification email at ${new Date(Date.now() - 1000).toISOString()}`;
    const put = await send('PUT', `${ROOT}/v6/patrons/${id}`, {
      varFields: [...notes, verification].map((content) => ({ fieldTag: 'x', content })),
    });
    assert.equal(put.status, 204, put.body);
    let p = patronRecord((await send('GET', `${ROOT}/v6/patrons/${id}?${query({ fields: [...FIELDS, 'deleted'].join(',') })}`)).json());
    assert.equal(p.verifiedEmail, 'jane.smith@example.org');
    assert.equal(p.lastName, 'Smith');

    // updatePatronEmail: the email as a member, an empty list of varFields.
    const change = await send('PUT', `${ROOT}/v6/patrons/${id}`, { emails: ['jane@example.net'], varFields: [] });
    assert.equal(change.status, 204, change.body);
    p = patronRecord((await send('GET', `${ROOT}/v6/patrons/${id}?${query({ fields: [...FIELDS, 'deleted'].join(',') })}`)).json());
    assert.deepEqual([p.email, p.firstName, p.lastName], ['jane@example.net', 'Jane', 'Smith']);

    // A new password through updatePatron: still listed as set.
    assert.equal((await send('PUT', `${ROOT}/v6/patrons/${id}`, { pin: 'another long passphrase' })).status, 204);
    const after = (await send('GET', `${ROOT}/v6/patrons/${id}?${query({ fields: FIELDS.join(',') })}`)).json();
    assert.deepEqual(after.varFields[0], { fieldTag: '=', content: '********' });
  });

  it("is answered 400 in Sierra's error body when its name field comes without subfields", async () => {
    const res = await send('POST', `${ROOT}/v6/patrons/`, {
      patronType: 29,
      varFields: [
        { fieldTag: 'n', marcTag: '100' },
        { fieldTag: 'z', content: 'someone@example.org' },
      ],
    });
    assert.equal(res.status, 400, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), ['code', 'description', 'httpStatus', 'name', 'specificCode']);
    assert.match(body.description, /^varFields\[0\]\.subfields /);
    assert.equal((await t.testDb.db.query("select 1 from patrons where 'someone@example.org' = any(emails)")).length, 0);
  });
});
