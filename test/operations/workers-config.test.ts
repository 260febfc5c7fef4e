// CARREL_WORKERS as read: one per core on PostgreSQL, one on the embedded engine (where more is
// refused at start), pools shared out among many workers; and the back-off between a slot's
// restarts. The workers themselves run in test/e2e/workers.test.ts.
import assert from 'node:assert/strict';
import os from 'node:os';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { restartDelayMs } from '../../src/operations/workers.ts';

const PG = { DATABASE_URL: 'postgres://carrel@localhost/carrel' };

describe('CARREL_WORKERS', () => {
  it('is the cores on PostgreSQL and 1 on the embedded engine', () => {
    assert.equal(loadConfig(PG).workers, os.availableParallelism());
    assert.equal(loadConfig({}).workers, 1);
    assert.equal(loadConfig({ ...PG, CARREL_WORKERS: '3' }).workers, 3);
    assert.equal(loadConfig({ CARREL_WORKERS: '1' }).workers, 1);
  });

  it('refuses more than one on the embedded engine, and what is not a count', () => {
    assert.throws(
      () => loadConfig({ CARREL_WORKERS: '2' }),
      (e: Error) => e instanceof ConfigError && /embedded engine/.test(e.message),
    );
    assert.throws(() => loadConfig({ ...PG, CARREL_WORKERS: '0' }), ConfigError);
    assert.throws(() => loadConfig({ ...PG, CARREL_WORKERS: 'many' }), ConfigError);
  });

  it('shares the pools out among many workers, unless they are set', () => {
    const sixteen = loadConfig({ ...PG, CARREL_WORKERS: '16' });
    assert.deepEqual([sixteen.dbPoolMax, sixteen.dbSearchPoolMax], [3, Math.ceil(os.availableParallelism() / 16)]);
    assert.equal(loadConfig({ ...PG, CARREL_WORKERS: '2' }).dbPoolMax, 10);
    assert.equal(loadConfig({ ...PG, CARREL_WORKERS: '16', CARREL_DB_POOL_MAX: '20' }).dbPoolMax, 20);
  });
});

describe('restarts of a worker', () => {
  it('start at once after a healthy run, then wait twice as long each time up to a minute', () => {
    assert.deepEqual([0, 1, 2, 3, 7, 8, 20].map(restartDelayMs), [0, 1000, 2000, 4000, 60_000, 60_000, 60_000]);
  });
});
