// An unexpected database error in a patron write: the log gets the error's type, code, message and
// stack, never the statement's parameters (names, PIN hashes) nor the failing row.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { caller, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

describe(`database errors in patron writes on ${ENGINE}`, () => {
  let t: TestApp;
  let writer: Caller;
  before(async () => {
    t = await createTestApp();
    writer = caller(t, await bearer(t, ['Patrons_Write']));
    // Forces a failure the service does not expect, after the PIN has been hashed.
    await t.testDb.db.query("alter table patrons add constraint forced_failure check (not ('Quimby, Quentin' = any(names)))");
  });
  after(() => t.close());

  it('logs the error without parameters, query or failing row', async () => {
    const res = await writer.send('POST', '/v6/patrons', {
      names: ['Quimby, Quentin'],
      barcodes: ['29990001'],
      pin: 'Secret-pin-8841',
      emails: ['quentin@example.org'],
    });
    assert.equal(res.statusCode, 500, res.body);
    const line = t.logs.find((l) => l.msg === 'unexpected error');
    assert.ok(line, 'the error is logged');
    const err = line.err as Record<string, unknown>;
    assert.ok(String(err.message).includes('forced_failure'), 'the message is logged');
    assert.ok(err.stack, 'the stack is logged');
    assert.equal(err.code, '23514');
    const log = t.logText();
    for (const secret of ['Quimby', 'Secret-pin-8841', 'scrypt$', 'quentin@example.org', '29990001'])
      assert.ok(!log.includes(secret), `${secret} logged`);
  });
});
