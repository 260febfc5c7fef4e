// XML on the REST door (issue 37, src/http/xml-answers.ts): the record resources answer the same
// record as XML when Accept prefers it, member by member the JSON answer of the same request; the
// choice follows the Accept header's q values and order, 406 when it allows neither; errors are XML
// for an XML client; GET /bibs/{id}/marc writes MARCXML for application/marc+xml. Every XML answer is
// checked against the served XSD by a validator nobody wrote for Carrel (libxml2, through Debian's
// python3-lxml).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BIB_FIELDS } from '../../src/bibs/present.ts';
import { loadGenerated } from '../../src/generate/load.ts';
import { HOLD_FIELDS } from '../../src/holds/present.ts';
import { ITEM_FIELDS } from '../../src/items/present.ts';
import { PATRON_FIELDS } from '../../src/patrons/present.ts';
import { INVOICE_FIELDS } from '../../src/acquisitions/invoices/present.ts';
import { readXmlTree, XSI_NS, type XmlElement } from '../../src/shared/xml/index.ts';
import { caller, create } from '../helpers/api.ts';
import { setUpAcquisitions } from '../helpers/acquisitions.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

const NS = 'urn:carrel:rest';
const NIL = `{${XSI_NS}}nil`;
const SYSTEM_PYTHON = '/usr/bin/python3';
const lxml = spawnSync(SYSTEM_PYTHON, ['-c', 'import lxml.etree']).status === 0;

type Answer = { statusCode: number; body: string; headers: Record<string, unknown> };

/**
 * Where the XML element differs from the JSON value, by the mapping (src/shared/xml/index.ts), read
 * here without the mapping's own code: a member is an element of its name, an array its element
 * repeated, a map one <entry key> a member, null xsi:nil, a value of any shape its JSON as text.
 */
function differences(json: unknown, element: XmlElement, where: string, out: string[] = []): string[] {
  if (element.ns !== NS) out.push(`${where}: in namespace "${element.ns}"`);
  if (json === null) {
    if (element.attributes[NIL] !== 'true' || element.children.length > 0 || element.text !== '') out.push(`${where}: not xsi:nil`);
    return out;
  }
  if (typeof json === 'string' || typeof json === 'number' || typeof json === 'boolean') {
    if (element.children.length > 0 || element.text !== String(json)) out.push(`${where}: "${element.text}" for ${JSON.stringify(json)}`);
    return out;
  }
  const record = json as Record<string, unknown>;
  if (element.children.length === 0 && element.text !== '') {
    let text: unknown;
    try {
      text = JSON.parse(element.text);
    } catch {
      text = element.text;
    }
    if (JSON.stringify(text) !== JSON.stringify(record)) out.push(`${where}: text ${element.text} for ${JSON.stringify(record)}`);
    return out;
  }
  const isMap = element.children.length > 0 && element.children.every((c) => c.name === 'entry' && c.attributes.key !== undefined);
  if (isMap) {
    const keys = element.children.map((c) => c.attributes.key!);
    if (keys.join('\u0000') !== Object.keys(record).join('\u0000'))
      out.push(`${where}: entries ${keys.join(',')} for ${Object.keys(record).join(',')}`);
    for (const child of element.children) differences(record[child.attributes.key!], child, `${where}[${child.attributes.key}]`, out);
    return out;
  }
  for (const child of element.children) if (!(child.name in record)) out.push(`${where}.${child.name}: not in the JSON`);
  for (const [name, value] of Object.entries(record)) {
    const children = element.children.filter((c) => c.name === name);
    if (Array.isArray(value)) {
      if (children.length !== value.length) out.push(`${where}.${name}: ${children.length} elements for ${value.length} entries`);
      else value.forEach((entry, i) => differences(entry, children[i]!, `${where}.${name}[${i}]`, out));
    } else if (children.length !== 1) out.push(`${where}.${name}: ${children.length} elements`);
    else differences(value, children[0]!, `${where}.${name}`, out);
  }
  return out;
}

describe(`XML answers on ${ENGINE}`, () => {
  let t: TestApp;
  let auth: string;
  let ids: Record<'bib' | 'item' | 'patron' | 'patronBarcode' | 'hold' | 'invoice' | 'line', string>;
  /** Every XML answer met, for the XSD check at the end. */
  const answers: { url: string; root: string; xml: string }[] = [];

  before(async () => {
    t = await createTestApp();
    auth = await bearer(t, ['all']);
    const db = t.testDb.db;
    await loadGenerated(db, { seed: 11, bibs: 12, patrons: 4, holds: 6, today: '2026-11-02', rules: { holdLimit: 50, holdMonths: 3 } });
    const api = caller(t, auth);
    await setUpAcquisitions(api);
    const invoice = await create(api, '/v6/invoices', {
      invNum: 'X-1',
      invDate: '2026-10-01',
      vendorCode: 'ebsco',
      useTaxCode: 'a',
      note: 'Books & "serials" <autumn>',
      lineItems: [
        { fund: 'books', amount: '12.50', quantity: 2 },
        { fund: 'serials', amount: '99.99', note: 'renewal' },
      ],
    });
    const first = async (sql: string) => (await db.query<{ v: string }>(sql))[0]!.v;
    ids = {
      bib: await first('select bib_id::text as v from item_bibs order by bib_id limit 1'),
      item: await first('select id::text as v from items order by id limit 1'),
      patron: await first('select patron_id::text as v from holds order by id limit 1'),
      patronBarcode: await first(
        'select pb.barcode as v from patron_barcodes pb join holds h on h.patron_id = pb.patron_id order by h.id limit 1',
      ),
      hold: await first('select id::text as v from holds order by id limit 1'),
      invoice,
      line: await first(`select id::text as v from invoice_lines where invoice_id = ${Number(invoice)} order by id limit 1`),
    };
  });
  after(() => t?.close());

  const get = (url: string, accept?: string, token: string | undefined = auth) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { ...(token ? { authorization: token } : {}), ...(accept === undefined ? {} : { accept }) },
    });

  /** The answer's XML document element, after checking the answer is XML of that root; kept for the XSD check. */
  function xmlOf(res: Answer, url: string, root: string, type = 'application/xml'): XmlElement {
    assert.equal(res.headers['content-type'], `${type}; charset=utf-8`, `${url}: ${res.body.slice(0, 300)}`);
    assert.match(res.body, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n/);
    const tree = readXmlTree(res.body);
    assert.equal(tree.name, root, url);
    assert.equal(tree.ns, NS, url);
    answers.push({ url, root, xml: res.body });
    return tree;
  }

  /** The Accept headers whose answer is not 200 in the type expected, one line each; check sees every answer. */
  async function wrongTypes(
    url: string,
    cases: [accept: string | undefined, type: string][],
    check: (res: Answer, accept: string | undefined, type: string) => void,
  ): Promise<string[]> {
    const failures: string[] = [];
    for (const [accept, type] of cases) {
      const res = await get(url, accept);
      const got = String(res.headers['content-type']).split(';')[0];
      if (res.statusCode !== 200 || got !== type)
        failures.push(`Accept ${JSON.stringify(accept)}: ${res.statusCode} ${got}, expected ${type}`);
      check(res, accept, type);
    }
    return failures;
  }

  it('each record resource and list answers as XML what it answers as JSON, member by member', async () => {
    const all = (set: { all: readonly string[] }) => set.all.join(',');
    const resources: [url: string, root: string][] = [
      [`/v6/bibs/${ids.bib}`, 'bib'],
      [`/v6/bibs/${ids.bib}?fields=${all(BIB_FIELDS)}`, 'bib'],
      ['/v6/bibs?limit=4', 'bibs'],
      // A harvest page: written as JSON bytes, not by the serializer (src/bibs/routes.ts).
      [`/v6/bibs?limit=3&fields=${all(BIB_FIELDS)}`, 'bibs'],
      [`/v6/items/${ids.item}?fields=${all(ITEM_FIELDS)}`, 'item'],
      [`/v6/items?limit=4&fields=${all(ITEM_FIELDS)}`, 'items'],
      [`/v6/patrons/${ids.patron}?fields=${all(PATRON_FIELDS)}`, 'patron'],
      [`/v6/patrons?limit=4&fields=${all(PATRON_FIELDS)}`, 'patrons'],
      [`/v6/patrons/find?barcode=${ids.patronBarcode}`, 'patron'],
      [`/v6/patrons/holds/${ids.hold}?fields=${all(HOLD_FIELDS)}`, 'hold'],
      [`/v6/patrons/holds/${ids.hold}?expand=record`, 'hold'],
      [`/v6/patrons/holds?limit=10&fields=${all(HOLD_FIELDS)}`, 'holds'],
      [`/v6/patrons/${ids.patron}/holds`, 'holds'],
      [`/v6/invoices/${ids.invoice}?fields=${all(INVOICE_FIELDS)}`, 'invoice'],
      ['/v6/invoices', 'invoices'],
      [`/v6/invoices/${ids.invoice}/lineItems`, 'lineItems'],
      [`/v6/invoices/lineItems/${ids.line}`, 'lineItem'],
      // Under another prefix the same route answers alike.
      [`/iii/sierra-api/v5/bibs/${ids.bib}`, 'bib'],
    ];
    for (const [url, root] of resources) {
      const json = await get(url);
      assert.equal(json.statusCode, 200, `${url}: ${json.body}`);
      assert.match(String(json.headers['content-type']), /^application\/json/);
      const xml = await get(url, 'application/xml');
      assert.equal(xml.statusCode, 200, `${url}: ${xml.body}`);
      assert.equal(xml.headers.vary, 'Accept', url);
      assert.equal(json.headers.vary, 'Accept', url);
      const found = differences(json.json(), xmlOf(xml, url, root), root);
      assert.deepEqual(found, [], url);
    }
    // The answers hold what the comparison is meant to reach: maps, nested lists, text that needs escaping.
    const invoice = answers.find((a) => a.root === 'invoice')!.xml;
    assert.match(invoice, /<note>Books &amp; &quot;serials&quot; &lt;autumn&gt;<\/note>/);
    assert.match(invoice, /<lineItems><id>/);
    const bib = answers.find((a) => a.url.includes('fields=') && a.root === 'bib')!.xml;
    assert.match(bib, /<fixedFields><entry key="\d+"><label>/);
    assert.match(bib, /<varFields><fieldTag>\w<\/fieldTag><marcTag>\d{3}<\/marcTag>/);
    assert.match(bib, /<subfields><tag>a<\/tag><content>/);
    assert.match(bib, /<items><id>/);
  });

  it('chooses by the Accept header: q values, then the order written, wildcards, parameters; JSON by default', async () => {
    const url = `/v6/bibs/${ids.bib}`;
    const cases: [accept: string | undefined, type: string][] = [
      [undefined, 'application/json'],
      ['', 'application/json'],
      ['*/*', 'application/json'],
      ['application/*', 'application/json'],
      ['application/json', 'application/json'],
      ['application/xml', 'application/xml'],
      ['text/xml', 'text/xml'],
      ['text/*', 'text/xml'],
      ['APPLICATION/XML', 'application/xml'],
      // Equal q: the type written first.
      ['application/xml, application/json', 'application/xml'],
      ['application/json, application/xml', 'application/json'],
      ['text/xml, application/xml', 'text/xml'],
      // Higher q wins wherever it is written.
      ['application/json;q=0.5, application/xml', 'application/xml'],
      ['application/xml;q=0.9, application/json;q=0.8', 'application/xml'],
      ['application/json;q=0.8, application/xml;q=0.9', 'application/xml'],
      ['application/xml;q=0.5, */*', 'application/json'],
      ['*/*;q=0.1, application/xml', 'application/xml'],
      ['application/xml;Q=0.5, application/json;q=0.4', 'application/xml'],
      // The most specific range decides a type's q: q=0 there refuses it whatever a wildcard says.
      ['application/json;q=0, */*', 'application/xml'],
      ['application/*;q=0.5, application/xml;q=0', 'application/json'],
      ['application/*, application/json;q=0.1', 'application/xml'],
      // A browser's Accept: neither HTML nor XHTML is written; application/xml is.
      ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'application/xml'],
      // Parameters (quoted commas and semicolons too) do not confuse the reading.
      ['application/xml; charset=utf-8; q=0.8, application/json; q=0.7', 'application/xml'],
      ['application/json; profile="a,b;q=1"; q=0.1, application/xml; q=0.2', 'application/xml'],
      // A range that cannot be read is as if not written.
      ['application/json;q=2, application/xml;q=0.5', 'application/xml'],
      ['nonsense, application/xml', 'application/xml'],
      // Nothing readable at all: as if no Accept was sent.
      ['x', 'application/json'],
      ['application/xml;q=abc', 'application/json'],
    ];
    const failures = await wrongTypes(url, cases, (res, accept, type) => {
      if (type !== 'application/json' && res.statusCode === 200) xmlOf(res, `${url} (Accept ${accept})`, 'bib', type);
    });
    assert.deepEqual(failures, []);
  });

  it('406 in the error body, as JSON, when Accept allows neither JSON nor XML; nothing is read', async () => {
    for (const accept of [
      'text/csv',
      'text/html',
      'application/json;q=0, application/xml;q=0',
      'text/*;q=0, application/*;q=0',
      'application/xml;q=abc, text/csv',
      'application/marc',
    ]) {
      // The bib does not exist: the 406 comes first.
      for (const url of ['/v6/bibs/9999999', '/v6/patrons', `/v6/invoices/${ids.invoice}/lineItems`]) {
        const res = await get(url, accept);
        assert.equal(res.statusCode, 406, `${url} Accept ${accept}: ${res.body}`);
        assert.match(String(res.headers['content-type']), /^application\/json/);
        assert.equal(res.headers.vary, 'Accept');
        const body = res.json();
        assert.deepEqual(Object.keys(body), ['code', 'specificCode', 'httpStatus', 'name', 'description']);
        assert.equal(body.code, 108);
        assert.equal(body.httpStatus, 406);
        assert.match(body.description, /Accept must allow application\/json or application\/xml/);
      }
    }
    // Routes that have not opted in keep answering JSON whatever Accept says.
    const branches = await get('/v6/branches', 'text/csv');
    assert.equal(branches.statusCode, 200);
    assert.equal(branches.headers.vary, undefined);
  });

  it('an error on an XML request is the error body as XML', async () => {
    const missing = await get('/v6/bibs/9999999', 'application/xml');
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.headers.vary, 'Accept');
    const json = await get('/v6/bibs/9999999');
    assert.deepEqual(differences(json.json(), xmlOf(missing, 'missing bib', 'error'), 'error'), []);
    assert.match(
      missing.body,
      /<code>107<\/code><specificCode>0<\/specificCode><httpStatus>404<\/httpStatus><name>Record not found<\/name>/,
    );

    const badParameter = await get('/v6/items?fields=nope', 'text/xml');
    assert.equal(badParameter.statusCode, 400);
    assert.match(readXmlTree(badParameter.body).children.find((c) => c.name === 'description')!.text, /fields: "nope"/);
    xmlOf(badParameter, 'bad fields', 'error', 'text/xml');

    const noToken = await get(`/v6/patrons/${ids.patron}`, 'application/xml', '');
    assert.equal(noToken.statusCode, 401);
    assert.equal(xmlOf(noToken, 'no token', 'error').children.find((c) => c.name === 'code')!.text, '113');
  });

  it('GET /bibs/{id}/marc: MARCXML for application/marc+xml, by the same reading of Accept', async () => {
    const url = `/v6/bibs/${ids.bib}/marc`;
    const cases: [accept: string | undefined, type: string][] = [
      [undefined, 'application/json'],
      ['*/*', 'application/json'],
      ['application/marc-in-json', 'application/marc-in-json'],
      ['application/marc+xml', 'application/marc+xml'],
      ['application/marc-xml', 'application/marc-xml'],
      ['application/xml', 'application/xml'],
      ['application/marc', 'application/marc'],
      ['application/marc+xml;q=0.5, application/marc-in-json', 'application/marc-in-json'],
      ['application/marc, application/marc+xml', 'application/marc'],
      ['application/marc;q=0.1, application/marc+xml', 'application/marc+xml'],
      ['application/json;q=0, application/*;q=0.5', 'application/marc-in-json'],
    ];
    const failures = await wrongTypes(url, cases, (res) => assert.equal(res.headers.vary, 'Accept'));
    assert.deepEqual(failures, []);
    const marcxml = await get(url, 'application/marc+xml');
    const record = readXmlTree(marcxml.body);
    assert.equal(record.name, 'record');
    assert.equal(record.ns, 'http://www.loc.gov/MARC21/slim');
    const title = (await get(`/v6/bibs/${ids.bib}?fields=title`)).json().title as string;
    const f245 = record.children.find((c) => c.name === 'datafield' && c.attributes.tag === '245')!;
    assert.ok(title.startsWith(f245.children.find((c) => c.attributes.code === 'a')!.text.replace(/ :$/, '')), title);
    const refused = await get(url, 'text/csv');
    assert.equal(refused.statusCode, 406);
    assert.equal(refused.json().code, 108);
  });

  it('the OpenAPI document lists XML for the routes that answer it, and where its schema is', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v6/openapi.json' })).json();
    for (const p of [
      '/v6/bibs/{id}',
      '/v6/bibs',
      '/v6/items/{id}',
      '/v6/patrons/{id}',
      '/v6/patrons/holds/{holdId}',
      '/v6/invoices/{id}',
    ]) {
      const operation = doc.paths[p].get;
      assert.deepEqual(Object.keys(operation.responses['200'].content), ['application/json', 'application/xml'], p);
      assert.ok(operation.responses['406'], `${p} documents 406`);
      assert.match(operation.description, /\/v6\/xml-schema/, p);
    }
    assert.deepEqual(Object.keys(doc.paths['/v6/branches'].get.responses['200'].content), ['application/json']);
    assert.ok(Object.keys(doc.paths['/v6/bibs/{id}/marc'].get.responses['200'].content).includes('application/marc+xml'));
    assert.match(doc.info.description, /\/v6\/xml-schema/);
  });

  it('over a socket, as the README shows with curl', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${address}/v6/patrons/${ids.patron}?fields=names,barcodes`, {
      headers: { authorization: auth, accept: 'application/xml' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/xml; charset=utf-8');
    const tree = readXmlTree(await res.text());
    assert.equal(tree.name, 'patron');
    assert.deepEqual(
      tree.children.map((c) => c.name),
      ['id', 'names', 'barcodes'],
    );
  });

  it(
    'serves the XSD without a token; every XML answer above is valid by it (libxml2)',
    { skip: !lxml && `${SYSTEM_PYTHON} has no lxml (apt-get install python3-lxml)` },
    async () => {
      const res = await get('/v6/xml-schema', undefined, '');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/xml; charset=utf-8');
      const schema = readXmlTree(res.body);
      assert.equal(schema.name, 'schema');
      assert.equal(schema.attributes.targetNamespace, NS);
      assert.equal(schema.attributes.elementFormDefault, 'qualified');
      const declared = schema.children.filter((c) => c.name === 'element').map((c) => c.attributes.name);
      assert.deepEqual(declared, [
        'bib',
        'bibs',
        'error',
        'hold',
        'holds',
        'invoice',
        'invoices',
        'item',
        'items',
        'lineItem',
        'lineItems',
        'patron',
        'patrons',
      ]);
      assert.ok(new Set(answers.map((a) => a.root)).size >= 12, 'the answers met reach every element');

      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-xsd-'));
      try {
        fs.writeFileSync(path.join(dir, 'rest.xsd'), res.body);
        const files = answers.map((answer, i) => {
          const file = path.join(dir, `answer-${i}.xml`);
          fs.writeFileSync(file, answer.xml);
          return file;
        });
        // The validator must refuse what breaks the schema: a member it does not declare, members out of order.
        const wrong = [
          answers[0]!.xml.replace('<id>', '<unknown>1</unknown><id>'),
          answers[0]!.xml.replace(/<id>(\d+)<\/id>(<updatedDate>[^<]*<\/updatedDate>)/, '$2<id>$1</id>'),
          answers[0]!.xml.replace(' xmlns="urn:carrel:rest"', ''),
        ].map((xml, i) => {
          assert.notEqual(xml, answers[0]!.xml);
          const file = path.join(dir, `wrong-${i}.xml`);
          fs.writeFileSync(file, xml);
          return file;
        });
        const script = [
          'import json, sys',
          'from lxml import etree',
          'schema = etree.XMLSchema(etree.parse(sys.argv[1]))',
          'print(json.dumps([None if schema.validate(etree.parse(f)) else str(schema.error_log.last_error) for f in sys.argv[2:]]))',
        ].join('\n');
        const run = spawnSync(SYSTEM_PYTHON, ['-c', script, path.join(dir, 'rest.xsd'), ...files, ...wrong], { encoding: 'utf8' });
        assert.equal(run.status, 0, run.stderr);
        const results = JSON.parse(run.stdout) as (string | null)[];
        const invalid = answers.flatMap((answer, i) => (results[i] === null ? [] : [`${answer.url}: ${results[i]}`]));
        assert.deepEqual(invalid, []);
        for (const [i, error] of results.slice(answers.length).entries()) assert.ok(error, `the tampered answer ${i} is refused`);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
