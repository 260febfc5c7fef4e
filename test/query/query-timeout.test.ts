// A JSON query that runs past CARREL_QUERY_TIMEOUT_MS is refused (issue 33, finding 4), on the
// server's own database: PostgreSQL ends the statement itself; the embedded engine, which cannot
// interrupt one, is started again a second later. Either way the server answers the next request.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp, type BuiltApp } from '../../src/app.ts';
import { importFiles } from '../../src/bibs/import.ts';
import { loadConfig } from '../../src/config.ts';
import { openServerDb } from '../../src/db/open.ts';
import type { Db } from '../../src/db/types.ts';
import { assertRefused } from '../helpers/api.ts';
import { captureLogs } from '../helpers/app.ts';
import { createTestDb, ENGINE, seedPgliteDataDir, type TestDb } from '../helpers/db.ts';
import { chunks } from '../helpers/shared-data.ts';
import { bearer } from '../helpers/tokens.ts';

/**
 * Copies of the records read from the shared data: enough that each query below runs for several
 * seconds (about 5 s here for the lighter one), well past the embedded engine's cut-off, which
 * comes a second after the time-out.
 */
const COPIES = 3000;

describe(`a JSON query past its time-out on ${ENGINE}`, () => {
  let dataDir: string | undefined;
  let testDb: TestDb | undefined;
  let db: Db;
  let built: BuiltApp;
  let token: string;

  before(async () => {
    const settings = { LOG_LEVEL: 'info', CARREL_QUERY_TIMEOUT_MS: '100' };
    if (ENGINE === 'pglite') {
      // The server's engine, in its own thread: the one a statement past its time-out is ended on.
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-query-timeout-'));
      await seedPgliteDataDir(dataDir);
      db = await openServerDb(loadConfig({ ...settings, CARREL_DATA_DIR: dataDir }));
    } else {
      testDb = await createTestDb();
      db = testDb.db;
    }
    await importFiles(db, [{ name: 'brkrtest.mrc', open: () => chunks('brkrtest.mrc') }]);
    await db.query(
      `insert into bibs (marc, title, created_date, updated_date)
       select marc, title, created_date, updated_date from bibs, generate_series(1, $1::integer)`,
      [COPIES],
    );
    const { stream } = captureLogs();
    built = await buildApp({ config: loadConfig(settings), db, logStream: stream });
    built.state.schemaReady = true;
    token = await bearer(built, ['Bibs_Read']);
  });
  after(async () => {
    await built?.app.close();
    if (testDb) await testDb.drop();
    else await db?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const query = (body: object) =>
    built.app.inject({ method: 'POST', url: '/v6/bibs/query?offset=0&limit=10', headers: { authorization: token }, payload: body });

  it('refuses a query that runs past the time-out, and answers the next', async () => {
    // Within every limit of its shape: ten MARC scans, each of every field with a hundred values.
    const scans = Array.from({ length: 10 }, (_, i) => ({
      target: { record: { type: 'bib' }, field: { marcTag: String(500 + i * 10) } },
      expr: { op: 'in', operands: Array.from({ length: 100 }, (_, j) => `no such words ${i} ${j}`) },
    }));
    const res = await query({ queries: scans.flatMap((part, i) => (i === 0 ? [part] : ['or', part])) });
    assert.equal(res.statusCode, 400, res.body);
    assertRefused(res, 400, 132, 0);
    assert.match(res.json().description, /ran longer than 0\.1 s/);
    const next = await query({ target: { record: { type: 'bib' }, id: 31 }, expr: { op: 'exists', operands: [] } });
    assert.equal(next.statusCode, 200, next.body);
    assert.ok(next.json().entries.length > 0);
  });

  it('refuses regular expressions and field groups past the time-out too, as Create Lists writes them', async () => {
    // Ten MARC scans by bare tags and MARC tags, each a regular expression of a hundred words.
    const words = Array.from({ length: 40 }, (_, j) => `zq${j}`).join('|');
    const scans = Array.from({ length: 10 }, (_, i) => ({
      target: { record: { type: 'bib' }, ...(i % 2 ? { tag: 'tandnds'[i % 7] } : { field: { marcTag: String(500 + i * 10), ind1: '?' } }) },
      expr: { op: i % 3 ? 'regex' : 'at_least_one_field_not_have', operands: [i % 3 ? `(${words})$` : 'zzz', ''] },
    }));
    const res = await query([scans[0], 'and', scans.slice(1).flatMap((part, i) => (i === 0 ? [part] : ['or', part]))]);
    assertRefused(res, 400, 132, 0);
    const next = await query([{ target: { record: { type: 'bib' }, id: 31 }, expr: { op: 'exists', operands: ['', ''] } }]);
    assert.equal(next.statusCode, 200, next.body);
    assert.ok(next.json().entries.length > 0);
  });
});
