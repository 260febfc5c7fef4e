// MARC by the API is MARC by import: POST and PUT /v6/bibs (MARC-in-JSON, MARCXML, ISO 2709) and
// `carrel import` (importFiles, its worker thread included) refuse the same records with the same
// words, write nothing when they refuse, translate MARC-8 the same way, and keep the largest record
// ISO 2709 can hold. A body is one record.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { importFiles, type ImportSummary } from '../../src/bibs/import.ts';
import { splitIso2709, writeIso2709 } from '../../src/marc/iso2709.ts';
import { toMarcInJson } from '../../src/marc/marc-in-json.ts';
import { toMarcXml } from '../../src/marc/marcxml.ts';
import type { MarcRecord } from '../../src/marc/record.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { bib, fieldOfBytes, LEADER, recordOfBytes } from '../helpers/marc-records.ts';
import { chunks, marcFile } from '../helpers/shared-data.ts';
import { bearer } from '../helpers/tokens.ts';

type Body = { format: 'iso2709'; bytes: Uint8Array } | { format: 'marcxml'; text: string } | { format: 'json'; json: unknown };

/** A record as ISO 2709, its leader/09 saying UTF-8 ('a', as the writer writes) or MARC-8 (' '). */
function iso(record: MarcRecord, leader09 = 'a'): { format: 'iso2709'; bytes: Buffer } {
  const bytes = Buffer.from(writeIso2709(record));
  bytes[9] = leader09.charCodeAt(0);
  return { format: 'iso2709', bytes };
}
const xml = (...records: MarcRecord[]): Body => ({
  format: 'marcxml',
  text: `<?xml version="1.0" encoding="UTF-8"?>\n<collection xmlns="http://www.loc.gov/MARC21/slim">\n${records.map((r) => toMarcXml(r, false)).join('\n')}\n</collection>\n`,
});
const json = (json: unknown): Body => ({ format: 'json', json });

/** The body as a file's bytes, for the import. */
const fileBytes = (body: Body): Uint8Array =>
  body.format === 'iso2709' ? body.bytes : Buffer.from(body.format === 'marcxml' ? body.text : JSON.stringify(body.json));

const withField = (field: MarcRecord['fields'][number], title = 'Title'): MarcRecord => {
  const record = bib(title);
  record.fields.push(field);
  return record;
};
const titled = (value: string): MarcRecord => ({
  leader: LEADER,
  fields: [
    { tag: '001', value: 'esc1' },
    { tag: '245', ind1: '1', ind2: '0', subfields: [{ code: 'a', value }] },
  ],
});

const ESC =
  'field 245 $a holds an ESC (0x1b): MARC-8 escape sequences are read in MARC-8 ISO 2709 records (leader/09 blank), never kept as text';

/** Records both doors refuse, each with the one message they give. */
const REFUSED: { what: string; body: Body; message: string | RegExp }[] = [
  {
    what: 'ISO 2709, MARC-8, an unknown escape',
    body: iso(titled('A\u001bXB'), ' '),
    message: 'field 245: unknown MARC-8 escape sequence ESC X (0x1b 0x58)',
  },
  { what: 'ISO 2709, UTF-8, a raw ESC', body: iso(titled('A\u001b(BC')), message: ESC },
  { what: 'ISO 2709, a NUL', body: iso(titled('A\u0000B')), message: 'field 245 $a holds a NUL (0x00), which cannot be stored' },
  {
    what: 'ISO 2709, a field over 9,999 bytes',
    body: iso(bib('Long note', fieldOfBytes('520', 12_034))),
    message: 'field 520 is 12034 bytes; ISO 2709 allows at most 9,999',
  },
  {
    what: 'ISO 2709, a record over 99,999 bytes',
    body: iso(recordOfBytes(100_000)),
    message: 'the record is 100000 bytes; ISO 2709 allows at most 99,999',
  },
  {
    what: 'ISO 2709, a blank subfield code',
    body: iso(withField({ tag: '500', ind1: ' ', ind2: ' ', subfields: [{ code: ' ', value: 'x' }] })),
    message: 'field 500: invalid subfield code " " (a code is one ASCII letter, digit or mark)',
  },
  {
    what: 'ISO 2709, a tag that is not letters or digits',
    body: iso(withField({ tag: '5$0', ind1: ' ', ind2: ' ', subfields: [{ code: 'a', value: 'x' }] })),
    message: 'field "5$0": a tag is three ASCII letters or digits',
  },
  {
    what: 'MARCXML, a two-character indicator',
    body: xml(withField({ tag: '500', ind1: '10', ind2: ' ', subfields: [{ code: 'a', value: 'x' }] })),
    message: 'field 500: ind1 must be one ASCII character, not "10"',
  },
  {
    what: 'MARCXML, a subfield code that is not ASCII',
    body: xml(withField({ tag: '500', ind1: ' ', ind2: ' ', subfields: [{ code: 'é', value: 'x' }] })),
    message: 'field 500: invalid subfield code "é" (a code is one ASCII letter, digit or mark)',
  },
  {
    what: 'MARCXML, a field over 9,999 bytes',
    body: xml(bib('Long note', fieldOfBytes('520', 10_000, 'é'))),
    message: 'field 520 is 19995 bytes; ISO 2709 allows at most 9,999',
  },
  {
    what: 'MARCXML, a control field with a data tag',
    body: xml(withField({ tag: '500', value: 'x' })),
    message: 'field 500 is a data field but has a plain value',
  },
  // XML 1.0 has no ESC: the reader refuses it, in the same words through both doors.
  { what: 'MARCXML, a raw ESC', body: xml(titled('A\u001b(BC')), message: /disallowed character/ },
  { what: 'MARC-in-JSON, a raw ESC', body: json(toMarcInJson(titled('A\u001b(BC'))), message: ESC },
  {
    what: 'MARC-in-JSON, a tag of four characters',
    body: json({ leader: LEADER, fields: [{ '2450': { ind1: '1', ind2: '0', subfields: [{ a: 'x' }] } }] }),
    message: 'field "2450": a tag is three ASCII letters or digits',
  },
  {
    what: 'MARC-in-JSON, a control tag with subfields',
    body: json(toMarcInJson(withField({ tag: '007', ind1: ' ', ind2: ' ', subfields: [{ code: 'a', value: 'x' }] }))),
    message: 'field 007 is a control field but has indicators and subfields',
  },
  { what: 'MARC-in-JSON, no title', body: json({ leader: LEADER, fields: [{ '001': 'untitled' }] }), message: 'no title (245)' },
  {
    what: 'MARC-in-JSON, a record over 99,999 bytes',
    body: json(toMarcInJson(recordOfBytes(100_000))),
    message: 'the record is 100000 bytes; ISO 2709 allows at most 99,999',
  },
];

/** An import of files held in memory, each opened as one chunk. */
const importBodies = (t: TestApp, files: { name: string; body: Body }[]): Promise<ImportSummary> =>
  importFiles(
    t.testDb.db,
    files.map(({ name, body }) => ({
      name,
      open: async function* () {
        yield fileBytes(body);
      },
    })),
  );

describe(`MARC through the API and through import on ${ENGINE}`, () => {
  let t: TestApp;
  let reader: string;
  let writer: string;
  let existing: string;
  before(async () => {
    t = await createTestApp();
    reader = await bearer(t, ['Bibs_Read']);
    writer = await bearer(t, ['Bibs_Write']);
    const created = await send('POST', '/v6/bibs', json(toMarcInJson(bib('An existing bib'))));
    assert.equal(created.statusCode, 200, created.body);
    existing = created.json().link.split('/').pop();
  });
  after(() => t.close());

  function send(method: 'POST' | 'PUT', url: string, body: Body) {
    const [type, payload] =
      body.format === 'iso2709'
        ? ['application/marc', Buffer.from(body.bytes)]
        : body.format === 'marcxml'
          ? ['application/marc-xml', body.text]
          : ['application/json', JSON.stringify(body.json)];
    return t.app.inject({ method, url, headers: { authorization: writer, 'content-type': type }, payload });
  }

  /** Every row a bib write could leave (tombstones included), and the existing bib as it is. */
  const snapshot = async () => ({
    bibs: (await t.testDb.db.query<{ n: number }>('select count(*)::int as n from bibs'))[0]!.n,
    items: (await t.testDb.db.query<{ n: number }>('select count(*)::int as n from items'))[0]!.n,
    existing: await t.testDb.db.query('select marc, title, updated_date from bibs where id = $1', [existing]),
  });

  it('refuses each bad record with the same message from POST, PUT and the import, and writes nothing', async () => {
    const before = await snapshot();
    const summary = await importBodies(
      t,
      REFUSED.map(({ what, body }) => ({ name: what, body })),
    );
    assert.equal(summary.read, REFUSED.length);
    assert.equal(summary.created + summary.updated, 0);
    for (const { what, body, message } of REFUSED) {
      const reported = summary.failed.filter((f) => f.file === what);
      assert.equal(reported.length, 1, `${what}: the import reports it once`);
      const reason = reported[0]!.reason;
      if (typeof message === 'string') assert.equal(reason, message, what);
      else assert.match(reason, message, what);
      for (const [method, url] of [
        ['POST', '/v6/bibs'],
        ['PUT', `/v6/bibs/${existing}`],
      ] as const) {
        const res = await send(method, url, body);
        assert.equal(res.statusCode, 400, `${method} ${what}: ${res.body}`);
        assert.deepEqual(
          res.json(),
          { code: 126, specificCode: 0, httpStatus: 400, name: 'Request validation failed', description: reason },
          `${method} ${what}`,
        );
      }
      // The API's own wrapper ({"marc": …, "suppressed": …}) changes nothing of it.
      if (body.format === 'json') {
        const wrapped = await send('POST', '/v6/bibs', json({ marc: body.json, suppressed: true }));
        assert.equal(wrapped.json().description, reason, `wrapped ${what}`);
      }
    }
    assert.deepEqual(await snapshot(), before, 'no row written, the existing bib unchanged');
  });

  it('refuses a body of more than one record, in every format, naming how many', async () => {
    const before = await snapshot();
    const one = bib('One');
    const two = { ...bib('Two'), fields: [{ tag: '001', value: 'two' }, ...bib('Two').fields.slice(1)] };
    const bodies: [string, Body, string][] = [
      [
        'ISO 2709',
        { format: 'iso2709', bytes: Buffer.concat([iso(one).bytes, iso(two).bytes]) },
        'the body holds 2 records; send one per request',
      ],
      ['MARCXML', xml(one, two, one), 'the body holds 3 records; send one per request'],
      ['MARC-in-JSON array', json([toMarcInJson(one), toMarcInJson(two)]), 'the body holds 2 records; send one per request'],
      [
        'MARC-in-JSON wrapper',
        json({ marc: [toMarcInJson(one), toMarcInJson(two)], suppressed: true }),
        'the body holds 2 records; send one per request',
      ],
      ['empty MARC-in-JSON array', json([]), 'the body holds no record'],
      ['empty MARCXML collection', xml(), 'the body holds no record'],
      ['empty ISO 2709', { format: 'iso2709', bytes: Buffer.from('\n') }, 'the body holds no record'],
    ];
    for (const [what, body, message] of bodies) {
      for (const [method, url] of [
        ['POST', '/v6/bibs'],
        ['PUT', `/v6/bibs/${existing}`],
      ] as const) {
        const res = await send(method, url, body);
        assert.equal(res.statusCode, 400, `${method} ${what}: ${res.body}`);
        assert.equal(res.json().code, 126);
        assert.equal(res.json().description, message, `${method} ${what}`);
      }
    }
    assert.deepEqual(await snapshot(), before, 'no row written, the existing bib unchanged');
    // One record is one record, however it is wrapped (and a line break after ISO 2709 is no record).
    const single: Body[] = [
      { format: 'iso2709', bytes: Buffer.concat([iso(one).bytes, Buffer.from('\r\n')]) },
      json([toMarcInJson(one)]),
      xml(one),
    ];
    for (const body of single) assert.equal((await send('POST', '/v6/bibs', body)).statusCode, 200);
  });

  it('reads MARC-8 through the API as the import reads it', async () => {
    const pieces: Uint8Array[] = [];
    for await (const { bytes } of splitIso2709(chunks('brkrtest.mrc'))) pieces.push(bytes);
    assert.equal(pieces.length, 8);
    const ids: string[] = [];
    for (const bytes of pieces) {
      assert.ok(bytes.includes(0x1b) || bytes[9] === 0x20, 'MARC-8 records');
      const res = await send('POST', '/v6/bibs', { format: 'iso2709', bytes });
      assert.equal(res.statusCode, 200, res.body);
      ids.push(res.json().link.split('/').pop());
    }
    const stored = async () => {
      const rows = [];
      for (const id of ids) rows.push(...(await t.testDb.db.query('select id, marc, title, author from bibs where id = $1', [id])));
      return rows;
    };
    const viaApi = await stored();
    assert.doesNotMatch(JSON.stringify(viaApi), /\\u001b/, 'no escape left in the text');
    const summary = await importFiles(t.testDb.db, [{ name: 'brkrtest.mrc', open: () => chunks('brkrtest.mrc') }]);
    assert.deepEqual(summary.failed, []);
    assert.equal(summary.updated, 8, 'each record matched the bib the API made of it');
    assert.deepEqual(await stored(), viaApi, 'and left it as the API wrote it');
  });

  it('keeps the largest record ISO 2709 holds, from either door, and gives it back byte for byte', async () => {
    const largest = iso(recordOfBytes(99_999));
    assert.equal(largest.bytes.length, 99_999);
    const posted = await send('POST', '/v6/bibs', { format: 'iso2709', bytes: largest.bytes });
    assert.equal(posted.statusCode, 200, posted.body);
    const id = posted.json().link.split('/').pop();
    const back = await t.app.inject({
      method: 'GET',
      url: `/v6/bibs/${id}/marc`,
      headers: { authorization: reader, accept: 'application/marc' },
    });
    assert.equal(back.statusCode, 200);
    assert.deepEqual(back.rawPayload, largest.bytes);
    const put = await send('PUT', `/v6/bibs/${id}`, json(toMarcInJson(recordOfBytes(99_999))));
    assert.equal(put.statusCode, 204, put.body);
    const summary = await importBodies(t, [{ name: 'largest.mrc', body: largest }]);
    assert.deepEqual(summary.failed, []);
    assert.equal(summary.updated, 1);
  });

  it('answers a row kept before writes were checked in the formats that can carry it, and says why not ISO 2709', async () => {
    const res = await send('POST', '/v6/bibs', json(toMarcInJson(bib('Soon too long'))));
    const id = res.json().link.split('/').pop();
    // As a record imported before the check would have been stored.
    await t.testDb.db.query('update bibs set marc = $1 where id = $2', [toMarcInJson(recordOfBytes(100_000)), id]);
    const get = (accept: string) => t.app.inject({ method: 'GET', url: `/v6/bibs/${id}/marc`, headers: { authorization: reader, accept } });
    const binary = await get('application/marc');
    assert.equal(binary.statusCode, 406);
    assert.equal(binary.json().code, 108);
    assert.equal(
      binary.json().description,
      'this record cannot be written as ISO 2709 (the record is 100000 bytes; ISO 2709 allows at most 99,999): ask for application/marc+xml or application/marc-in-json',
    );
    assert.equal((await get('application/marc-in-json')).statusCode, 200);
    assert.equal((await get('application/marc-xml')).statusCode, 200);
  });

  it('reads the shared MARC-in-JSON file through the API as the import does', async () => {
    const record: unknown = JSON.parse(fs.readFileSync(marcFile('marc-in-json.json'), 'utf8'));
    assert.equal((await send('POST', '/v6/bibs', json(record))).statusCode, 200);
  });
});
