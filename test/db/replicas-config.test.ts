// DATABASE_READ_URLS and CARREL_REPLICA_MAX_LAG_MS as read, and WAL positions as compared. The
// replicas themselves serve reads in test/e2e/read-replicas.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { parseLsn, safeName } from '../../src/db/replicas.ts';

const PG = { DATABASE_URL: 'postgres://carrel@localhost/carrel' };

describe('DATABASE_READ_URLS', () => {
  it('is none by default, and each comma-separated replica otherwise', () => {
    assert.deepEqual(loadConfig(PG).databaseReadUrls, []);
    assert.deepEqual(loadConfig({ ...PG, DATABASE_READ_URLS: ' postgres://r1/carrel , postgresql://r2:5433/carrel' }).databaseReadUrls, [
      'postgres://r1/carrel',
      'postgresql://r2:5433/carrel',
    ]);
    assert.equal(loadConfig(PG).replicaMaxLagMs, 1000);
    assert.equal(loadConfig({ ...PG, CARREL_REPLICA_MAX_LAG_MS: '250' }).replicaMaxLagMs, 250);
  });

  it('refuses replicas without a primary, empty entries, other schemes and a host parameter that is no socket directory', () => {
    const refused = (env: Record<string, string>, pattern: RegExp) =>
      assert.throws(
        () => loadConfig(env),
        (e: Error) => e instanceof ConfigError && pattern.test(e.message),
      );
    refused({ DATABASE_READ_URLS: 'postgres://r1/carrel' }, /set DATABASE_URL too/);
    refused({ ...PG, DATABASE_READ_URLS: 'postgres://r1/carrel,,postgres://r2/carrel' }, /empty entry \(number 2\)/);
    refused({ ...PG, DATABASE_READ_URLS: 'mysql://r1/carrel' }, /entry number 1 must start with postgres:/);
    refused({ ...PG, DATABASE_READ_URLS: 'postgres://r1/carrel?host=r2' }, /entry number 1's host parameter must be a socket directory/);
    refused({ ...PG, CARREL_REPLICA_MAX_LAG_MS: 'soon' }, /CARREL_REPLICA_MAX_LAG_MS must be a whole number/);
  });
});

describe('WAL positions', () => {
  it('compare as PostgreSQL orders them', () => {
    assert.equal(parseLsn('0/0'), 0n);
    assert.equal(parseLsn('16/B374D848'), (0x16n << 32n) + 0xb374d848n);
    assert.ok(parseLsn('1/0') > parseLsn('0/FFFFFFFF'));
    assert.ok(parseLsn('0/A0') > parseLsn('0/9F'));
  });

  it('name a replica without its password', () => {
    assert.equal(safeName('postgres://reader:s3cret@r1:5433/carrel'), 'postgres://reader@r1:5433/carrel');
  });
});
