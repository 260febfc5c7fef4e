// Sierra's JSON queries as Create Lists exports them: groups as plain nested arrays, a field group
// named by a bare "tag", "?" for any indicator, subfield restrictions, every operator Sierra lists
// (at_least_one_field_not_have, all_fields_not_have, has, not_within, regex, ranges and the
// relative dates on fixed fields), the editor's empty second operands. Each answer is checked
// against the records (real MARC records, read here in JavaScript); each malformed query is a 400
// naming its member.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importFiles } from '../../src/bibs/import.ts';
import type { MarcInJson } from '../../src/marc/marc-in-json.ts';
import { FixedClock } from '../../src/shared/calendar.ts';
import { assertRefused, caller, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addItem, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { chunks } from '../helpers/shared-data.ts';
import { bearer } from '../helpers/tokens.ts';

interface Bib {
  id: string;
  marc: MarcInJson;
  material_type: string | null;
}

/** The library's today for these tests: relative dates count back from it. */
const TODAY = '2027-03-15';
/** Days before TODAY given to the bibs' cataloguing dates, in turn. */
const DAYS_BACK = [0, 1, 3, 6, 7, 8, 13, 14, 15, 28, 31, 45, 59, 60, 400];

/** The text of each field with one of these tags (and indicators, "?" any): a control field's value, a data field's chosen subfields joined by spaces. */
function texts(marc: MarcInJson, tags: string[], codes?: string, ind1 = '?', ind2 = '?'): string[] {
  const out: string[] = [];
  for (const field of marc.fields) {
    for (const [tag, value] of Object.entries(field)) {
      if (!tags.includes(tag)) continue;
      if (typeof value === 'string') {
        out.push(value);
        continue;
      }
      if ((ind1 !== '?' && value.ind1 !== ind1) || (ind2 !== '?' && value.ind2 !== ind2)) continue;
      const chosen = value.subfields.flatMap((s) => Object.entries(s)).filter(([code]) => !codes || codes.includes(code));
      if (chosen.length) out.push(chosen.map(([, text]) => text).join(' '));
    }
  }
  return out;
}

const norm = (v: string) => v.trim().toLowerCase();
const has = (v: string, word: string) => norm(v).includes(norm(word));
const SUBJECTS = Array.from({ length: 100 }, (_, i) => String(600 + i));
const TITLES = ['245', '246', '130', '240', '730', '740'];

/** A condition as Create Lists writes it: one-value operators padded with "". */
const bib = (what: object, op: string, operands: string[]) => ({ target: { record: { type: 'bib' }, ...what }, expr: { op, operands } });
const marcTag = (tag: string, more: object = {}) => ({ field: { marcTag: tag, ...more } });

const day = (back: number) => new Date(Date.parse(`${TODAY}T00:00:00Z`) - back * 86_400_000).toISOString().slice(0, 10);

describe(`Create Lists JSON queries on ${ENGINE}`, () => {
  let t: TestApp;
  let api: Caller;
  let bibs: Bib[];
  /** Each bib's cataloguing date, as set here. */
  const catalogued = new Map<string, string>();
  /** The bibs with an item at each location. */
  const located = new Map<string, Set<string>>();

  before(async () => {
    t = await createTestApp({}, { clock: new FixedClock(TODAY) });
    await setUpLibrary(t.testDb.db);
    for (const file of ['brkrtest.mrc', 'pride-and-prejudice-fixed.mrc'])
      await importFiles(t.testDb.db, [{ name: file, open: () => chunks(file) }]);
    bibs = await t.testDb.db.query<Bib>('select id::text, marc, material_type from bibs order by id');
    for (const [i, b] of bibs.entries()) catalogued.set(b.id, day(DAYS_BACK[i % DAYS_BACK.length]!));
    await t.testDb.db.query(
      `update bibs set catalog_date = d.day, created_date = (d.day + d.at) at time zone 'UTC'
       from unnest($1::bigint[], $2::date[], $3::time[]) d(id, day, at) where bibs.id = d.id`,
      [bibs.map((b) => b.id), bibs.map((b) => catalogued.get(b.id)), bibs.map((_, i) => (i % 2 ? '00:30' : '23:30'))],
    );
    for (const [i, b] of bibs.entries()) {
      const location = ['mn', 'br', 'st'][i % 3]!;
      if (i % 4 === 3) continue;
      await addItem(t.testDb.db, b.id, location, '-', `CL-${i}`);
      located.set(location, (located.get(location) ?? new Set()).add(b.id));
    }
    api = caller(t, await bearer(t, ['all']));
  });
  after(() => t.close());

  async function ids(body: unknown): Promise<string[]> {
    const res = await api.send('POST', '/v6/bibs/query?offset=0&limit=2000', body);
    assert.equal(res.statusCode, 200, `${JSON.stringify(body)}: ${res.body}`);
    return res.json().entries.map((e: { link: string }) => e.link.split('/').pop()!);
  }
  const where = (test: (b: Bib) => boolean) => bibs.filter(test).map((b) => b.id);

  it('reads groups written as plain nested arrays, at the top and inside "queries", as the same query', async () => {
    const type = bibs[0]!.material_type!;
    const word = texts(bibs[1]!.marc, ['245'], 'a')[0]!
      .split(/\s+/)
      .find((w) => w.length > 3)!;
    const author = texts(bibs[2]!.marc, ['100', '110', '111', '700', '710', '711'], 'a')[0]?.split(/[\s,]+/)[0] ?? 'austen';
    const a = bib({ id: 30 }, 'equals', [type, '']);
    const b = bib(marcTag('245', { subfields: 'a' }), 'has', [word, '']);
    const c = bib({ tag: 'a' }, 'has', [author, '']);
    const want = where(
      (r) =>
        r.material_type === type &&
        (texts(r.marc, ['245'], 'a').some((v) => has(v, word)) ||
          texts(r.marc, ['100', '110', '111', '700', '710', '711']).some((v) => has(v, author))),
    );
    const other = where((r) => r.material_type !== type);
    assert.ok(want.length >= 1 && other.length >= 1, 'the records give the group something to decide');
    assert.deepEqual(await ids([a, 'and', [b, 'or', c]]), want);
    assert.deepEqual(await ids({ queries: [a, 'and', [b, 'or', c]] }), want);
    assert.deepEqual(await ids({ queries: [a, 'and', { queries: [b, 'or', c] }] }), want);
    // Left to right without the group: (a and b) or c, another answer.
    const flat = where(
      (r) =>
        (r.material_type === type && texts(r.marc, ['245'], 'a').some((v) => has(v, word))) ||
        texts(r.marc, ['100', '110', '111', '700', '710', '711']).some((v) => has(v, author)),
    );
    assert.deepEqual(await ids({ queries: [a, 'and', b, 'or', c] }), flat);
    assert.deepEqual(
      await ids([[[a]]]),
      where((r) => r.material_type === type),
    );
  });

  it('reads a field group named by a bare "tag" as the same group under "field"', async () => {
    const word = texts(bibs[0]!.marc, TITLES)[0]!
      .split(/\s+/)
      .find((w) => w.length > 3)!;
    const want = where((r) => texts(r.marc, TITLES).some((v) => has(v, word)));
    assert.ok(want.length >= 1);
    assert.deepEqual(await ids(bib({ tag: 't' }, 'has', [word, ''])), want);
    assert.deepEqual(await ids(bib({ field: { tag: 't' } }, 'has', [word, ''])), want);
    assert.deepEqual(
      await ids(bib({ tag: 't' }, 'all_fields_not_have', [word, ''])),
      where((r) => !want.includes(r.id)),
    );
  });

  it('matches indicators as given, "?" as any, and only the subfields named', async () => {
    // Every 245 indicator pair the records hold, each asked for exactly, by one "?", and by both.
    const pairs = new Set(
      bibs.flatMap((r) => r.marc.fields.flatMap((f) => (typeof f['245'] === 'object' ? [`${f['245'].ind1}${f['245'].ind2}`] : []))),
    );
    assert.ok(pairs.size >= 2, `245 indicator pairs: ${[...pairs].join(', ')}`);
    for (const pair of pairs) {
      const [i1, i2] = [pair[0]!, pair[1]!];
      const asked = (q1: string, q2: string) => where((r) => texts(r.marc, ['245'], undefined, q1, q2).length > 0);
      assert.deepEqual(await ids(bib(marcTag('245', { ind1: i1, ind2: i2 }), 'exists', ['', ''])), asked(i1, i2), pair);
      assert.deepEqual(await ids(bib(marcTag('245', { ind1: i1, ind2: '?' }), 'exists', [])), asked(i1, '?'), pair);
      assert.deepEqual(await ids(bib(marcTag('245', { ind1: '?', ind2: i2 }), 'exists', [])), asked('?', i2), pair);
    }
    assert.deepEqual(
      await ids(bib(marcTag('245', { ind1: '?', ind2: '?' }), 'exists', [])),
      where((r) => texts(r.marc, ['245']).length > 0),
    );
    // A word of a 245 $c that its $a does not hold: found in "c", not in "a", in "ac".
    const holder = bibs.find((r) =>
      texts(r.marc, ['245'], 'c').some((v) =>
        v.split(/\s+/).some((w) => w.length > 3 && !texts(r.marc, ['245'], 'a').some((a) => has(a, w))),
      ),
    )!;
    assert.ok(holder, 'a 245 with a $c');
    const word = texts(holder.marc, ['245'], 'c')
      .flatMap((v) => v.split(/\s+/))
      .find((w) => w.length > 3 && !texts(holder.marc, ['245'], 'a').some((a) => has(a, w)))!;
    for (const codes of ['c', 'a', 'ac']) {
      assert.deepEqual(
        await ids(bib(marcTag('245', { subfields: codes }), 'has', [word, ''])),
        where((r) => texts(r.marc, ['245'], codes).some((v) => has(v, word))),
        `245|${codes} has ${word}`,
      );
    }
    assert.ok((await ids(bib(marcTag('245', { subfields: 'c' }), 'has', [word]))).includes(holder.id));
    assert.ok(!(await ids(bib(marcTag('245', { subfields: 'a' }), 'has', [word]))).includes(holder.id));
    // A field group restricted to subfields.
    assert.deepEqual(
      await ids(bib({ field: { tag: 't', subfields: 'c' } }, 'has', [word, ''])),
      where((r) => texts(r.marc, TITLES, 'c').some((v) => has(v, word))),
    );
  });

  it('has, all_fields_not_have and at_least_one_field_not_have on a repeated field, as the records say', async () => {
    // A record with two subject fields, one holding a word the other lacks: it is in all three answers but one.
    const holder = bibs.find((r) => {
      const subjects = texts(r.marc, SUBJECTS);
      return subjects.length >= 2 && subjects.some((v) => v.split(/\s+/).some((w) => w.length > 3 && subjects.some((o) => !has(o, w))));
    })!;
    assert.ok(holder, 'a bib with two different subjects');
    const subjects = texts(holder.marc, SUBJECTS);
    const word = subjects.flatMap((v) => v.split(/\s+/)).find((w) => w.length > 3 && subjects.some((o) => !has(o, w)))!;
    const some = where((r) => texts(r.marc, SUBJECTS).some((v) => has(v, word)));
    const none = where((r) => !texts(r.marc, SUBJECTS).some((v) => has(v, word)));
    const lacking = where((r) => texts(r.marc, SUBJECTS).some((v) => !has(v, word)));
    assert.deepEqual(await ids(bib({ tag: 'd' }, 'has', [word, ''])), some);
    assert.deepEqual(await ids(bib({ tag: 'd' }, 'all_fields_not_have', [word, ''])), none);
    assert.deepEqual(await ids(bib({ tag: 'd' }, 'at_least_one_field_not_have', [word, ''])), lacking);
    assert.ok(some.includes(holder.id) && lacking.includes(holder.id) && !none.includes(holder.id));
    // A record with no subject at all has none that holds the word, and none that lacks it.
    const bare = bibs.find((r) => texts(r.marc, SUBJECTS).length === 0);
    if (bare) assert.ok(none.includes(bare.id) && !lacking.includes(bare.id));
    // The same operators on a fixed field that repeats (26, the locations of a bib's items).
    const mn = located.get('mn')!;
    assert.deepEqual(
      await ids(bib({ id: 26 }, 'has', ['mn', ''])),
      where((r) => mn.has(r.id)),
    );
    assert.deepEqual(
      await ids(bib({ id: 26 }, 'all_fields_not_have', ['mn', ''])),
      where((r) => !mn.has(r.id)),
    );
    assert.deepEqual(
      await ids(bib({ id: 26 }, 'at_least_one_field_not_have', ['mn', ''])),
      where((r) => [...located.entries()].some(([code, held]) => code !== 'mn' && held.has(r.id))),
    );
  });

  it('regex, starts_with, ends_with, in and the editor’s empty operands, as the records say', async () => {
    const titles = (r: Bib) => texts(r.marc, ['245'], 'a');
    const sizes: number[] = [];
    for (const pattern of ['[aeiou]{3}', '^the ', 's[[:space:]]*[/:.]?$', '(love|pride|war)', 'PRIDE']) {
      const re = new RegExp(pattern.replace('[[:space:]]', '\\s'), 'i');
      const want = where((r) => titles(r).some((v) => re.test(norm(v))));
      assert.deepEqual(await ids(bib(marcTag('245', { subfields: 'a' }), 'regex', [pattern, ''])), want, pattern);
      sizes.push(want.length);
    }
    assert.ok(sizes.filter((n) => n > 0 && n < bibs.length).length >= 3, `answers of ${sizes.join(', ')} of ${bibs.length}`);
    const first = norm(titles(bibs[0]!)[0]!);
    assert.deepEqual(
      await ids(bib(marcTag('245', { subfields: 'a' }), 'starts_with', [first.slice(0, 5), ''])),
      where((r) => titles(r).some((v) => norm(v).startsWith(first.slice(0, 5)))),
    );
    assert.deepEqual(
      await ids(bib(marcTag('245', { subfields: 'a' }), 'ends_with', [first.slice(-4), ''])),
      where((r) => titles(r).some((v) => norm(v).endsWith(first.slice(-4)))),
    );
    const types = [...new Set(bibs.map((r) => r.material_type!))].slice(0, 2);
    assert.deepEqual(
      await ids(bib({ id: 30 }, 'in', [...types, ''])),
      where((r) => types.includes(r.material_type!)),
    );
    assert.deepEqual(
      await ids(bib({ id: 31 }, 'exists', ['', ''])),
      where(() => true),
    );
    assert.deepEqual(
      await ids(bib(marcTag('245'), 'not_exists', ['', ''])),
      where((r) => texts(r.marc, ['245']).length === 0),
    );
  });

  it('ranges and relative dates on fixed fields: cataloguing date (28), created (83), record number (81)', async () => {
    const on = (from: string, to: string) => where((r) => catalogued.get(r.id)! >= from && catalogued.get(r.id)! <= to);
    const cases: [string, string[], string, string][] = [
      ['today', [], TODAY, TODAY],
      ['yesterday', ['', ''], '2027-03-14', '2027-03-14'],
      ['days_ago', ['3', ''], '2027-03-12', '2027-03-12'],
      ['days_ago', ['0'], TODAY, TODAY],
      ['last_week', [], '2027-03-08', '2027-03-14'],
      ['weeks_ago', ['2', ''], '2027-03-01', '2027-03-07'],
      ['last_month', [], '2027-02-15', '2027-03-14'],
      ['months_ago', ['2'], '2027-01-15', '2027-02-14'],
    ];
    for (const [op, operands, from, to] of cases) {
      const want = on(from, to);
      assert.deepEqual(await ids(bib({ id: 28 }, op, operands)), want, `28 ${op} ${operands.join(',')}`);
      // Created: an instant, compared by its UTC day (set here to half an hour from either end of it).
      assert.deepEqual(await ids(bib({ id: 83 }, op, operands)), want, `83 ${op} ${operands.join(',')}`);
    }
    assert.ok(on('2027-03-08', '2027-03-14').length >= 2, 'the records fall in the ranges asked about');
    // Absolute ranges, as Create Lists writes dates (MM-DD-YYYY).
    assert.deepEqual(await ids(bib({ id: 28 }, 'between', ['03-01-2027', '03-12-2027'])), on('2027-03-01', '2027-03-12'));
    assert.deepEqual(
      await ids(bib({ id: 28 }, 'not_within', ['03-01-2027', '03-12-2027'])),
      where((r) => !on('2027-03-01', '2027-03-12').includes(r.id)),
    );
    assert.deepEqual(await ids(bib({ id: 28 }, 'greater_than', ['03-12-2027', ''])), on('2027-03-13', '9999-12-31'));
    assert.deepEqual(await ids(bib({ id: 83 }, 'less_than_or_equal', ['2027-02-14', ''])), on('0001-01-01', '2027-02-14'));
    const [, second, , fourth] = bibs;
    assert.deepEqual(
      await ids(bib({ id: 81 }, 'not_within', [second!.id, fourth!.id])),
      where((r) => BigInt(r.id) < BigInt(second!.id) || BigInt(r.id) > BigInt(fourth!.id)),
    );
    assert.deepEqual(
      await ids(bib({ id: 81 }, 'between', [second!.id, fourth!.id])),
      bibs.slice(1, 4).map((r) => r.id),
    );
  });

  it('answers a review file’s query as exported, thirteen conditions, as the records say', async () => {
    // Written as Create Lists writes it: one line per condition, "" padding, a bare "tag", a group as an array.
    const exported = `{"queries":[
{"target":{"record":{"type":"bib"},"id":28},"expr":{"op":"between","operands":["02-01-2027","03-15-2027"]}},
"and",
{"target":{"record":{"type":"bib"},"field":{"marcTag":"910"}},"expr":{"op":"all_fields_not_have","operands":["backstage",""]}},
"and",
{"target":{"record":{"type":"bib"},"field":{"marcTag":"856"}},"expr":{"op":"all_fields_not_have","operands":["ebrary",""]}},
"and",
{"target":{"record":{"type":"bib"},"tag":"a"},"expr":{"op":"all_fields_not_have","operands":["gobi sciences dda",""]}},
"and",
{"target":{"record":{"type":"bib"},"id":26},"expr":{"op":"all_fields_not_have","operands":["st",""]}},
"and",
{"target":{"record":{"type":"bib"},"id":31},"expr":{"op":"not_equal","operands":["n",""]}},
"and",
{"target":{"record":{"type":"bib"},"field":{"marcTag":"001"}},"expr":{"op":"all_fields_not_have","operands":["asp",""]}},
"and",
[{"target":{"record":{"type":"bib"},"field":{"marcTag":"245","ind1":"?","ind2":"?","subfields":"a"}},"expr":{"op":"has","operands":["the",""]}},
 "or",
 {"target":{"record":{"type":"bib"},"tag":"d"},"expr":{"op":"exists","operands":["",""]}}],
"and",
{"target":{"record":{"type":"bib"},"field":{"marcTag":"910"}},"expr":{"op":"all_fields_not_have","operands":["kanopy",""]}},
"and",
{"target":{"record":{"type":"bib"},"field":{"marcTag":"035"}},"expr":{"op":"all_fields_not_have","operands":["no such number",""]}},
"and",
{"target":{"record":{"type":"bib"},"id":24},"expr":{"op":"not_equal","operands":["zxx",""]}},
"and",
{"target":{"record":{"type":"bib"},"id":83},"expr":{"op":"less_than_or_equal","operands":["03-15-2027",""]}}
]}`;
    const lang = await t.testDb.db.query<{ id: string; lang: string | null; suppressed: boolean }>(
      'select id::text, lang, suppressed from bibs',
    );
    const byId = new Map(lang.map((r) => [r.id, r]));
    const lacks = (r: Bib, tags: string[], word: string) => !texts(r.marc, tags).some((v) => has(v, word));
    const want = where(
      (r) =>
        catalogued.get(r.id)! >= '2027-02-01' &&
        lacks(r, ['910'], 'backstage') &&
        lacks(r, ['856'], 'ebrary') &&
        lacks(r, ['100', '110', '111', '700', '710', '711'], 'gobi sciences dda') &&
        !located.get('st')!.has(r.id) &&
        !byId.get(r.id)!.suppressed &&
        lacks(r, ['001'], 'asp') &&
        (texts(r.marc, ['245'], 'a').some((v) => has(v, 'the')) || texts(r.marc, SUBJECTS).length > 0) &&
        lacks(r, ['910'], 'kanopy') &&
        byId.get(r.id)!.lang !== 'zxx',
    );
    assert.ok(want.length >= 2 && want.length < bibs.length, `${want.length} of ${bibs.length}`);
    assert.deepEqual(await ids(JSON.parse(exported)), want);
    // Paged, the pages join up to the same answer (the cataloguing date is answered from its index first).
    const paged: string[] = [];
    for (let offset = 0; offset < want.length; offset += 3) {
      const res = await api.send('POST', `/v6/bibs/query?offset=${offset}&limit=3`, JSON.parse(exported));
      paged.push(...res.json().entries.map((e: { link: string }) => e.link.split('/').pop()!));
    }
    assert.deepEqual(paged, want);
  });

  it('pages through more candidates of an indexed range than one slice holds, as the records say', async () => {
    // 900 copies of a record catalogued over nine days, the later copies on the earlier days (so
    // the index's order is not the ids'), a ninth of them suppressed: the range is answered from
    // its index first, then read in id order a slice at a time, the first slice holding too few
    // matches for a page of 50.
    const rows = await t.testDb.db.query<{ id: string; suppressed: boolean }>(
      `insert into bibs (marc, title, suppressed, catalog_date, created_date, updated_date)
       select marc, title, g % 9 = 0, date '2020-06-01' + (900 - g) / 100, created_date, updated_date
       from bibs, generate_series(1, 900) g where id = $1 returning id::text, suppressed`,
      [bibs[0]!.id],
    );
    const want = rows
      .filter((r) => r.suppressed)
      .map((r) => r.id)
      .sort((x, y) => Number(BigInt(x) - BigInt(y)));
    const body = { queries: [bib({ id: 28 }, 'between', ['06-01-2020', '06-09-2020']), 'and', bib({ id: 31 }, 'equals', ['n', ''])] };
    for (const [offset, limit] of [
      [0, 50],
      [40, 20],
      [90, 50],
      [0, 2000],
    ] as const) {
      const res = await api.send('POST', `/v6/bibs/query?offset=${offset}&limit=${limit}`, body);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(
        res.json().entries.map((e: { link: string }) => e.link.split('/').pop()),
        want.slice(offset, offset + limit),
        `offset ${offset}`,
      );
    }
    await t.testDb.db.query(`delete from bibs where catalog_date between date '2020-06-01' and date '2020-06-09'`);
  });

  it('refuses a malformed query with 400 code 108 naming its member', async () => {
    const ok = bib({ id: 30 }, 'equals', ['a', '']);
    for (const [body, named] of [
      [{ queries: [ok, 'and', ok, 'and', 42] }, /^queries\[4\]: must be a query/],
      [[ok, 'xor', ok], /^\[1\]: must be "and" or "or"/],
      [{ queries: [ok, 'and', [ok, 'or', bib({ id: 30 }, 'frobs', ['a'])]] }, /^queries\[2\]\[2\]\.expr\.op: must be one of/],
      [
        { queries: [ok, 'and', ok, 'or', bib({ id: 81 }, 'equals', ['ten', ''])] },
        /^queries\[4\]\.expr\.operands\[0\]: "ten" is not a number/,
      ],
      [{ queries: [ok, 'and', ok, 'or', bib({ id: 999 }, 'equals', ['a'])] }, /^queries\[4\]\.target: bib records have no fixed field 999/],
      [{ queries: [ok, 'and', bib({ id: 30 }, 'today', [])] }, /^queries\[2\]\.expr\.op: today compares dates/],
      [
        { queries: [ok, 'and', bib({ id: 28 }, 'days_ago', ['a week'])] },
        /^queries\[2\]\.expr\.operands\[0\]: days_ago takes a whole number/,
      ],
      [
        { queries: [ok, 'and', bib({ id: 28 }, 'months_ago', ['5000'])] },
        /^queries\[2\]\.expr\.operands\[0\]: months_ago takes a whole number/,
      ],
      [{ queries: [ok, 'and', bib(marcTag('245'), 'regex', ['(a)\\1', ''])] }, /^queries\[2\]\.expr\.operands\[0\]: back-references/],
      [{ queries: [ok, 'and', bib(marcTag('245'), 'regex', ['(?=a)b'])] }, /^queries\[2\]\.expr\.operands\[0\]: only \(\?: \) groups/],
      [{ queries: [ok, 'and', bib(marcTag('245'), 'regex', ['x'.repeat(201)])] }, /^queries\[2\]\.expr\.operands\[0\]: .*at most 200/],
      [{ queries: [ok, 'and', bib(marcTag('245'), 'regex', ['a{1,99}'])] }, /^queries\[2\]\.expr\.operands\[0\]: a counted repetition/],
      [{ queries: [ok, 'or', bib(marcTag('245'), 'regex', ['wa(r', ''])] }, /^queries\[2\]\.expr\.operands\[0\]: not a regular expression/],
      [bib({ tag: 'ab' }, 'has', ['x']), /^target\.tag: must be one field tag letter/],
      [bib(marcTag('245', { ind1: '12' }), 'has', ['x']), /^target\.field\.ind1: must be one character, or "\?" for any/],
      [bib(marcTag('245', { subfields: 'a$' }), 'has', ['x']), /^target\.field\.subfields/],
      [bib({ tag: 't', id: 30 }, 'has', ['x']), /^target: must name the data by exactly one/],
      [{ target: { record: { type: 'bib' }, specialField: 52 }, expr: { op: 'has', operands: ['z', ''] } }, /^target\.specialField/],
    ] as const) {
      const res = await api.send('POST', '/v6/bibs/query?offset=0&limit=10', body);
      assertRefused(res, 400, 108);
      assert.match(res.json().description, named, JSON.stringify(body));
    }
  });
});
