// Refused requests (401, 403, 429) write a log line each up to a number a minute per client
// address; the rest are counted and the count told on a later line: a flood of refused requests
// cannot fill the log. Answers other than refusals are logged one each, as always.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';

describe(`log lines of refused requests on ${ENGINE}`, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const requestLines = () => t.logs.filter((line) => line.msg === 'request' && line.url === '/v6/bibs');

  it('writes twenty refusals a minute from one address, then counts the rest', async () => {
    for (let i = 0; i < 100; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/v6/bibs', remoteAddress: '192.0.2.7' });
      assert.equal(res.statusCode, 401);
    }
    assert.equal(requestLines().length, 20);
    // Another address has lines of its own.
    await t.app.inject({ method: 'GET', url: '/v6/bibs', remoteAddress: '192.0.2.8' });
    assert.equal(requestLines().length, 21);
    // Answers that are not refusals are not sampled.
    for (let i = 0; i < 30; i++) await t.app.inject({ method: 'GET', url: '/api', remoteAddress: '192.0.2.7' });
    assert.equal(t.logs.filter((line) => line.msg === 'request' && line.url === '/api').length, 30);
  });
});
