// Files are processed exactly once (src/files/service.ts): two claimers on the same database
// racing for one file process it once; a file whose claimer died (its lease ran out) is claimed
// again; a claimer that lost its claim cannot record an outcome; retry processes a refused file again.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { openPostgres } from '../../src/db/postgres.ts';
import type { Db } from '../../src/db/types.ts';
import { FileService, type FileProcessor } from '../../src/files/index.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';
import { marcFile } from '../helpers/shared-data.ts';

const SETTINGS = async () => ({ items: false, createMissing: false });
const EDIFACT = "UNB+UNOC:3+A+B+261129:1034+1'UNH+1+ORDRSP:D:96A:UN:EAN005'UNT+2+1'UNZ+1+1'";

describe(`processing each file once, on ${ENGINE}`, () => {
  let testDb: TestDb;
  /** A second connection pool on PostgreSQL, as a second Carrel process has; the same database on the embedded engine. */
  let other: Db;

  before(async () => {
    testDb = await createTestDb();
    other = testDb.url ? openPostgres(testDb.url, { max: 2, connectTimeoutSec: 10 }) : testDb.db;
  });
  after(async () => {
    if (other !== testDb.db) await other.close();
    await testDb.drop();
  });

  /** A processor that counts its runs and takes a while, so that the other claimer asks meanwhile. */
  const counting = () => {
    const seen: string[] = [];
    const processor: FileProcessor = async (file) => {
      seen.push(file.id);
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { status: 'refused', report: { reason: 'counted' } };
    };
    return { seen, processor };
  };

  it('two claimers racing for one file process it once', async () => {
    const a = new FileService(testDb.db, SETTINGS);
    const b = new FileService(other, SETTINGS);
    const runs = counting();
    a.register('edifact-ordrsp', runs.processor);
    b.register('edifact-ordrsp', runs.processor);
    const file = await a.receive('vendor', 'ordrsp.edi', Buffer.from(EDIFACT));
    assert.equal(file.kind, 'edifact-ordrsp');
    const claimed = await Promise.all([a.processOne(), b.processOne(), a.processOne(), b.processOne()]);
    assert.deepEqual(runs.seen, [file.id]);
    assert.equal(claimed.filter(Boolean).length, 1);
    const done = await a.get(file.id);
    assert.equal(done.status, 'refused');
    assert.deepEqual(done.report, { reason: 'counted' });
  });

  it('claims again a file whose lease ran out, and the old claimer cannot record its outcome', async () => {
    const a = new FileService(testDb.db, SETTINGS);
    const file = await a.receive('vendor', 'ordrsp2.edi', Buffer.from(EDIFACT));
    // A process that claimed it and was killed: its claim stands, its lease has run out.
    await testDb.db.query(
      "update files set status = 'processing', claim = '00000000-0000-4000-8000-000000000000', lease_until = now() - interval '1 second' where id = $1",
      [file.id],
    );
    const runs = counting();
    a.register('edifact-ordrsp', runs.processor);
    assert.equal(await a.processOne(), true);
    assert.deepEqual(runs.seen, [file.id]);
    // A claim whose lease has not run out is left alone.
    const live = await a.receive('vendor', 'ordrsp3.edi', Buffer.from(EDIFACT));
    await testDb.db.query(
      "update files set status = 'processing', claim = '00000000-0000-4000-8000-000000000001', lease_until = now() + interval '1 hour' where id = $1",
      [live.id],
    );
    assert.equal(await a.processOne(), false);
    assert.equal((await a.get(live.id)).status, 'processing');
  });

  it('marks failed, unprocessed, a file whose processing stopped 3 times before its outcome was recorded', async () => {
    const a = new FileService(testDb.db, SETTINGS);
    const runs = counting();
    a.register('edifact-ordrsp', runs.processor);
    const killed = async (id: string, times: number) =>
      testDb.db.query(
        "update files set status = 'processing', claim = '00000000-0000-4000-8000-000000000002', lease_until = now() - interval '1 second', attempts = $2 where id = $1",
        [id, times],
      );
    const twice = await a.receive('vendor', 'killed-twice.edi', Buffer.from(EDIFACT));
    await killed(twice.id, 2);
    assert.equal(await a.processOne(twice.id), true);
    assert.deepEqual(runs.seen, [twice.id]);
    const thrice = await a.receive('vendor', 'killed-thrice.edi', Buffer.from(EDIFACT));
    await killed(thrice.id, 3);
    assert.equal(await a.processOne(thrice.id), true);
    assert.deepEqual(runs.seen, [twice.id]);
    const failed = await a.get(thrice.id);
    assert.equal(failed.status, 'failed');
    assert.match((failed.report as { reason: string }).reason, /stopped 3 times before its outcome was recorded/);
    // Retried, it is processed again from a count of none.
    await a.retry(thrice.id);
    assert.equal(await a.processOne(thrice.id), true);
    assert.deepEqual(runs.seen, [twice.id, thrice.id]);
  });

  it('records as failed a file whose outcome the database refuses', async () => {
    const a = new FileService(testDb.db, SETTINGS);
    // PostgreSQL's jsonb holds no NUL character.
    a.register('edifact-ordrsp', async () => ({ status: 'loaded', report: { note: 'a\u0000b' } }));
    const file = await a.receive('vendor', 'nul.edi', Buffer.from(EDIFACT));
    assert.equal(await a.processOne(file.id), true);
    const done = await a.get(file.id);
    assert.equal(done.status, 'failed');
    assert.match((done.report as { reason: string }).reason, /its outcome could not be recorded: .*unicode/i);
  });

  it('retry processes a refused file again, with the processor registered since', async () => {
    const a = new FileService(testDb.db, SETTINGS);
    const file = await a.receive('vendor', 'ordrsp4.edi', Buffer.from(EDIFACT));
    await a.processWaiting();
    assert.deepEqual((await a.get(file.id)).report, { reason: 'EDIFACT ORDRSP processing is not available yet' });
    a.register('edifact-ordrsp', async () => ({ status: 'loaded', report: { lines: 1 } }));
    await a.retry(file.id);
    await a.processWaiting();
    const done = await a.get(file.id);
    assert.equal(done.status, 'loaded');
    await assert.rejects(() => a.retry(file.id), /only a refused or failed file is processed again/);
  });

  it('a MARC file processed again (after a kill) converges: its records replace the bibs they made', async () => {
    const a = new FileService(testDb.db, SETTINGS);
    const bytes = fs.readFileSync(marcFile('brkrtest.mrc'));
    const count = async () => (await testDb.db.query<{ n: number }>('select count(*)::int as n from bibs'))[0]!.n;
    const first = await a.receive('library', 'brkrtest.mrc', bytes);
    await a.processWaiting();
    const created = (await a.get(first.id)).report as { created: number; updated: number };
    assert.ok(created.created > 0);
    const bibs = await count();
    const second = await a.receive('library', 'brkrtest.mrc', bytes);
    await a.processWaiting();
    assert.deepEqual((await a.get(second.id)).report, { ...created, created: 0, updated: created.created });
    assert.equal(await count(), bibs);
  });
});
