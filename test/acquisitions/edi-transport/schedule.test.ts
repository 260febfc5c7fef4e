// The scheduled send and fetch: one process at a time. While another session holds the lock, a
// run does nothing; once it is free, a run goes ahead. (Embedded PGlite has one server process,
// whose clients share one session: there the lock is always given.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LOCK_KEYS } from '../../../src/db/lock-keys.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { ENGINE } from '../../helpers/db.ts';

describe(`the scheduled EDI run on ${ENGINE}`, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t?.close());

  it(
    'skips its turn while another process runs it',
    { skip: ENGINE !== 'postgres' && 'needs sessions of their own (PostgreSQL)' },
    async () => {
      const release = await t.testDb.db.tryLock(LOCK_KEYS.ediTransport);
      assert.ok(release);
      try {
        assert.equal(await t.services.ediTransport.scheduled(), undefined);
      } finally {
        await release();
      }
      assert.deepEqual(await t.services.ediTransport.scheduled(), { sent: [], fetched: [] });
    },
  );
});
