// The one error shape, from every place an error can come from.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from 'typebox';
import { access } from '../../src/http/access.ts';
import { fail } from '../../src/shared/errors.ts';
import { pagingQuery } from '../../src/http/params.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';

function assertErrorShape(body: Record<string, unknown>, code: number, httpStatus: number) {
  assert.deepEqual(
    Object.keys(body)
      .filter((k) => k !== 'description')
      .sort(),
    ['code', 'httpStatus', 'name', 'specificCode'],
  );
  assert.equal(body.code, code);
  assert.equal(body.httpStatus, httpStatus);
  assert.equal(body.specificCode, 0);
  assert.equal(typeof body.name, 'string');
}

describe(`error shape on ${ENGINE}`, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    // Routes that exist only in this test, to drive the shared pieces every real route uses.
    t.app.get(
      '/v6/test/list',
      {
        config: { access: access.docs },
        schema: {
          querystring: Type.Object(
            { ...pagingQuery, name: Type.Optional(Type.String({ maxLength: 3 })), must: Type.String() },
            { additionalProperties: false },
          ),
        },
      },
      async (request) => request.query,
    );
    t.app.post(
      '/v6/test/body',
      {
        config: { access: access.docs },
        schema: { body: Type.Object({ n: Type.Integer() }, { additionalProperties: false }) },
      },
      async (request) => request.body,
    );
    t.app.get('/v6/test/crash', { config: { access: access.docs } }, async () => {
      throw new Error('internal detail: relation secret_table at 10.0.0.1');
    });
    t.app.get('/v6/test/denied', { config: { access: access.docs } }, async () => {
      throw fail.conflict(4, 'hold limit reached');
    });
  });
  after(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('unknown route: 404 code 107', async () => {
    const res = await get('/v6/nothing-here');
    assert.equal(res.statusCode, 404);
    assertErrorShape(res.json(), 107, 404);
  });

  it('paging defaults, and limit bounds', async () => {
    assert.deepEqual((await get('/v6/test/list?must=x')).json(), { limit: 50, offset: 0, must: 'x' });
    assert.equal((await get('/v6/test/list?must=x&limit=2000')).json().limit, 2000);
    // Above the largest page Sierra serves its largest page (clients send limit=10000 for "all").
    assert.equal((await get('/v6/test/list?must=x&limit=2001')).json().limit, 2000);
    assert.equal((await get('/v6/test/list?must=x&limit=10000')).json().limit, 2000);
    assert.equal((await get('/v6/test/list?must=x&limit=99999999999999999999')).json().limit, 2000);
    const none = await get('/v6/test/list?must=x&limit=0');
    assert.equal(none.statusCode, 400);
    assertErrorShape(none.json(), 108, 400);
    assert.match(none.json().description, /limit/);
    assertErrorShape((await get('/v6/test/list?must=x&offset=-1')).json(), 108, 400);
  });

  it('a number that does not parse: 101 naming the parameter', async () => {
    const res = await get('/v6/test/list?must=x&limit=ten');
    assert.equal(res.statusCode, 400);
    assertErrorShape(res.json(), 101, 400);
    assert.match(res.json().description, /limit/);
  });

  it('a missing parameter: 105; an unknown one: 106; an invalid one: 108', async () => {
    const missing = await get('/v6/test/list');
    assertErrorShape(missing.json(), 105, 400);
    assert.match(missing.json().description, /must/);
    const unknown = await get('/v6/test/list?must=x&colour=red');
    assertErrorShape(unknown.json(), 106, 400);
    assert.match(unknown.json().description, /colour/);
    const invalid = await get('/v6/test/list?must=x&name=toolong');
    assertErrorShape(invalid.json(), 108, 400);
    assert.match(invalid.json().description, /name/);
  });

  it('trailing slashes and the /iii/sierra-api prefix reach the same routes', async () => {
    assert.equal((await get('/v6/test/list/?must=x')).statusCode, 200);
    assert.equal((await get('/iii/sierra-api/v6/info/token')).statusCode, 401);
    assert.equal((await get('/iii/sierra-api/v5/info/token/')).statusCode, 401);
  });

  it('malformed JSON: 400 code 130; a body that fails its schema: 126', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v6/test/body',
      headers: { 'content-type': 'application/json' },
      payload: '{"n": 1,',
    });
    assert.equal(bad.statusCode, 400);
    assertErrorShape(bad.json(), 130, 400);
    const invalid = await t.app.inject({ method: 'POST', url: '/v6/test/body', payload: { n: 'x' } });
    assert.equal(invalid.statusCode, 400);
    assertErrorShape(invalid.json(), 126, 400);
    const extra = await t.app.inject({ method: 'POST', url: '/v6/test/body', payload: { n: 1, m: 2 } });
    assertErrorShape(extra.json(), 126, 400);
    assert.match(extra.json().description, /\bm\b/);
  });

  it('a rule refusal keeps its specificCode', async () => {
    const res = await get('/v6/test/denied');
    assert.equal(res.statusCode, 409);
    assert.deepEqual(res.json(), {
      code: 132,
      specificCode: 4,
      httpStatus: 409,
      name: 'Request denied',
      description: 'hold limit reached',
    });
  });

  it('an unexpected error: 500 with no internals in the body, the details in the log with the request id', async () => {
    const res = await get('/v6/test/crash');
    assert.equal(res.statusCode, 500);
    assertErrorShape(res.json(), 111, 500);
    assert.doesNotMatch(res.body, /secret_table|10\.0\.0\.1|Error/);
    const requestId = res.headers['x-request-id'];
    assert.ok(requestId);
    assert.match(res.json().description, new RegExp(String(requestId)));
    const logged = t.logs.find((line) => line.requestId === requestId && line.level === 50);
    assert.ok(logged, 'the failure is logged under its request id');
    assert.match(JSON.stringify(logged), /secret_table/);
  });
});
