// The SOAP door's patron operations through a SOAP client nobody wrote for Carrel (python3-zeep):
// each WSDL loads, every answer is the one REST gives, every fault carries REST's numbers.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { PATRON_FIELDS } from '../../src/patrons/present.ts';
import { SOAP_SERVICES } from '../../src/soap/services.ts';
import { assertRefused, caller, create, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';
import { only, zeep, type ZeepOptions } from '../helpers/zeep.ts';

/** A REST answer and zeep's for the same patron agree: every member REST gives, and nothing else but empties. */
function assertSamePatron(soap: Record<string, unknown>, rest: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(rest)) assert.deepEqual(soap[name], value, name);
  for (const [name, value] of Object.entries(soap)) {
    if (!(name in rest)) assert.ok(value === null || (Array.isArray(value) && value.length === 0), `${name} is not in REST's answer`);
  }
}

describe(`SOAP patron operations through zeep on ${ENGINE}`, () => {
  let t: TestApp;
  let base: string;
  let admin: Caller;
  let key: { key: string; secret: string };
  let patron: string;
  const PIN = 'secret-pin-1';

  before(async () => {
    t = await createTestApp({ CARREL_PIN_BARCODE_FAILURES: '3' });
    await setUpLibrary(t.testDb.db);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    admin = caller(t, await bearer(t, ['all']));
    key = await t.services.auth.createKey('soap client', ['all'], 0);
    patron = await create(admin, '/v6/patrons', {
      names: ['Sheldon, Alice'],
      barcodes: ['21913000482538', '44444444444447'],
      uniqueIds: ['alice-u'],
      pin: PIN,
      emails: ['alice@example.org'],
      patronType: 3,
      expirationDate: '2027-04-01',
      homeLibraryCode: 'mn',
      addresses: [{ lines: ['111 Main Street', 'New York, NY 10001'], type: 'a' }],
      phones: [{ number: '510-555-1212', type: 't' }],
    });
  });
  after(() => t.close());

  const patrons = (o: Partial<ZeepOptions> = {}): ZeepOptions => ({ wsdl: `${base}/soap/patrons?wsdl`, ...key, ...o });

  it('loads each WSDL in zeep, on both ports, listing every operation of the service', async () => {
    for (const service of SOAP_SERVICES) {
      const names = service.operations.map((op) => op.name).sort();
      const run = only(
        await zeep(
          { wsdl: `${base}/soap/${service.name}?wsdl`, auth: 'none' },
          `c = client()
svc = c.wsdl.services['${service.name}']
out(ports={name: sorted(port.binding._operations.keys()) for name, port in svc.ports.items()},
    address=[port.binding_options['address'] for port in svc.ports.values()])`,
        ),
      );
      assert.deepEqual(run.ports, { [`${service.name}Soap11`]: names, [`${service.name}Soap12`]: names }, service.name);
      assert.deepEqual(run.address, [`${base}/soap/${service.name}`, `${base}/soap/${service.name}`]);
    }
  });

  it('answers the WSDL at GET /soap/patrons with or without ?wsdl; an unknown service is REST’s 404', async () => {
    const plain = await fetch(`${base}/soap/patrons`);
    const asked = await fetch(`${base}/soap/patrons?wsdl`);
    assert.equal(plain.status, 200);
    assert.match(plain.headers.get('content-type') ?? '', /^text\/xml/);
    assert.equal(await plain.text(), await asked.text());
    // /docs shows the OpenAPI document's description: it links each WSDL.
    const description = (await t.app.inject({ method: 'GET', url: '/v6/openapi.json' })).json().info.description as string;
    const links = [...description.matchAll(/\]\((\/soap\/[a-z]+\?wsdl)\)/g)].map((m) => m[1]);
    assert.deepEqual(links, ['/soap/patrons?wsdl', '/soap/acquisitions?wsdl']);
    for (const method of ['GET', 'POST']) {
      const res = await t.app.inject({ method, url: '/soap/circulation?wsdl' });
      assertRefused({ ...res, json: () => res.json() }, 404, 107);
    }
  });

  it('PatronLookup by barcode, id or uniqueId answers what GET /v6/patrons/{id} does, on SOAP 1.1 and 1.2', async () => {
    const rest = (await admin.get(`/v6/patrons/${patron}`)).json();
    const withFields = (await admin.get(`/v6/patrons/${patron}?fields=names,fixedFields`)).json();
    const run = only(
      await zeep(
        patrons(),
        `s11 = service(client())
s12 = service(client(), 'patronsSoap12')
out(barcode=call(s11, 'PatronLookup', barcode='44444444444447'), id=call(s11, 'PatronLookup', id='${patron}'),
    uniqueId=call(s12, 'PatronLookup', uniqueId='alice-u'), fields=call(s11, 'PatronLookup', id='${patron}', fields='names,fixedFields'))`,
      ),
    );
    for (const way of ['barcode', 'id', 'uniqueId']) assertSamePatron(run[way].ok, rest);
    // A map (fixedFields by number) is one <entry key="…"> per member.
    const entries = run.fields.ok.fixedFields.entry as { key: string; label: string; value: string; display: string | null }[];
    const fixed = Object.fromEntries(
      entries.map(({ key: k, ...rest }) => [k, Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== null))]),
    );
    // A value that may be text or a number (fixedFields' value) is text in the XSD.
    const asText = Object.fromEntries(
      Object.entries(withFields.fixedFields as Record<string, { value: unknown }>).map(([k, f]) => [k, { ...f, value: String(f.value) }]),
    );
    assert.deepEqual(fixed, asText);
  });

  it('answers with every field and faults that lxml finds valid against the WSDL’s own schema', async () => {
    const envelope = (body: string) =>
      `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>${body}</s:Body></s:Envelope>`;
    const post = async (body: string) =>
      (
        await fetch(`${base}/soap/patrons`, {
          method: 'POST',
          headers: { 'content-type': 'text/xml', authorization: `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}` },
          body: envelope(body),
        })
      ).text();
    const answer = await post(
      `<PatronLookup xmlns="urn:carrel:soap:patrons"><id>${patron}</id><fields>${PATRON_FIELDS.all.join(',')}</fields></PatronLookup>`,
    );
    const fault = await post(`<PatronLookup xmlns="urn:carrel:soap:patrons"><id>999999</id></PatronLookup>`);
    const run = only(
      await zeep(
        { ...patrons(), args: { answer, fault } },
        `from lxml import etree
wsdl = etree.fromstring(requests.get(A['wsdl']).content)
schema = etree.XMLSchema(wsdl.find('{http://schemas.xmlsoap.org/wsdl/}types/{http://www.w3.org/2001/XMLSchema}schema'))
def check(text, path):
    element = etree.fromstring(text.encode()).find(path)
    ok = schema.validate(etree.ElementTree(element))
    return {'ok': ok, 'errors': [str(e) for e in schema.error_log], 'children': len(element)}
out(answer=check(A['answer'], './/{urn:carrel:soap:patrons}PatronLookupResponse'), fault=check(A['fault'], './/{urn:carrel:soap:patrons}CarrelError'))`,
      ),
    );
    assert.deepEqual(run.answer.errors, []);
    assert.equal(run.answer.ok, true);
    assert.ok(run.answer.children >= 20, 'every field is there');
    assert.deepEqual(run.fault.errors, []);
    assert.equal(run.fault.ok, true);
  });

  it('PatronLookup refuses no way or two, naming them, and a patron not found as REST does', async () => {
    const run = only(
      await zeep(
        patrons(),
        `s = service(client())
out(none=call(s, 'PatronLookup'), two=call(s, 'PatronLookup', barcode='x', uniqueId='y'),
    missing=call(s, 'PatronLookup', barcode='no-such-card'), letters=call(s, 'PatronLookup', id='12ab'))`,
      ),
    );
    assert.equal(run.none.fault.code, 'soap:Client');
    assert.deepEqual([run.none.fault.detail.code, run.none.fault.detail.httpStatus], [105, 400]);
    assert.match(run.none.fault.detail.description, /barcode, id or uniqueId/);
    assert.deepEqual(
      [run.two.fault.detail.code, run.two.fault.detail.description],
      [108, 'give one of barcode, id or uniqueId, not barcode and uniqueId'],
    );
    const notFound = await admin.get('/v6/patrons/find?barcode=no-such-card');
    assert.deepEqual(run.missing.fault.detail, notFound.json());
    const letters = await admin.get('/v6/patrons/12ab');
    assert.deepEqual(run.letters.fault.detail, letters.json());
  });

  it('PatronValidate: the right PIN answers the id; a wrong one REST’s error; the lockout is REST’s, shared', async () => {
    const validator = await t.services.auth.createKey('validator', ['Patrons_Validate'], 0);
    const other = await create(admin, '/v6/patrons', { names: ['Other, Otto'], barcodes: ['55500001'], pin: 'otto-pin-1' });
    const rest = caller(t, await bearer(t, ['Patrons_Validate']));
    const wrongRest = await rest.send('POST', '/v6/patrons/validate', { barcode: '21913000482538', pin: 'wrong' });
    assertRefused(wrongRest, 400, 108);
    const run = only(
      await zeep(
        patrons(validator),
        `s = service(client())
right = call(s, 'PatronValidate', barcode='55500001', pin='otto-pin-1')
wrong = [call(s, 'PatronValidate', barcode='21913000482538', pin='wrong') for _ in range(2)]
locked = call(s, 'PatronValidate', barcode='21913000482538', pin='${PIN}')
out(right=right, wrong=wrong, locked=locked)`,
      ),
    );
    // zeep answers a response of one member as that member.
    assert.equal(run.right.ok, other);
    for (const wrong of run.wrong) assert.deepEqual(wrong.fault.detail, wrongRest.json());
    // REST's failure and SOAP's two are the barcode's three: even the right PIN is refused now, on both doors.
    assert.equal(run.locked.fault.detail.code, 134);
    assert.equal(run.locked.fault.detail.httpStatus, 429);
    const lockedRest = await rest.send('POST', '/v6/patrons/validate', { barcode: '21913000482538', pin: PIN });
    assertRefused(lockedRest, 429, 134);
    assert.equal(run.locked.fault.detail.specificCode, lockedRest.json().specificCode);
  });

  it('PatronUpdate changes what REST then shows; a refused change writes nothing', async () => {
    const id = await create(admin, '/v6/patrons', { names: ['Update, Una'], barcodes: ['66600001'], emails: ['una@example.org'] });
    const run = only(
      await zeep(
        patrons(),
        `s = service(client(), 'patronsSoap12')
ok = call(s, 'PatronUpdate', id='${id}', emails=['una@new.example.org', 'una2@example.org'], patronType=4, phones=[{'number': '555-0100'}])
bad = call(s, 'PatronUpdate', id='${id}', emails=['never@example.org'], barcodes=['21913000482538'])
out(ok=ok, bad=bad)`,
      ),
    );
    assert.deepEqual(run.ok, { ok: null });
    const shown = (await admin.get(`/v6/patrons/${id}?fields=emails,patronType,phones`)).json();
    assert.deepEqual(shown.emails, ['una@new.example.org', 'una2@example.org']);
    assert.equal(shown.patronType, 4);
    assert.deepEqual(shown.phones, [{ number: '555-0100', type: 't' }]);
    // Another patron's barcode: refused as PUT refuses it, and the emails sent with it are not written.
    const restBad = await admin.send('PUT', `/v6/patrons/${id}`, { barcodes: ['21913000482538'] });
    assert.deepEqual(run.bad.fault.detail, restBad.json());
    assert.deepEqual((await admin.get(`/v6/patrons/${id}?fields=emails`)).json().emails, ['una@new.example.org', 'una2@example.org']);
  });

  it('a bad argument is a fault naming the member, with the numbers REST answers', async () => {
    const restBad = await admin.send('PUT', `/v6/patrons/${patron}`, { patronType: 300 });
    assertRefused(restBad, 400, 126);
    const run = only(
      await zeep(
        patrons(),
        `s = service(client())
out(big=call(s, 'PatronUpdate', id='${patron}', patronType=300), pin=call(s, 'PatronUpdate', id='${patron}', pin='x' * 129))`,
      ),
    );
    const { description, ...numbers } = run.big.fault.detail;
    const { description: restDescription, ...restNumbers } = restBad.json();
    assert.deepEqual(numbers, restNumbers);
    assert.match(description, /^PatronUpdate\.patronType /);
    assert.match(restDescription, /patronType/);
    assert.equal(run.big.fault.code, 'soap:Client');
    assert.equal(run.pin.fault.detail.code, 126);
    assert.match(run.pin.fault.detail.description, /^PatronUpdate\.pin /);
    assert.equal((await admin.get(`/v6/patrons/${patron}?fields=patronType`)).json().patronType, 3);
  });

  it('a key without the permission gets REST’s 403 numbers, and nothing is written', async () => {
    const reader = await t.services.auth.createKey('validate only', ['Patrons_Validate'], 0);
    const restRefused = await caller(t, await bearer(t, ['Patrons_Validate'])).get(`/v6/patrons/${patron}`);
    assertRefused(restRefused, 403, 116);
    const run = only(
      await zeep(
        patrons(reader),
        `s = service(client())
out(read=call(s, 'PatronLookup', id='${patron}'), write=call(s, 'PatronUpdate', id='${patron}', emails=['thief@example.org']))`,
      ),
    );
    assert.deepEqual(run.read.fault.detail, restRefused.json());
    assert.equal(run.write.fault.detail.code, 116);
    assert.match(run.write.fault.detail.description, /Patrons_Write/);
    assert.deepEqual((await admin.get(`/v6/patrons/${patron}?fields=emails`)).json().emails, ['alice@example.org']);
  });

  it('authenticates by UsernameToken, HTTP Basic and bearer token; refuses a wrong secret and a digest', async () => {
    const token = (await bearer(t, ['Patrons_Read'])).slice('Bearer '.length);
    const run = only(
      await zeep(
        patrons({ token }),
        `def names(c):
    r = call(service(c), 'PatronLookup', id='${patron}', fields='names')
    return r['ok']['names'] if 'ok' in r else r['fault']['detail']
out(wsse=names(client('wsse')), basic=names(client('basic')), bearer=names(client('bearer')),
    wrong=names(client('wsse', secret='not-it')), wrongBasic=names(client('basic', secret='not-it')),
    unknown=names(client('basic', key='no-such-key')), none=names(client('none')))`,
      ),
    );
    for (const way of ['wsse', 'basic', 'bearer']) assert.deepEqual(run[way], ['Sheldon, Alice'], way);
    for (const way of ['wrong', 'wrongBasic', 'unknown']) {
      assert.deepEqual(
        run[way],
        { code: 113, specificCode: 0, httpStatus: 401, name: 'Unauthorized', description: 'invalid client credentials' },
        way,
      );
    }
    assert.equal(run.none.code, 113);
    const digest = only(
      await zeep(
        patrons(),
        `from zeep.wsse.username import UsernameToken
c = zeep.Client(A['wsdl'], wsse=UsernameToken(A['key'], A['secret'], use_digest=True))
out(r=call(service(c), 'PatronLookup', id='${patron}'))`,
      ),
    );
    assert.equal(digest.r.fault.detail.httpStatus, 401);
    assert.match(digest.r.fault.detail.description, /PasswordDigest/);
  });
});
