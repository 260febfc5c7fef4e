// Idempotency-Key on writes: a retry gets the first answer and the write runs once, per API key;
// the same key with another request is refused; concurrent retries run once; a refusal is kept too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

describe(`Idempotency-Key on ${ENGINE}`, () => {
  let t: TestApp;
  let writer: string;
  let other: string;
  before(async () => {
    t = await createTestApp();
    writer = await bearer(t, ['Patrons_Write']);
    other = await bearer(t, ['Patrons_Write']);
  });
  after(() => t.close());

  const post = (token: string, key: string | undefined, body: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/v6/patrons',
      headers: { authorization: token, 'content-type': 'application/json', ...(key !== undefined && { 'idempotency-key': key }) },
      payload: JSON.stringify(body),
    });
  const named = async (name: string) =>
    Number((await t.testDb.db.query<{ n: string }>('select count(*) as n from patrons where $1 = any(names)', [name]))[0]!.n);

  it('runs a write once and answers its retries with the first answer', async () => {
    const body = { names: ['Retry, Ruth'], barcodes: ['idem-1'] };
    const first = await post(writer, 'k-1', body);
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const again = await post(writer, 'k-1', body);
    assert.equal(again.statusCode, 200);
    assert.equal(again.body, first.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.match(String(again.headers['content-type']), /^application\/json/);
    assert.equal(await named('Retry, Ruth'), 1);
    // Without a key, the same request is a new write (here refused: the barcode is taken).
    assert.notEqual((await post(writer, undefined, body)).statusCode, 200);
  });

  it('keys belong to an API key: another key with the same Idempotency-Key is another write', async () => {
    assert.equal((await post(writer, 'shared', { names: ['Scope, Sam'], barcodes: ['idem-2'] })).statusCode, 200);
    assert.equal((await post(other, 'shared', { names: ['Scope, Sam'], barcodes: ['idem-3'] })).statusCode, 200);
    assert.equal(await named('Scope, Sam'), 2);
  });

  it('refuses the same key with another request, 422, writing nothing', async () => {
    assert.equal((await post(writer, 'k-2', { names: ['First, Fay'], barcodes: ['idem-4'] })).statusCode, 200);
    const reused = await post(writer, 'k-2', { names: ['Second, Sid'], barcodes: ['idem-5'] });
    assert.equal(reused.statusCode, 422);
    assert.equal(reused.json().code, 132);
    assert.match(reused.json().description, /different request/);
    assert.equal(await named('Second, Sid'), 0);
  });

  it('keeps a refusal too: the retry is refused the same way', async () => {
    const taken = { names: ['Taken, Tom'], barcodes: ['idem-1'] };
    const first = await post(writer, 'k-3', taken);
    assert.ok(first.statusCode >= 400 && first.statusCode < 500, first.body);
    const again = await post(writer, 'k-3', taken);
    assert.equal(again.statusCode, first.statusCode);
    assert.equal(again.body, first.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(await named('Taken, Tom'), 0);
  });

  it('runs once when the same request is sent several times at once', async () => {
    const body = { names: ['Burst, Bea'], barcodes: ['idem-6'] };
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(writer, 'k-4', body)));
    for (const answer of answers) {
      assert.equal(answer.statusCode, 200, answer.body);
      assert.equal(answer.body, answers[0]!.body);
    }
    assert.equal(answers.filter((a) => a.headers['idempotent-replayed'] === 'true').length, 4);
    assert.equal(await named('Burst, Bea'), 1);
  });

  it('answers a DELETE retried after it succeeded with its first answer, not 404', async () => {
    const created = await post(writer, undefined, { names: ['Gone, Gil'], barcodes: ['idem-7'] });
    const id = String(created.json().link).split('/').pop();
    const del = () =>
      t.app.inject({ method: 'DELETE', url: `/v6/patrons/${id}`, headers: { authorization: writer, 'idempotency-key': 'k-5' } });
    assert.equal((await del()).statusCode, 204);
    const again = await del();
    assert.equal(again.statusCode, 204);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    const plain = await t.app.inject({ method: 'DELETE', url: `/v6/patrons/${id}`, headers: { authorization: writer } });
    assert.equal(plain.statusCode, 404);
  });

  it('refuses a key that is empty, too long or not visible ASCII, 400 code 108', async () => {
    for (const key of ['x'.repeat(256), 'spaced key', 'clé']) {
      const res = await post(writer, key, { names: ['Bad, Key'], barcodes: ['idem-8'] });
      assert.equal(res.statusCode, 400, key);
      assert.equal(res.json().code, 108);
      assert.match(res.json().description, /Idempotency-Key/);
    }
    assert.equal(await named('Bad, Key'), 0);
  });

  it('is documented on every write in the OpenAPI document, and only there', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v6/openapi.json' })).json();
    const header = (op: { parameters?: { in: string; name: string }[] }) =>
      (op.parameters ?? []).some((p) => p.in === 'header' && p.name === 'idempotency-key');
    let writes = 0;
    for (const [path, ops] of Object.entries(
      doc.paths as Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>,
    )) {
      for (const [method, op] of Object.entries(ops)) {
        const write = ['post', 'put', 'patch', 'delete'].includes(method) && path !== '/v6/token';
        if (write) writes++;
        assert.equal(header(op), write, `${method} ${path}`);
      }
    }
    assert.ok(writes > 10);
  });
});
