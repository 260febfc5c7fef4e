// A JSON query's cost is bounded by its shape before any statement runs (issue 33, finding 4): a
// query past the limits on its conditions, its values in all or its MARC scans is refused 400 code
// 108 naming the part that passes the limit, and nothing is sent to the database for it; a query
// just within them runs and answers as the records say.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp, type BuiltApp } from '../../src/app.ts';
import { importFiles } from '../../src/bibs/import.ts';
import { loadConfig } from '../../src/config.ts';
import { parseQuery } from '../../src/query/parse.ts';
import { querySql } from '../../src/query/repository.ts';
import type { MarcInJson } from '../../src/marc/marc-in-json.ts';
import { assertRefused } from '../helpers/api.ts';
import { captureLogs } from '../helpers/app.ts';
import { setUpLibrary } from '../helpers/circulation.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';
import { recording } from '../helpers/recording-db.ts';
import { chunks } from '../helpers/shared-data.ts';
import { bearer } from '../helpers/tokens.ts';

const marc = (tag: string, op: string, operands: string[]) => ({
  target: { record: { type: 'bib' }, field: { marcTag: tag } },
  expr: { op, operands },
});
const byId = (op: string, operands: string[]) => ({ target: { record: { type: 'bib' }, id: 81 }, expr: { op, operands } });
const fillers = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix} no such value ${i}`);
const anyOf = (parts: object[]) => ({ queries: parts.flatMap((part, i) => (i === 0 ? [part] : ['or', part])) });

/** The statements of a JSON query: they read the bibs table under its alias. */
const isQueryStatement = (text: string) => /\bfrom bibs b\b/.test(text);

describe(`JSON query limits on ${ENGINE}`, () => {
  const config = loadConfig({ LOG_LEVEL: 'info' });
  let testDb: TestDb;
  let built: BuiltApp;
  let token: string;
  let title: { text: string; ids: string[] };
  const sent: string[] = [];

  async function post(body: unknown) {
    sent.length = 0;
    const res = await built.app.inject({
      method: 'POST',
      url: '/v6/bibs/query?offset=0&limit=2000',
      headers: { authorization: token },
      payload: body as object,
    });
    return { res, sent: sent.filter(isQueryStatement) };
  }

  before(async () => {
    testDb = await createTestDb();
    await setUpLibrary(testDb.db);
    for (const file of ['brkrtest.mrc', 'pride-and-prejudice-fixed.mrc'])
      await importFiles(testDb.db, [{ name: file, open: () => chunks(file) }]);
    const { stream } = captureLogs();
    built = await buildApp({ config, db: recording(testDb.db, sent), logStream: stream });
    built.state.schemaReady = true;
    token = await bearer(built, ['Bibs_Read']);
    // A title the records hold (a 245's subfields joined by spaces), and the bibs holding it.
    const bibs = await testDb.db.query<{ id: string; marc: MarcInJson }>('select id::text, marc from bibs order by id');
    const text = (m: MarcInJson) =>
      m.fields
        .flatMap((f) => Object.entries(f))
        .flatMap(([tag, v]) =>
          tag === '245' && typeof v !== 'string'
            ? [
                v.subfields
                  .flatMap((s) => Object.values(s))
                  .join(' ')
                  .trim()
                  .toLowerCase(),
              ]
            : [],
        );
    const wanted = text(bibs[0]!.marc)[0]!;
    title = { text: wanted.toUpperCase(), ids: bibs.filter((b) => text(b.marc).includes(wanted)).map((b) => b.id) };
  });
  after(async () => {
    await built?.app.close();
    await testDb?.drop();
  });

  it('refuses the finding’s query (2 × 1,000 values on a MARC tag) naming its second part, sending nothing', async () => {
    const { res, sent } = await post({ queries: [marc('245', 'in', fillers(1000, 'a')), 'or', marc('245', 'in', fillers(1000, 'b'))] });
    assertRefused(res, 400, 108);
    assert.match(res.json().description, /^queries\[2\]\.expr\.operands: .*\b1000\b/);
    assert.deepEqual(sent, []);
  });

  it('runs a query just within every limit: 100 conditions, 10 of them MARC scans, 1,000 values in all', async () => {
    // Ten MARC conditions (one an "in" of 901 values holding the title), ninety on the record number.
    const parts = [
      marc('245', 'in', [...fillers(450, 'c'), title.text, ...fillers(450, 'd')]),
      ...Array.from({ length: 9 }, (_, i) => marc('245', 'equals', [`no such title ${i}`])),
      ...Array.from({ length: 90 }, () => byId('equals', ['1'])),
    ];
    const { res, sent } = await post(anyOf(parts));
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(
      res.json().entries.map((e: { link: string }) => e.link.split('/').pop()),
      title.ids,
    );
    assert.ok(title.ids.length >= 1);
    assert.ok(sent.length >= 1, 'the query was sent');
  });

  it('refuses one value, one condition or one MARC scan more, naming the part that passes the limit', async () => {
    const within = [
      marc('245', 'in', fillers(901, 'e')),
      ...Array.from({ length: 9 }, (_, i) => marc('245', 'equals', [`no such title ${i}`])),
      ...Array.from({ length: 90 }, () => byId('equals', ['1'])),
    ];
    const cases: [object[], RegExp][] = [
      // 1,001 values: the last condition passes the limit.
      [[...within.slice(0, 99), byId('in', ['1', '2'])], /^queries\[198\]\.expr\.operands: .*\b1000\b/],
      // 101 conditions (the last with no value).
      [
        [...within, { target: { record: { type: 'bib' }, id: 30 }, expr: { op: 'exists', operands: [] } }],
        /^queries\[200\]\.expr: .*\b100\b/,
      ],
      // 11 MARC scans: the eleventh, at position 10, passes.
      [[...within.slice(0, 10), marc('650', 'exists', []), ...within.slice(11)], /^queries\[20\]\.expr: .*\b10\b.*MARC/],
    ];
    for (const [parts, where] of cases) {
      const { res, sent } = await post(anyOf(parts));
      assertRefused(res, 400, 108);
      assert.match(res.json().description, where);
      assert.deepEqual(sent, []);
    }
    // An expression list under one MARC target is a scan per expression.
    const { res } = await post({
      target: { record: { type: 'bib' }, field: { tag: 't' } },
      expr: Array.from({ length: 11 }, (_, i) => ({ op: 'has', operands: [`w${i}`] })).flatMap((e, i) => (i === 0 ? [e] : ['or', e])),
    });
    assertRefused(res, 400, 108);
    assert.match(res.json().description, /^expr\[20\]: .*MARC/);
  });

  it('counts Create Lists’ constructs against the same limits, sending nothing past them', async () => {
    const tag = (op: string, operands: string[]) => ({ target: { record: { type: 'bib' }, tag: 't' }, expr: { op, operands } });
    const ors = (parts: unknown[]) => parts.flatMap((part, i) => (i === 0 ? [part] : ['or', part]));
    let nested: unknown = byId('equals', ['1']);
    for (let i = 0; i < 17; i++) nested = [nested];
    const cases: [unknown, RegExp][] = [
      // A plain array as the body, eleven MARC scans by a bare tag: the eleventh passes the limit.
      [ors(Array.from({ length: 11 }, (_, i) => tag('regex', [`^w${i}`]))), /^\[20\]\.expr: .*\b10\b.*MARC/],
      [
        { queries: ors(Array.from({ length: 11 }, (_, i) => marc('650', 'at_least_one_field_not_have', [`w${i}`]))) },
        /^queries\[20\]\.expr: .*MARC/,
      ],
      // Groups as arrays nest no deeper than other groups.
      [nested, /nests more than 16 deep/],
      // A pattern that would not match in linear time is refused as it is read.
      [marc('245', 'regex', ['(a*)*\\1']), /^expr\.operands\[0\]: back-references/],
      [marc('245', 'regex', [`(${'a|'.repeat(120)}b)`]), /^expr\.operands\[0\]: .*at most 200 characters/],
    ];
    for (const [body, where] of cases) {
      const { res, sent } = await post(body);
      assertRefused(res, 400, 108);
      assert.match(res.json().description, where);
      assert.deepEqual(sent, []);
    }
  });

  it('plans an "in" on a MARC field as one pass over each record’s fields, whatever the number of values', async () => {
    // The database's plan for the statement: a pass that repeats per value shows as a subplan per value.
    const plan = async (n: number) => {
      const { sql, params } = querySql('bib', parseQuery(marc('245', 'in', fillers(n, 'f')), config.queryLimits), 50, 0);
      const rows = await testDb.db.query<Record<string, string>>(`explain (costs off) ${sql}`, params);
      return rows.map((row) => Object.values(row)[0]!).filter((line) => /SubPlan|InitPlan/.test(line)).length;
    };
    const [two, many] = [await plan(2), await plan(1000)];
    assert.ok(two >= 1);
    assert.equal(many, two);
  });
});

describe(`JSON query limits set by the library on ${ENGINE}`, () => {
  it('reads CARREL_QUERY_MAX_PARTS, _MAX_OPERANDS and _MAX_MARC_SCANS', async () => {
    const testDb = await createTestDb();
    const { stream } = captureLogs();
    const built = await buildApp({
      config: loadConfig({
        LOG_LEVEL: 'info',
        CARREL_QUERY_MAX_PARTS: '3',
        CARREL_QUERY_MAX_OPERANDS: '4',
        CARREL_QUERY_MAX_MARC_SCANS: '1',
      }),
      db: testDb.db,
      logStream: stream,
    });
    built.state.schemaReady = true;
    try {
      const key = await built.services.auth.createKey('query limits', ['Bibs_Read'], 0);
      const auth = await built.app.inject({
        method: 'POST',
        url: '/v6/token',
        headers: { authorization: `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}` },
      });
      const send = (body: object) =>
        built.app.inject({
          method: 'POST',
          url: '/v6/bibs/query',
          headers: { authorization: `Bearer ${auth.json().access_token as string}` },
          payload: body,
        });
      assert.equal((await send(anyOf([byId('in', ['1', '2']), byId('equals', ['3']), marc('245', 'equals', ['x'])]))).statusCode, 200);
      for (const [body, where] of [
        [anyOf([byId('in', ['1', '2']), byId('in', ['3', '4', '5'])]), /^queries\[2\]\.expr\.operands: .*\b4\b/],
        [
          anyOf([byId('equals', ['1']), byId('equals', ['2']), byId('equals', ['3']), byId('equals', ['4'])]),
          /^queries\[6\]\.expr: .*\b3\b/,
        ],
        [anyOf([marc('245', 'equals', ['x']), marc('100', 'equals', ['y'])]), /^queries\[2\]\.expr: .*\b1\b.*MARC/],
      ] as const) {
        const res = await send(body);
        assertRefused(res, 400, 108);
        assert.match(res.json().description, where);
      }
    } finally {
      await built.app.close();
      await testDb.drop();
    }
  });
});
