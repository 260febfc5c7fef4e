// Every operation of /v6/openapi.json, driven with generated valid and invalid requests (fast-check
// arbitraries from the operation's JSON Schemas: test/helpers/fuzz.ts) on a small seeded library.
// Every answer: below 500, a status the operation documents, an error in the one error shape; a
// refused request (4xx) leaves the row count of every table as it was. Deterministic: a fixed seed
// (FUZZ_SEED overrides it) and FUZZ_RUNS requests per operation and kind (valid, spoiled).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { loadGenerated } from '../../src/generate/load.ts';
import { GENERATED_PIN } from '../../src/generate/patrons.ts';
import { caller, create } from '../helpers/api.ts';
import { setUpAcquisitions } from '../helpers/acquisitions.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import {
  operationsOf,
  spoiledPlan,
  toRequest,
  validPlan,
  type FuzzRequest,
  type Library,
  type OpenApiDocument,
  type Operation,
} from '../helpers/fuzz.ts';
import { bearer } from '../helpers/tokens.ts';
import { ErrorBodySchema } from '../../src/http/schemas.ts';
import { readXmlTree, valueFromXml } from '../../src/shared/xml/index.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261102);
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const ERROR_MEMBERS = new Set(['code', 'specificCode', 'httpStatus', 'name', 'description']);
// Failed PIN validations are counted on purpose, by the very requests that are refused (README "Patrons").
const WRITTEN_WHEN_REFUSED = new Set(['patron_validation_failures']);

/** An error body as XML (an XML client's error: src/http/xml-answers.ts) read into its JSON form. */
function xmlError(xml: string): unknown {
  const tree = readXmlTree(xml);
  return tree.name === 'error' ? valueFromXml(tree, ErrorBodySchema, new Map()) : undefined;
}

describe(`fuzz of every operation on ${ENGINE} (seed ${SEED}, ${RUNS} runs)`, () => {
  let t: TestApp;
  let auth: string;
  let ops: Operation[];
  let lib: Library;
  let countRows: () => Promise<Map<string, number>>;

  before(async () => {
    console.log(`fuzz: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}`);
    t = await createTestApp();
    const db = t.testDb.db;
    auth = await bearer(t, ['all']);
    // A small library: generated bibs with items, patrons with PINs and holds; funds, vendors, use
    // tax codes, an invoice with lines, a checkout.
    await loadGenerated(db, { seed: 7, bibs: 40, patrons: 12, holds: 20, today: '2026-11-02', rules: { holdLimit: 50, holdMonths: 3 } });
    const api = caller(t, auth);
    const { vendorId } = await setUpAcquisitions(api);
    await create(api, '/v6/invoices', {
      invNum: 'INV-1',
      invDate: '2026-10-01',
      vendorCode: 'ebsco',
      useTaxCode: 'a',
      lineItems: [
        { fund: 'books', amount: '12.50', quantity: 2 },
        { fund: 'serials', amount: '99.99' },
      ],
    });
    const column = async (sql: string) => (await db.query<{ v: string }>(sql)).map((r) => r.v);
    const [patron] = await column('select id::text as v from patrons order by id limit 1');
    const [item] = await column(`select id::text as v from items where status = '-' order by id limit 1`);
    assert.equal((await api.send('POST', `/v6/patrons/${patron}/checkouts`, { itemId: item })).statusCode, 200);
    const key = await t.services.auth.createKey('fuzz token', ['Bibs_Read']);
    lib = {
      bibs: await column('select id::text as v from bibs order by id'),
      items: await column('select id::text as v from items order by id'),
      itemBarcodes: await column('select barcode as v from items where barcode is not null order by id'),
      patrons: await column('select id::text as v from patrons order by id'),
      patronBarcodes: await column('select barcode as v from patron_barcodes order by barcode'),
      holds: await column('select id::text as v from holds order by id'),
      invoices: await column('select id::text as v from invoices order by id'),
      lines: await column('select id::text as v from invoice_lines order by id'),
      vendors: [vendorId],
      vendorCodes: await column('select code as v from vendors order by code'),
      funds: await column('select code as v from funds order by code'),
      useTax: await column('select code as v from use_tax_codes order by code'),
      locations: await column('select code as v from locations order by code'),
      pin: GENERATED_PIN,
      basic: `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}`,
    };
    // One statement counts every table's rows (exactly: statistics lag behind).
    const tables = await column(`select tablename as v from pg_tables where schemaname = current_schema() order by tablename`);
    assert.ok(tables.length > 20, `tables: ${tables.join(', ')}`);
    const sql = tables.map((name) => `select '${name}' as t, count(*)::int as n from ${name}`).join(' union all ');
    countRows = async () => new Map((await db.query<{ t: string; n: number }>(sql)).map((r) => [r.t, Number(r.n)]));
    const doc = (await t.app.inject({ method: 'GET', url: '/v6/openapi.json' })).json<OpenApiDocument>();
    // Writes that remove records go last, so the others meet the seeded records.
    const rank = (op: Operation) => (op.method === 'DELETE' ? 1 : 0);
    ops = operationsOf(doc).sort((a, b) => rank(a) - rank(b));
  });
  after(() => t?.close());

  /** What is wrong with an answer, or undefined. */
  function problem(op: Operation, req: FuzzRequest, res: { statusCode: number; body: string; headers: Record<string, unknown> }) {
    const status = res.statusCode;
    if (status >= 500) return `status ${status}`;
    if (!op.responses.has(status)) return `status ${status} not documented (${[...op.responses].join(', ')})`;
    if (status < 400) return undefined;
    const type = String(res.headers['content-type']);
    const xml = /^(application|text)\/xml/.test(type);
    if (!xml && !/^application\/json/.test(type)) return `error as ${type}`;
    let body: any;
    try {
      body = xml ? xmlError(res.body) : JSON.parse(res.body);
    } catch {
      return `error body is not ${xml ? 'XML' : 'JSON'}`;
    }
    const shaped =
      body !== null &&
      typeof body === 'object' &&
      Object.keys(body).every((k) => ERROR_MEMBERS.has(k)) &&
      Number.isInteger(body.code) &&
      Number.isInteger(body.specificCode) &&
      body.httpStatus === status &&
      typeof body.name === 'string' &&
      (body.description === undefined || typeof body.description === 'string');
    return shaped ? undefined : 'error body not in the error shape';
  }

  /** Sends each request; answers the problems found, one line each (the first of each kind). */
  async function drive(op: Operation, requests: FuzzRequest[]): Promise<string[]> {
    const found = new Map<string, string>();
    let rows = await countRows();
    for (const req of requests) {
      const res = await t.app.inject({ method: req.method, url: req.url, headers: req.headers, payload: req.payload });
      const now = await countRows();
      let wrong = problem(op, req, res);
      if (!wrong && res.statusCode >= 400) {
        const changed = [...now].filter(([table, n]) => !WRITTEN_WHEN_REFUSED.has(table) && rows.get(table) !== n).map(([table]) => table);
        if (changed.length > 0) wrong = `refused with ${res.statusCode} but changed the rows of ${changed.join(', ')}`;
      }
      rows = now;
      if (!wrong) continue;
      const kind = `${wrong} [${req.spoiled ?? 'valid'}]`;
      if (!found.has(kind)) {
        const payload = req.payload === undefined ? '' : ` ${JSON.stringify(req.payload.slice(0, 200))}`;
        found.set(kind, `${kind}: ${req.method} ${req.url.slice(0, 200)}${payload} -> ${res.body.slice(0, 300)}`);
      }
    }
    return [...found.values()];
  }

  it('refuses every secured operation without a token, with a broken one, and without the permission', async () => {
    const limited = await bearer(t, ['Patrons_Validate']);
    const problems: string[] = [];
    for (const op of ops.filter((o) => o.secured)) {
      const [plan] = fc.sample(validPlan(op, lib, auth), { seed: SEED, numRuns: 1 });
      const req = toRequest(op, plan!);
      for (const [authorization, expected, code] of [
        [undefined, 401, 113],
        ['Bearer not-a-token', 401, 120],
        [limited, 403, 116],
      ] as const) {
        if (op.id === 'POST /v6/patrons/validate' || op.id === 'POST /v6/patrons/auth') {
          if (expected === 403) continue; // the limited key has exactly this permission
        }
        if (op.id === 'GET /v6/info/token' && expected === 403) continue; // any token may read itself
        const headers = { ...req.headers };
        if (authorization === undefined) delete headers.authorization;
        else headers.authorization = authorization;
        const before = await countRows();
        const res = await t.app.inject({ method: req.method, url: req.url, headers, payload: req.payload });
        const wrong = problem(op, req, res);
        if (wrong) problems.push(`${op.id} (${authorization ?? 'no token'}): ${wrong}`);
        else if (res.statusCode !== expected || res.json().code !== code) {
          problems.push(`${op.id} (${authorization ?? 'no token'}): ${res.statusCode} ${res.body}, not ${expected} code ${code}`);
        }
        assert.deepEqual(await countRows(), before, `${op.id}: nothing written`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('answers every operation within its documented statuses, never 5xx, and writes nothing when it refuses', async (c) => {
    assert.ok(ops.length >= 50, `${ops.length} operations`);
    for (const [i, op] of ops.entries()) {
      await c.test(op.id, async () => {
        const seed = SEED + i; // each operation its own stream, all from the one seed
        const valid = fc.sample(validPlan(op, lib, auth), { seed, numRuns: RUNS }).map((plan) => toRequest(op, plan));
        const spoiled = fc.sample(spoiledPlan(op, lib, auth), { seed, numRuns: RUNS }).map((plan) => toRequest(op, plan));
        const problems = await drive(op, [...valid, ...spoiled]);
        assert.deepEqual(problems, [], `${op.id}: ${problems.length} kinds of problem (FUZZ_SEED=${SEED})`);
      });
    }
  });
});
