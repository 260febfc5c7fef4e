// The SOAP door's envelope over raw HTTP: what is malformed, hostile (XML bombs, deep nesting, huge
// text) or addressed wrongly is a fault, never a 5xx, in the SOAP version the client spoke, and writes nothing.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { Type } from 'typebox';
import { readXmlTree, type XmlElement } from '../../src/shared/xml/index.ts';
import type { SoapService } from '../../src/soap/operation.ts';
import { soapRoutes } from '../../src/soap/routes.ts';
import { caller, create, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope';
const NS = 'urn:carrel:soap:patrons';
const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';

const envelope = (body: string, o: { header?: string; ns?: string } = {}) =>
  `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="${o.ns ?? SOAP11}">${o.header ? `<soap:Header>${o.header}</soap:Header>` : ''}<soap:Body>${body}</soap:Body></soap:Envelope>`;

const usernameToken = (key: string, secret: string) =>
  `<wsse:Security xmlns:wsse="${WSSE}"><wsse:UsernameToken><wsse:Username>${key}</wsse:Username><wsse:Password>${secret}</wsse:Password></wsse:UsernameToken></wsse:Security>`;

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The fault's code (faultcode, or SOAP 1.2's Code/Value) and its detail's CarrelError by member; undefined when no fault. */
  fault?: { code: string; reason: string; error: Record<string, string> };
  root: XmlElement;
}

const child = (element: XmlElement | undefined, name: string) => element?.children.find((c) => c.name === name);

function faultOf(root: XmlElement): Answer['fault'] {
  const fault = child(child(root, 'Body'), 'Fault');
  if (!fault) return undefined;
  const code = child(fault, 'faultcode')?.text ?? child(child(fault, 'Code'), 'Value')?.text ?? '';
  const reason = child(fault, 'faultstring')?.text ?? child(child(fault, 'Reason'), 'Text')?.text ?? '';
  const detail = child(fault, 'detail') ?? child(fault, 'Detail');
  const error = Object.fromEntries((child(detail, 'CarrelError')?.children ?? []).map((c) => [c.name, c.text]));
  return { code, reason, error };
}

describe(`the SOAP envelope over raw HTTP on ${ENGINE}`, () => {
  let t: TestApp;
  let base: string;
  let admin: Caller;
  let key: { key: string; secret: string };
  let patron: string;

  before(async () => {
    t = await createTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    admin = caller(t, await bearer(t, ['all']));
    key = await t.services.auth.createKey('soap raw', ['all'], 0);
    patron = await create(admin, '/v6/patrons', { names: ['Raw, Rita'], barcodes: ['77700001'], emails: ['rita@example.org'] });
  });
  after(() => t.close());

  async function post(body: string, o: { contentType?: string; action?: string; authorization?: string } = {}): Promise<Answer> {
    const headers: Record<string, string> = { 'content-type': o.contentType ?? 'text/xml; charset=utf-8' };
    if (o.action !== undefined) headers.soapaction = o.action;
    if (o.authorization) headers.authorization = o.authorization;
    const res = await fetch(`${base}/soap/patrons`, { method: 'POST', headers, body });
    const text = await res.text();
    const root = readXmlTree(text);
    return { status: res.status, headers: res.headers, text, fault: faultOf(root), root };
  }
  const lookup = (args: string) => `<PatronLookup xmlns="${NS}">${args}</PatronLookup>`;
  const authed = (body: string, ns?: string) => envelope(body, { header: usernameToken(key.key, key.secret), ns });
  const emails = async () => (await admin.get(`/v6/patrons/${patron}?fields=emails`)).json().emails as string[];

  /** A Client fault answered 400 with code 126, its description matching `why`. */
  function refused(answer: Answer, why: RegExp, code = 'soap:Client'): void {
    assert.equal(answer.status, 400, answer.text);
    assert.equal(answer.fault?.code, code, answer.text);
    assert.equal(answer.fault?.error.code, '126', answer.text);
    assert.equal(answer.fault?.error.httpStatus, '400');
    assert.match(answer.fault?.error.description ?? '', why);
    assert.match(answer.headers.get('content-type') ?? '', /^text\/xml/);
  }

  it('answers a call in SOAP 1.1 and in SOAP 1.2, in the version asked', async () => {
    const v11 = await post(authed(lookup(`<id>${patron}</id><fields>names</fields>`)), { action: `"${NS}/PatronLookup"` });
    assert.equal(v11.status, 200, v11.text);
    assert.match(v11.headers.get('content-type') ?? '', /^text\/xml; charset=utf-8/);
    assert.equal(v11.root.ns, SOAP11);
    assert.match(
      v11.text,
      new RegExp(`<PatronLookupResponse xmlns="${NS}"><id>${patron}</id><names>Raw, Rita</names></PatronLookupResponse>`),
    );
    const v12 = await post(authed(lookup(`<id>${patron}</id>`), SOAP12), {
      contentType: `application/soap+xml; charset=utf-8; action="${NS}/PatronLookup"`,
    });
    assert.equal(v12.status, 200, v12.text);
    assert.match(v12.headers.get('content-type') ?? '', /^application\/soap\+xml/);
    assert.equal(v12.root.ns, SOAP12);
  });

  it('refuses malformed XML, a DTD (a billion laughs), deep nesting and huge text, writing nothing', async () => {
    const update = `<PatronUpdate xmlns="${NS}"><id>${patron}</id><emails>changed@example.org</emails></PatronUpdate>`;
    refused(await post(authed(update).replace('</soap:Body>', '</soap:Bod>')), /not well-formed XML/);
    refused(await post(authed(update).slice(0, -20)), /not well-formed XML/);
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
      Array.from({ length: 7 }, (_, i) => `<!ENTITY lol${i + 3} "${`&lol${i + 2};`.repeat(10)}">`).join('') +
      ']>' +
      authed(update.replace('changed@example.org', '&lol9;')).replace(/^<\?xml[^>]*>/, '');
    refused(await post(laughs), /document type declaration/);
    const deep = authed(`<PatronUpdate xmlns="${NS}"><id>${patron}</id>${'<a>'.repeat(200)}${'</a>'.repeat(200)}</PatronUpdate>`);
    refused(await post(deep), /nested deeper than/);
    refused(await post(authed(update.replace('changed@example.org', 'x'.repeat(100_000)))), /text longer than/);
    // Indentation between 20,000 elements is not one long text.
    const indented = `<PatronLookup xmlns="${NS}">${'\n        <barcode>1</barcode>'.repeat(20_000)}\n</PatronLookup>`;
    refused(await post(authed(indented)), /PatronLookup\.barcode is given more than once/);
    // Past the body limit: refused before it is read (the request's httpStatus is REST's 413).
    const huge = await post(authed(update.replace('changed@example.org', 'x'.repeat(3 * 1024 * 1024))));
    assert.equal(huge.status, 400, huge.text);
    assert.deepEqual([huge.fault?.code, huge.fault?.error.code, huge.fault?.error.httpStatus], ['soap:Client', '126', '413']);
    // Refused before the handler runs, the fault is still in the route's service's namespace.
    const acquisitions = await t.app.inject({
      method: 'POST',
      url: '/soap/acquisitions',
      headers: { 'content-type': 'text/xml' },
      payload: envelope(`<X>${'x'.repeat(3 * 1024 * 1024)}</X>`),
    });
    assert.equal(acquisitions.statusCode, 400);
    assert.match(acquisitions.body, /<CarrelError xmlns="urn:carrel:soap:acquisitions"><code>126<\/code>/);
    refused(await post(`${authed(update)}<?evil?>`), /processing instructions/);
    assert.deepEqual(await emails(), ['rita@example.org']);
  });

  it('answers a wrong envelope namespace with VersionMismatch, in the version of the Content-Type', async () => {
    const v11 = await post(envelope(lookup('<id>1</id>'), { ns: 'http://example.org/not-soap' }));
    refused(v11, /neither|SOAP 1\.1.*SOAP 1\.2/, 'soap:VersionMismatch');
    const v12 = await post(envelope(lookup('<id>1</id>'), { ns: 'http://example.org/not-soap' }), { contentType: 'application/soap+xml' });
    assert.equal(v12.status, 400);
    assert.equal(v12.root.ns, SOAP12);
    assert.equal(v12.fault?.code, 'soap:VersionMismatch');
    refused(await post(`<Envelope xmlns="${SOAP11}x"/>`), /./, 'soap:VersionMismatch');
    refused(await post('<notAnEnvelope/>'), /not a SOAP Envelope/);
  });

  it('names the operations when the Body’s element is unknown or in the wrong namespace', async () => {
    refused(
      await post(authed(`<PatronDelete xmlns="${NS}"><id>1</id></PatronDelete>`)),
      /PatronDelete is not an operation of \/soap\/patrons; its operations are PatronLookup, PatronValidate, PatronUpdate/,
    );
    refused(
      await post(authed(`<PatronLookup xmlns="urn:other"><id>1</id></PatronLookup>`)),
      /namespace "urn:other".*are in "urn:carrel:soap:patrons"/,
    );
    refused(await post(authed('<PatronLookup><id>1</id></PatronLookup>')), /namespace ""/);
    refused(await post(authed(lookup('<id>1</id>') + lookup('<id>2</id>'))), /the Body holds 2 elements/);
    refused(await post(authed('')), /the Body holds 0 elements/);
    refused(
      await post(authed(lookup(`<id>${patron}</id>`)), { action: `${NS}/PatronUpdate` }),
      /action "urn:carrel:soap:patrons\/PatronUpdate" is not the Body's operation/,
    );
    refused(await post(authed(lookup('<id>1</id><colour>red</colour>'))), /PatronLookup\.colour is not an element of PatronLookup/);
    refused(
      await post(authed(`<PatronUpdate xmlns="${NS}"><id>${patron}</id><addresses><type>a</type></addresses></PatronUpdate>`)),
      /^PatronUpdate\.addresses\.0 is missing lines$/,
    );
    refused(
      await post(authed(`<PatronUpdate xmlns="${NS}"><id>${patron}</id><patronType>many</patronType></PatronUpdate>`)),
      /PatronUpdate\.patronType "many" is not a whole number/,
    );
  });

  it('refuses a header block it must understand but does not, except WS-Security', async () => {
    const block = `<tx:Transaction xmlns:tx="urn:example:tx" soap:mustUnderstand="1">5</tx:Transaction>`;
    refused(
      await post(envelope(lookup(`<id>${patron}</id>`), { header: usernameToken(key.key, key.secret) + block })),
      /urn:example:tx\}Transaction/,
      'soap:MustUnderstand',
    );
    // Meant for another node: not ours to understand.
    const elsewhere = block.replace('soap:mustUnderstand', 'soap:actor="urn:example:node" soap:mustUnderstand');
    assert.equal(
      (await post(envelope(lookup(`<id>${patron}</id>`), { header: usernameToken(key.key, key.secret) + elsewhere }))).status,
      200,
    );
    const secured = usernameToken(key.key, key.secret).replace('<wsse:Security ', `<wsse:Security soap:mustUnderstand="1" `);
    assert.equal((await post(envelope(lookup(`<id>${patron}</id>`), { header: secured }))).status, 200);
    const v12 = await post(envelope(lookup(`<id>${patron}</id>`), { header: block.replace('"1"', '"true"'), ns: SOAP12 }), {
      contentType: 'application/soap+xml',
    });
    assert.equal(v12.fault?.code, 'soap:MustUnderstand');
    const notUnderstood = child(child(v12.root, 'Header'), 'NotUnderstood');
    assert.match(notUnderstood?.attributes.qname ?? '', /:Transaction$/);
  });

  it('writes SOAP 1.2 faults with Code, Reason and Detail, Sender for the client’s failures', async () => {
    const answer = await post(authed(`<PatronDelete xmlns="${NS}"/>`, SOAP12), { contentType: 'application/soap+xml' });
    assert.equal(answer.status, 400);
    assert.equal(answer.fault?.code, 'soap:Sender');
    const reason = child(child(child(child(answer.root, 'Body'), 'Fault'), 'Reason'), 'Text');
    assert.equal(reason?.attributes.lang, 'en');
    assert.match(reason?.text ?? '', /PatronDelete is not an operation/);
  });

  it('answers 401 with WWW-Authenticate to a call without credentials or with wrong ones, 403 without the permission', async () => {
    const none = await post(envelope(lookup(`<id>${patron}</id>`)));
    assert.equal(none.status, 401);
    assert.match(none.headers.get('www-authenticate') ?? '', /^Basic realm="Carrel SOAP"/);
    assert.deepEqual([none.fault?.code, none.fault?.error.code], ['soap:Client', '113']);
    const basic = `Basic ${Buffer.from(`${key.key}:wrong`).toString('base64')}`;
    assert.equal((await post(envelope(lookup(`<id>${patron}</id>`)), { authorization: basic })).status, 401);
    const digest = usernameToken(key.key, 'x').replace(
      '<wsse:Password>',
      '<wsse:Password Type="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest">',
    );
    const refusedDigest = await post(envelope(lookup(`<id>${patron}</id>`), { header: digest }));
    assert.equal(refusedDigest.status, 401);
    assert.match(refusedDigest.fault?.error.description ?? '', /PasswordDigest cannot be checked/);
    const bibs = await t.services.auth.createKey('bibs only', ['Bibs_Read'], 0);
    const forbidden = await post(envelope(lookup(`<id>${patron}</id>`), { header: usernameToken(bibs.key, bibs.secret) }));
    assert.equal(forbidden.status, 403);
    assert.deepEqual([forbidden.fault?.error.code, forbidden.fault?.error.httpStatus], ['116', '403']);
  });

  it('takes an envelope of up to 2 MiB', async () => {
    const padded = authed(lookup(`<id>${patron}</id>`)).replace('<soap:Body>', `<!--${' '.repeat(1_900_000)}--><soap:Body>`);
    const answer = await post(padded);
    assert.equal(answer.status, 200, answer.text.slice(0, 500));
  });

  it('answers Server faults for Carrel’s own failures: 503 while switched off, 500 for the unexpected, never a stack', async () => {
    t.state.maintenance = true;
    try {
      const off = await post(authed(lookup(`<id>${patron}</id>`)));
      assert.equal(off.status, 503);
      assert.deepEqual([off.fault?.code, off.fault?.error.code], ['soap:Server', '117']);
    } finally {
      t.state.maintenance = false;
    }
    // An operation that fails unexpectedly: the door's own routes on an app of their own, with one such operation.
    const app = Fastify({ logger: false });
    const broken: SoapService = {
      name: 'broken',
      namespace: 'urn:test:broken',
      operations: [
        {
          name: 'Crash',
          summary: 'Fails.',
          permission: 'Patrons_Read',
          input: Type.Object({}),
          output: Type.Object({}),
          run: () => Promise.reject(new TypeError('secret internals at /srv/carrel/src/x.ts:12')),
        },
      ],
    };
    soapRoutes(app, [broken], { services: t.services, config: t.config, refs: () => new Map() });
    const crash = await app.inject({
      method: 'POST',
      url: '/soap/broken',
      headers: { 'content-type': 'text/xml', authorization: `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}` },
      payload: envelope('<Crash xmlns="urn:test:broken"/>'),
    });
    await app.close();
    assert.equal(crash.statusCode, 500);
    const fault = faultOf(readXmlTree(crash.body));
    assert.deepEqual([fault?.code, fault?.error.code, fault?.error.httpStatus], ['soap:Server', '111', '500']);
    assert.match(fault?.error.description ?? '', /^an unexpected error occurred \(request [\w-]+\)$/);
    assert.doesNotMatch(crash.body, /secret internals|TypeError|\.ts:/);
  });

  it('refuses a body that is not an envelope: JSON, or no body', async () => {
    const json = await fetch(`${base}/soap/patrons`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"id": 1}',
    });
    assert.equal(json.status, 400);
    assert.match(await json.text(), /<faultcode>soap:Client<\/faultcode>.*send a SOAP envelope as text\/xml/);
    const empty = await post('');
    assert.equal(empty.status, 400);
  });
});

describe(`CARREL_SOAP_FAULT_STATUS=500 on ${ENGINE}`, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ CARREL_SOAP_FAULT_STATUS: '500' });
  });
  after(() => t.close());

  it('is rest or 500, nothing else', () => {
    assert.equal(loadConfig({}).soapFaultStatus, 'rest');
    assert.throws(() => loadConfig({ CARREL_SOAP_FAULT_STATUS: '502' }), /CARREL_SOAP_FAULT_STATUS must be one of rest, 500, got "502"/);
  });

  it('answers every SOAP 1.1 fault 500, and SOAP 1.2 faults as by default', async () => {
    const call = (contentType: string, ns: string) =>
      t.app.inject({
        method: 'POST',
        url: '/soap/patrons',
        headers: { 'content-type': contentType },
        payload: envelope(`<Nothing xmlns="${NS}"/>`, { ns }),
      });
    const v11 = await call('text/xml', SOAP11);
    assert.equal(v11.statusCode, 500);
    assert.match(v11.body, /<faultcode>soap:Client<\/faultcode>/);
    assert.equal((await call('application/soap+xml', SOAP12)).statusCode, 400);
    const unauthenticated = await t.app.inject({
      method: 'POST',
      url: '/soap/patrons',
      headers: { 'content-type': 'text/xml' },
      payload: envelope(`<PatronLookup xmlns="${NS}"/>`),
    });
    assert.equal(unauthenticated.statusCode, 500);
    assert.match(String(unauthenticated.headers['www-authenticate']), /^Basic/);
  });
});
