// Holdings records (issue 19): MARC holdings records loaded beside their bibs (sample1.mrc, a real
// export that follows each bib with its holdings record), and the holdings fields a bib carries
// itself, served as Sierra's /holdings; replaced, moved and deleted with their bibs, also when two
// writers race.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importFiles } from '../../src/bibs/import.ts';
import { readMarcRaw, readBinaryRecord } from '../../src/marc/read.ts';
import { isControlField, type MarcRecord } from '../../src/marc/record.ts';
import { toMarcInJson } from '../../src/marc/marc-in-json.ts';
import { assertRefused, caller, create, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { chunks } from '../helpers/shared-data.ts';
import { bearer } from '../helpers/tokens.ts';

const control = (record: MarcRecord, tag: string) => {
  const field = record.fields.find((f) => f.tag === tag);
  return field && isControlField(field) ? field.value : undefined;
};

/** sample1.mrc as the test reads it: its bibs' 001s and its holdings records. */
async function readSample(): Promise<{ bibControls: Set<string>; holdings: MarcRecord[] }> {
  const bibControls = new Set<string>();
  const holdings: MarcRecord[] = [];
  for await (const raw of readMarcRaw(chunks('sample1.mrc'))) {
    if (raw.error !== undefined) continue;
    let record: MarcRecord;
    try {
      record = raw.record ?? readBinaryRecord(raw.bytes);
    } catch {
      continue; // the one record in neither encoding: not loaded, so not a bib its holdings can join
    }
    if ('uvxy'.includes(record.leader[6]!)) holdings.push(record);
    else if (control(record, '001')) bibControls.add(control(record, '001')!);
  }
  return { bibControls, holdings };
}

const df = (tag: string, subfields: [string, string][], ind1 = ' ', ind2 = ' ') => ({
  tag,
  ind1,
  ind2,
  subfields: subfields.map(([code, value]) => ({ code, value })),
});

/** A serial with its holdings in its own 852/866-868 fields, as many systems export them. */
function serial(title: string, groups: { location: string; holdings: string[] }[]): MarcRecord {
  return {
    leader: '00000cas a2200000 a 4500',
    fields: [
      { tag: '001', value: `ser-${title}` },
      { tag: '008', value: '900101c19909999xxumr p       0   a0eng d' },
      df('245', [['a', title]], '0', '0'),
      ...groups.flatMap((g) => [
        df(
          '852',
          [
            ['b', g.location],
            ['h', 'QA1'],
          ],
          '0',
        ),
        ...g.holdings.map((h) => df('866', [['a', h]], '4', '1')),
      ]),
    ],
  };
}

/** VuFind's extractFieldsFromApiData: a field by marcTag or fieldTag, the subfields named joined by spaces. */
function vufindFields(varFields: any[], spec: string): string[] {
  const out: string[] = [];
  for (const fieldSpec of spec.split(':')) {
    const code = fieldSpec.slice(0, 3);
    const subfieldCodes = fieldSpec.slice(3);
    for (const field of varFields) {
      if ((field.marcTag ?? '') !== code && (field.fieldTag ?? '') !== code) continue;
      const subfields = field.subfields ?? [{ tag: '', content: field.content ?? '' }];
      const parts = subfields.filter((s: any) => !subfieldCodes || subfieldCodes.includes(s.tag)).map((s: any) => s.content);
      if (parts.length) out.push(parts.join(' '));
    }
  }
  return out;
}

describe(`holdings records on ${ENGINE}`, () => {
  let t: TestApp;
  let api: Caller;
  before(async () => {
    t = await createTestApp();
    await setUpLibrary(t.testDb.db);
    api = caller(t, await bearer(t, ['all']));
  });
  after(() => t.close());

  const list = async (query: string) => {
    const res = await api.get(`/v6/holdings?${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { total: number; start: number; entries: any[] };
  };

  it('loads the holdings records of a real export, each joined to the bib its 004 names', async () => {
    const { bibControls, holdings } = await readSample();
    assert.ok(holdings.length >= 4);
    const joinable = holdings.filter((h) => bibControls.has(control(h, '004')!));
    const summary = await importFiles(t.testDb.db, [{ name: 'sample1.mrc', open: () => chunks('sample1.mrc') }]);
    assert.equal(summary.holdings.created, joinable.length);
    const orphans = summary.failed.filter((f) => /holdings record .*no bib has 001/.test(f.reason));
    assert.equal(orphans.length, holdings.length - joinable.length);
    for (const record of joinable) {
      const bib = await t.testDb.db.query<{ id: string }>('select id::text from bibs where control_number = $1', [control(record, '004')]);
      const page = await list(`bibIds=${bib[0]!.id}&deleted=false&suppressed=false&fields=fixedFields,varFields`);
      assert.equal(page.entries.length, 1);
      const [h] = page.entries;
      assert.equal(typeof h.id, 'number');
      const f852 = record.fields.find((f) => f.tag === '852')!;
      const location = !isControlField(f852) ? f852.subfields.find((s) => s.code === 'b')!.value : '';
      // VuFind: the location is fixed field 40 (or the one labelled LOCATION).
      assert.equal(h.fixedFields['40'].value, location);
      assert.equal(h.fixedFields['80'].value, 'c');
      const c = h.varFields.find((v: any) => v.marcTag === '852');
      assert.equal(c.fieldTag, 'c');
      assert.deepEqual(
        c.subfields.map((s: any) => `${s.tag}${s.content}`),
        (f852 as { subfields: { code: string; value: string }[] }).subfields.map((s) => `${s.code}${s.value}`),
      );
      assert.equal(h.varFields[0].fieldTag, '_');
      const whole = await api.get(`/v6/holdings/${h.id}?fields=default,varFields`);
      assert.equal(whole.statusCode, 200);
      assert.deepEqual(whole.json().bibIds, [Number(bib[0]!.id)]);
      assert.match(whole.json().bibIdLinks[0], new RegExp(`/v6/bibs/${bib[0]!.id}$`));
    }
    // Loaded again: the same records, replaced by their 001, none added.
    const before = await list('limit=100');
    const again = await importFiles(t.testDb.db, [{ name: 'sample1.mrc', open: () => chunks('sample1.mrc') }]);
    assert.deepEqual(again.holdings, { created: 0, updated: joinable.length });
    assert.deepEqual(
      (await list('limit=100')).entries.map((e) => e.id),
      before.entries.map((e) => e.id),
    );
  });

  it("serves a bib's own holdings fields as VuFind reads them, and keeps them with the bib", async () => {
    const bibId = (
      await create(
        api,
        '/v6/bibs',
        toMarcInJson(
          serial('Journal of holdings', [
            { location: 'mn', holdings: ['v.1-20 (1990-2009)'] },
            { location: 'br', holdings: ['v.15-', 'Lacks v.17'] },
          ]),
        ),
      )
    )
      .split('/')
      .pop()!;
    const vufind = await list(`bibIds=${bibId}&deleted=false&suppressed=false&fields=fixedFields%2CvarFields`);
    assert.equal(vufind.total, 2);
    const byLocation = new Map<string, string[]>();
    for (const entry of vufind.entries) {
      const location = Object.entries(entry.fixedFields as Record<string, any>).find(
        ([code, f]) => code === '40' || f.label === 'LOCATION',
      )![1].value;
      byLocation.set(location, vufindFields(entry.varFields, 'h'));
    }
    assert.deepEqual(Object.fromEntries(byLocation), { mn: ['v.1-20 (1990-2009)'], br: ['v.15-', 'Lacks v.17'] });
    assert.equal(vufind.entries[0].fixedFields['40'].display, 'Main');
    const [first, second] = vufind.entries.map((e) => e.id);

    // Changed: the first keeps its id with its new statement; the second, gone, is deleted.
    const changed = await api.send(
      'PUT',
      `/v6/bibs/${bibId}`,
      toMarcInJson(serial('Journal of holdings', [{ location: 'mn', holdings: ['v.1-21 (1990-2010)'] }])),
    );
    assert.equal(changed.statusCode, 204, changed.body);
    const now = await list(`bibIds=${bibId}&deleted=false&fields=varFields`);
    assert.deepEqual(
      now.entries.map((e) => e.id),
      [first],
    );
    assert.deepEqual(vufindFields(now.entries[0].varFields, '866a'), ['v.1-21 (1990-2010)']);
    const gone = await api.get(`/v6/holdings/${second}`);
    assert.equal(gone.json().deleted, true);
    assert.match(gone.json().deletedDate, /^\d{4}-\d{2}-\d{2}$/);
    assert.deepEqual(
      (await list(`deleted=true&bibIds=${bibId}`)).entries.map((e) => e.id),
      [second],
    );

    // The bib deleted: its holdings with it.
    assert.equal((await api.send('DELETE', `/v6/bibs/${bibId}`)).statusCode, 204);
    assert.deepEqual((await list(`bibIds=${bibId}&deleted=false`)).entries, []);
  });

  it('two writers of one bib leave one set of holdings, the last one written', async () => {
    const bibId = (await create(api, '/v6/bibs', toMarcInJson(serial('Raced', [{ location: 'mn', holdings: ['v.1'] }])))).split('/').pop()!;
    const bodies = [1, 2, 3, 4].map((n) =>
      toMarcInJson(
        serial(
          'Raced',
          Array.from({ length: n }, (_, i) => ({ location: 'mn', holdings: [`v.${n}.${i}`] })),
        ),
      ),
    );
    const answers = await Promise.all(bodies.map((body) => api.send('PUT', `/v6/bibs/${bibId}`, body)));
    assert.deepEqual(
      answers.map((a) => a.statusCode),
      [204, 204, 204, 204],
    );
    const live = await list(`bibIds=${bibId}&deleted=false&fields=varFields`);
    const statements = live.entries.map((e) => vufindFields(e.varFields, '866a')[0]);
    // Whichever write came last, its holdings are all there and nothing of the others.
    const n = live.total;
    assert.ok(n >= 1 && n <= 4);
    assert.deepEqual(
      statements,
      Array.from({ length: n }, (_, i) => `v.${n}.${i}`),
    );
    const marc = (await api.get(`/v6/bibs/${bibId}?fields=varFields`)).json();
    assert.equal(marc.varFields.filter((v: any) => v.marcTag === '866').length, n);
  });

  it("answers bad requests in Sierra's error form", async () => {
    assertRefused(await api.get('/v6/holdings/99999999'), 404, 107);
    assertRefused(await api.get('/v6/holdings/abc'), 400, 101);
    assertRefused(await api.get('/v6/holdings?fields=title'), 400, 108);
    assertRefused(await api.get('/v6/holdings?bibIds=x'), 400, 101);
    // A holdings record is not a bib: POST /bibs says where it goes.
    const holdingsRecord = { ...toMarcInJson(serial('Not a bib', [])), leader: '00000nx  a22000004n 4500' };
    const refused = await api.send('POST', '/v6/bibs', holdingsRecord);
    assertRefused(refused, 400, 126);
    assert.match(refused.json().description, /a holdings record .*carrel import/);
    const anonymous = await t.app.inject({ method: 'GET', url: '/v6/holdings' });
    assert.equal(anonymous.statusCode, 401);
    const patronsOnly = caller(t, await bearer(t, ['Patrons_Read']));
    assert.equal((await patronsOnly.get('/v6/holdings')).statusCode, 403);
  });
});
