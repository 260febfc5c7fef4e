// /v6/bibs on real records: write then read, the list's filters, ranges and paging, permissions.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { BibService } from '../../src/bibs/service.ts';
import { ItemService } from '../../src/items/service.ts';
import { splitIso2709 } from '../../src/marc/iso2709.ts';
import { toMarcInJson } from '../../src/marc/marc-in-json.ts';
import { readMarc } from '../../src/marc/read.ts';
import type { MarcRecord } from '../../src/marc/record.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { chunks, marcFile } from '../helpers/shared-data.ts';
import { bearer } from '../helpers/tokens.ts';

async function sharedRecords(file: string): Promise<MarcRecord[]> {
  const out: MarcRecord[] = [];
  for await (const result of readMarc(chunks(file))) if (result.record) out.push(result.record);
  return out;
}

describe(`bibs on ${ENGINE}`, () => {
  let t: TestApp;
  let reader: string;
  let writer: string;
  let ids: string[];
  before(async () => {
    t = await createTestApp();
    reader = await bearer(t, ['Bibs_Read']);
    writer = await bearer(t, ['Bibs_Write']);
    const service = new BibService(t.testDb.db, new ItemService(t.testDb.db));
    ids = [];
    for (const record of (await sharedRecords('pride-and-prejudice-fixed.mrc')).slice(0, 120))
      ids.push(await service.create({ marc: record }));
  });
  after(() => t.close());

  const get = (url: string, auth = reader) => t.app.inject({ method: 'GET', url, headers: { authorization: auth } });

  it('creates from MARC-in-JSON, answers the link, and reads it back with derived fields', async () => {
    const json: unknown = JSON.parse(fs.readFileSync(marcFile('pymarc-one.json'), 'utf8'));
    const res = await t.app.inject({
      method: 'POST',
      url: '/iii/sierra-api/v6/bibs',
      headers: { authorization: writer },
      payload: json as object,
    });
    assert.equal(res.statusCode, 200, res.body);
    const link = res.json().link as string;
    assert.match(link, /^http:\/\/localhost(:\d+)?\/iii\/sierra-api\/v6\/bibs\/\d{7,}$/);
    const id = link.split('/').pop()!;
    const bib = (await get(`/v6/bibs/${id}`)).json();
    assert.equal(bib.id, id);
    assert.equal(bib.deleted, false);
    assert.equal(bib.suppressed, false);
    assert.match(bib.title, /\S/);
    assert.doesNotMatch(bib.title, /[/:]$/, 'ISBD punctuation trimmed');
    assert.equal(bib.materialType.code, 'a');
    assert.equal(bib.materialType.value, 'Books');
    assert.equal(bib.lang.code, 'eng');
    assert.equal(bib.lang.name, 'English');
    assert.match(bib.createdDate, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.match(bib.catalogDate, /^\d{4}-\d{2}-\d{2}$/);
    const marc = (await get(`/v6/bibs/${id}?fields=varFields`)).json();
    assert.deepEqual(Object.keys(marc).sort(), ['id', 'varFields']);
    assert.ok(marc.varFields.some((f: any) => f.marcTag === '245' && f.fieldTag === 't'));
    const [stored] = await t.testDb.db.query<{ kind: string }>('select json_typeof(marc) as kind from bibs where id = $1', [id]);
    assert.equal(stored!.kind, 'object', 'MARC stored as a JSON object on every engine');
    await t.app.inject({ method: 'DELETE', url: `/v6/bibs/${id}`, headers: { authorization: writer } });
  });

  it('lists in ascending id with total = entries on the page, and pages with limit and offset', async () => {
    const first = (await get('/v6/bibs?limit=50')).json();
    assert.equal(first.total, 50);
    assert.equal(first.start, 0);
    assert.deepEqual(
      first.entries.map((e: any) => e.id),
      ids.slice(0, 50),
    );
    const third = (await get(`/v6/bibs?limit=50&offset=100&id=[${ids[0]},${ids[119]}]`)).json();
    assert.equal(third.total, 20);
    assert.deepEqual(
      third.entries.map((e: any) => e.id),
      ids.slice(100, 120),
    );
  });

  it('filters by id list and by id range, open or closed', async () => {
    const list = (await get(`/v6/bibs?id=${ids[3]},${ids[1]}`)).json();
    assert.deepEqual(
      list.entries.map((e: any) => e.id),
      [ids[1], ids[3]],
    );
    const range = (await get(`/v6/bibs?id=[${ids[10]},${ids[14]}]`)).json();
    assert.deepEqual(
      range.entries.map((e: any) => e.id),
      ids.slice(10, 15),
    );
    const open = (await get(`/v6/bibs?id=[${ids[115]},]&limit=2000&deleted=false`)).json();
    assert.deepEqual(
      open.entries.map((e: any) => e.id),
      ids.slice(115),
    );
    assert.equal((await get('/v6/bibs?id=[5,2]')).json().code, 108);
    assert.equal((await get('/v6/bibs?id=abc')).json().code, 101);
  });

  it('selects fields and refuses unknown ones', async () => {
    const res = (await get(`/v6/bibs?id=${ids[0]}&fields=title,author`)).json();
    assert.deepEqual(Object.keys(res.entries[0]).sort(), ['author', 'id', 'title'].filter((k) => k in res.entries[0]).sort());
    assert.ok('title' in res.entries[0]);
    const bad = await get('/v6/bibs?fields=title,colour');
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().code, 108);
  });

  it("a page with the MARC (written from the stored text) answers what each record's own read answers", async () => {
    const fields = 'default,fixedFields,varFields,marc,locations';
    const page = await get(`/v6/bibs?limit=2000&fields=${fields}`);
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^application\/json/);
    const entries = page.json().entries as { id: string }[];
    assert.ok(entries.length >= 100);
    for (const entry of entries) {
      const own = (await get(`/v6/bibs/${entry.id}?fields=${fields}`)).json();
      assert.deepEqual(entry, own, entry.id);
    }
  });

  it('replaces, suppresses and deletes, leaving a tombstone that the deleted filters find', async () => {
    const id = ids[5]!;
    const before = (await get(`/v6/bibs/${id}`)).json();
    const record = (await sharedRecords('pride-and-prejudice-fixed.mrc'))[5]!;
    await new Promise((resolve) => setTimeout(resolve, 1100)); // updatedDate has whole seconds
    const put = await t.app.inject({
      method: 'PUT',
      url: `/v6/bibs/${id}`,
      headers: { authorization: writer },
      payload: { marc: toMarcInJson(record), suppressed: true },
    });
    assert.equal(put.statusCode, 204);
    const after = (await get(`/v6/bibs/${id}`)).json();
    assert.equal(after.suppressed, true);
    assert.ok(after.updatedDate > before.updatedDate);
    assert.equal(after.createdDate, before.createdDate);
    assert.deepEqual(
      (await get('/v6/bibs?suppressed=true')).json().entries.map((e: any) => e.id),
      [id],
    );

    const del = await t.app.inject({ method: 'DELETE', url: `/v6/bibs/${id}`, headers: { authorization: writer } });
    assert.equal(del.statusCode, 204);
    const tomb = (await get(`/v6/bibs/${id}`)).json();
    assert.deepEqual(Object.keys(tomb).sort(), ['deleted', 'deletedDate', 'id']);
    assert.equal(tomb.deleted, true);
    assert.match(tomb.deletedDate, /^\d{4}-\d{2}-\d{2}$/);
    assert.ok((await get('/v6/bibs?deleted=true')).json().entries.some((e: any) => e.id === id));
    assert.ok(!(await get('/v6/bibs?deleted=false&limit=2000')).json().entries.some((e: any) => e.id === id));
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/v6/bibs/${id}`, headers: { authorization: writer } })).statusCode, 404);
    assert.equal(
      (await t.app.inject({ method: 'PUT', url: `/v6/bibs/${id}`, headers: { authorization: writer }, payload: toMarcInJson(record) }))
        .statusCode,
      404,
    );
  });

  it('filters by updatedDate and createdDate windows', async () => {
    const all = (await get('/v6/bibs?limit=2000&fields=updatedDate,createdDate')).json().entries.filter((e: any) => !e.deleted);
    const first = all[0];
    const res = (await get(`/v6/bibs?limit=2000&createdDate=[${first.createdDate},${first.createdDate}]`)).json();
    assert.ok(res.entries.length > 0);
    assert.ok(res.entries.every((e: any) => e.id >= first.id || e.deleted));
    const future = (await get('/v6/bibs?updatedDate=[2999-01-01T00:00:00Z,]')).json();
    assert.equal(future.total, 0);
    assert.equal((await get('/v6/bibs?updatedDate=yesterday')).json().code, 108);
  });

  it('refuses bad bodies with 126 and writes nothing', async () => {
    const count = async () => (await t.testDb.db.query<{ n: number }>('select count(*)::int as n from bibs'))[0]!.n;
    const before = await count();
    for (const payload of [
      { leader: 'x', fields: [] },
      { marc: { leader: '00000nam a2200000 a 4500', fields: [{ '001': 'x' }] } },
      [1, 2],
    ]) {
      const res = await t.app.inject({ method: 'POST', url: '/v6/bibs', headers: { authorization: writer }, payload: payload as object });
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      assert.equal(res.json().code, 126);
    }
    assert.equal(await count(), before);
  });

  it('takes MARC as ISO 2709 and gives it back byte for byte; MARCXML and MARC-in-JSON too', async () => {
    const pieces: Uint8Array[] = [];
    for await (const piece of splitIso2709(chunks('brkrtest_UTF8.mrc'))) pieces.push(piece.bytes);
    for (const original of pieces.slice(0, 3)) {
      const posted = await t.app.inject({
        method: 'POST',
        url: '/v6/bibs',
        headers: { authorization: writer, 'content-type': 'application/marc' },
        payload: Buffer.from(original),
      });
      assert.equal(posted.statusCode, 200, posted.body);
      const id = posted.json().link.split('/').pop();
      const binary = await t.app.inject({
        method: 'GET',
        url: `/v6/bibs/${id}/marc`,
        headers: { authorization: reader, accept: 'application/marc' },
      });
      assert.equal(binary.headers['content-type'], 'application/marc');
      assert.deepEqual(binary.rawPayload, Buffer.from(original), 'byte-equal round trip');

      const xml = await t.app.inject({
        method: 'GET',
        url: `/v6/bibs/${id}/marc`,
        headers: { authorization: reader, accept: 'application/marc-xml' },
      });
      assert.match(xml.headers['content-type'] as string, /^application\/marc-xml/);
      const viaXml = await t.app.inject({
        method: 'POST',
        url: '/v6/bibs',
        headers: { authorization: writer, 'content-type': 'application/marc-xml' },
        payload: xml.body,
      });
      assert.equal(viaXml.statusCode, 200, viaXml.body);
      const json = await t.app.inject({ method: 'GET', url: `/v6/bibs/${id}/marc`, headers: { authorization: reader } });
      const again = await t.app.inject({
        method: 'GET',
        url: `${new URL(viaXml.json().link).pathname}/marc`,
        headers: { authorization: reader, accept: 'application/marc-in-json' },
      });
      assert.deepEqual(again.json().fields, json.json().fields, 'MARCXML carries the same record');
    }
    const unacceptable = await t.app.inject({
      method: 'GET',
      url: `/v6/bibs/${ids[0]}/marc`,
      headers: { authorization: reader, accept: 'image/png' },
    });
    assert.equal(unacceptable.statusCode, 406);
    assert.equal(unacceptable.json().code, 108);
    const garbage = await t.app.inject({
      method: 'POST',
      url: '/v6/bibs',
      headers: { authorization: writer, 'content-type': 'application/marc' },
      payload: Buffer.from('hello'),
    });
    assert.equal(garbage.statusCode, 400);
    assert.equal(garbage.json().code, 126);
  });

  it('answers metadata: material types, bib levels, languages in use', async () => {
    const res = await get('/v6/bibs/metadata');
    assert.equal(res.statusCode, 200);
    const byField = Object.fromEntries(res.json().map((m: any) => [m.field, m.values]));
    assert.deepEqual(Object.keys(byField), ['materialType', 'bibLevel', 'language', 'country']);
    assert.ok(byField.materialType.some((v: any) => v.code === 'a' && v.desc === 'Books'));
    for (const code of ['a', 'e', 's', 'i', 'j', 'c', 'm', 'g', 'f', 'p'])
      assert.ok(
        byField.materialType.some((v: any) => v.code === code),
        code,
      );
    assert.ok(byField.language.some((v: any) => v.code === 'eng' && v.desc === 'English'));
    const one = (await get('/v6/bibs/metadata?fields=bibLevel')).json();
    assert.deepEqual(
      one.map((m: any) => m.field),
      ['bibLevel'],
    );
    const french = (await get('/v6/bibs/metadata?fields=language&language=fr')).json();
    assert.ok(french[0].values.some((v: any) => v.code === 'eng' && v.desc === 'anglais'));
    assert.equal((await get('/v6/bibs/metadata?fields=colour')).json().code, 108);
  });

  it('needs Bibs_Read to read and Bibs_Write to write', async () => {
    const patrons = await bearer(t, ['Patrons_Read']);
    assert.equal((await get('/v6/bibs', patrons)).statusCode, 403);
    assert.equal((await get(`/v6/bibs/${ids[0]}`, patrons)).json().code, 116);
    const post = await t.app.inject({ method: 'POST', url: '/v6/bibs', headers: { authorization: reader }, payload: {} });
    assert.equal(post.statusCode, 403);
    assert.equal((await get('/v6/bibs', '')).statusCode, 401);
    assert.equal((await get('/v6/bibs/9999999')).statusCode, 404);
  });
});
