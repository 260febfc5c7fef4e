// /v6/queries: saved SQL over the sierra_view views, with typed named parameters, run over REST as
// JSON or CSV, public ones without a token (at a rate per address).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadDemoIfEmpty } from '../../src/demo/load.ts';
import { assertRefused, caller, create, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { parseCsv } from '../helpers/csv.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';
import { withRoomInMinute } from '../helpers/minute.ts';

const TITLES = {
  name: 'Titles by word',
  description: 'Bibs whose title holds a word, with their record keys',
  sql: `select id2reckey(b.id) || 'a' as reckey, p.best_title as title
        from sierra_view.bib_record b
        join sierra_view.record_metadata m on m.id = b.id
        join sierra_view.bib_record_property p on p.bib_record_id = b.id
        where p.best_title ilike '%' || :word || '%' -- :word in a comment is left alone
          and m.record_num >= :from_num and ':word' <> ''
        order by m.record_num`,
  parameters: [
    { name: 'word', type: 'text', default: '' },
    { name: 'from_num', type: 'integer', required: false, default: 0, description: 'The first record number' },
  ],
};

describe(`saved queries on ${ENGINE}`, () => {
  let t: TestApp;
  let writer: Caller;
  let reader: Caller;
  let other: Caller;
  const anonymous = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  before(async () => {
    t = await createTestApp({ CARREL_QUERY_PUBLIC_RATE_LIMIT: '1000' });
    await loadDemoIfEmpty(t.testDb.db);
    writer = caller(t, await bearer(t, ['Queries_Write']));
    reader = caller(t, await bearer(t, ['Queries_Read']));
    other = caller(t, await bearer(t, ['Bibs_Read']));
  });
  after(() => t.close());

  /** Carrel's own answer: live bibs' titles and numbers, by number. */
  async function ownTitles(word: string) {
    const bibs = await t.testDb.db.query<{ id: string; title: string | null }>(
      `select id::text, title from bibs where deleted_date is null order by id`,
    );
    return bibs.filter((b) => (b.title ?? '').toLowerCase().includes(word.toLowerCase()));
  }

  it('saves a query, shows it, lists it, and runs it as JSON pages', async () => {
    const id = await create(writer, '/v6/queries', TITLES);
    const shown = (await reader.get(`/v6/queries/${id}`)).json();
    assert.equal(shown.id, id);
    assert.equal(shown.name, TITLES.name);
    assert.equal(shown.public, false);
    assert.match(shown.results, new RegExp(`/v6/queries/${id}/results$`));
    assert.deepEqual(shown.parameters, [
      { name: 'word', type: 'text', required: false, default: '' },
      { name: 'from_num', type: 'integer', required: false, default: '0', description: 'The first record number' },
    ]);
    assert.ok((await reader.get('/v6/queries')).json().entries.some((q: { id: string }) => q.id === id));

    const own = await ownTitles('the');
    assert.ok(own.length > 3, 'the demo catalogue has titles with "the"');
    const first = (await reader.get(`/v6/queries/${id}/results?word=the&limit=2`)).json();
    assert.deepEqual(first.total, 2);
    assert.deepEqual(first.start, 0);
    assert.deepEqual(Object.keys(first.entries[0]), ['reckey', 'title']);
    const whole = (await reader.get(`/v6/queries/${id}/results?word=the&limit=2000`)).json();
    assert.equal(whole.total, own.length);
    assert.deepEqual(
      whole.entries.map((e: { title: string }) => e.title),
      own.map((b) => b.title),
    );
    assert.deepEqual(first.entries, whole.entries.slice(0, 2));
    const second = (await reader.get(`/v6/queries/${id}/results?word=the&limit=2&offset=2`)).json();
    assert.deepEqual(second.entries, whole.entries.slice(2, 4));
    // A default applies when the parameter is not given; 50 rows is the default page.
    const all = (await reader.get(`/v6/queries/${id}/results`)).json();
    assert.equal(all.total, Math.min(50, (await ownTitles('')).length));
  });

  it('answers CSV by Accept or format=csv, whole, with formula-like text made text', async () => {
    const id = await create(writer, '/v6/queries', TITLES);
    const byAccept = await t.app.inject({
      method: 'GET',
      url: `/v6/queries/${id}/results?word=the`,
      headers: { authorization: await bearer(t, ['Queries_Read']) },
    });
    assert.match(byAccept.headers['content-type'] as string, /^application\/json/);
    const csv = await t.app.inject({
      method: 'GET',
      url: `/v6/queries/${id}/results?word=the`,
      headers: { authorization: await bearer(t, ['Queries_Read']), accept: 'text/csv' },
    });
    assert.equal(csv.statusCode, 200, csv.body);
    assert.match(csv.headers['content-type'] as string, /^text\/csv/);
    const rows = parseCsv(csv.body);
    const own = await ownTitles('the');
    assert.deepEqual(rows[0], ['reckey', 'title']);
    assert.deepEqual(
      rows.slice(1).map((r) => r[1]),
      own.map((b) => b.title ?? ''),
    );
    assert.equal((await reader.get(`/v6/queries/${id}/results?word=the&format=csv`)).body, csv.body);

    const risky = await create(writer, '/v6/queries', {
      name: 'risky',
      sql: `select '=HYPERLINK("x")'::text as f, '+1' as plus, -2 as n, -1.5::numeric as m, 'plain' as p`,
    });
    const cells = parseCsv((await reader.get(`/v6/queries/${risky}/results?format=csv`)).body);
    assert.deepEqual(cells[1], [`'=HYPERLINK("x")`, "'+1", '-2', '-1.5', 'plain']);
  });

  it('refuses a bad parameter value by name, and nothing else runs', async () => {
    const id = await create(writer, '/v6/queries', {
      name: 'since',
      sql: 'select count(*)::integer as n from sierra_view.bib_record_property where :since::date <= current_date',
      parameters: [{ name: 'since', type: 'date' }],
    });
    assertRefused(await reader.get(`/v6/queries/${id}/results`), 400, 105);
    assertRefused(await reader.get(`/v6/queries/${id}/results?since=2026-02-30`), 400, 108);
    assert.match((await reader.get(`/v6/queries/${id}/results?since=yesterday`)).json().description, /^since: "yesterday" is not a date/);
    assertRefused(await reader.get(`/v6/queries/${id}/results?since=2026-01-01&until=2027-01-01`), 400, 106);
    assertRefused(await reader.get(`/v6/queries/${id}/results?since=2026-01-01&since=2026-02-01`), 400, 108);
    assert.equal((await reader.get(`/v6/queries/${id}/results?since=2026-01-01`)).statusCode, 200);
  });

  it('refuses a query it cannot run, with PostgreSQL’s message, and keeps nothing', async () => {
    const count = async () => (await t.testDb.db.query<{ n: number }>('select count(*)::integer as n from saved_queries'))[0]!.n;
    const before = await count();
    const refusals: [unknown, number, RegExp][] = [
      [{ name: 'x', sql: 'select * from no_such_view' }, 108, /no_such_view/],
      [{ name: 'x', sql: 'select * from public.patrons' }, 108, /permission denied/],
      [{ name: 'x', sql: 'select pin_hash from public.patrons' }, 108, /permission denied/],
      [{ name: 'x', sql: 'delete from sierra_view.bib_record' }, 108, /only a query/],
      [{ name: 'x', sql: 'select 1; select 2' }, 108, /one statement/],
      [{ name: 'x', sql: "select set_config('role', 'postgres', true)" }, 108, /set_config/],
      [{ name: 'x', sql: 'select $1::text' }, 126, /by name/],
      [{ name: 'x', sql: 'select 1', parameters: [{ name: 'unused', type: 'text' }] }, 126, /never uses :unused/],
      [{ name: 'x', sql: 'select :limit::text', parameters: [{ name: 'limit', type: 'text' }] }, 126, /taken by the results URL/],
      [{ name: 'x', sql: 'select :a', parameters: [{ name: 'a', type: 'integer', default: 'many' }] }, 126, /"many" is not a whole number/],
      [
        {
          name: 'x',
          sql: 'select :a',
          parameters: [
            { name: 'a', type: 'text' },
            { name: 'a', type: 'text' },
          ],
        },
        126,
        /declared twice/,
      ],
      [{ name: '  ', sql: 'select 1' }, 126, /name/],
      [{ name: 'x', sql: 'select 1', parameters: [{ name: 'a', type: 'money' }] }, 126, /type/],
    ];
    for (const [payload, code, why] of refusals) {
      const res = await writer.send('POST', '/v6/queries', payload);
      assertRefused(res, 400, code);
      assert.match(res.json().description, why, JSON.stringify(payload));
    }
    assert.equal(await count(), before);
  });

  it('changes and deletes a query', async () => {
    const id = await create(writer, '/v6/queries', { name: 'one', sql: 'select 1 as one' });
    assert.equal((await writer.send('PUT', `/v6/queries/${id}`, { name: 'two', sql: 'select 2 as two' })).statusCode, 204);
    const changed = (await reader.get(`/v6/queries/${id}`)).json();
    assert.deepEqual([changed.name, changed.sql], ['two', 'select 2 as two']);
    assert.deepEqual((await reader.get(`/v6/queries/${id}/results`)).json().entries, [{ two: 2 }]);
    assertRefused(await writer.send('PUT', `/v6/queries/${id}`, { sql: 'select * from public.bibs' }), 400, 108);
    assert.equal((await reader.get(`/v6/queries/${id}`)).json().sql, 'select 2 as two');
    assert.equal((await writer.send('DELETE', `/v6/queries/${id}`)).statusCode, 204);
    assertRefused(await reader.get(`/v6/queries/${id}`), 404, 107);
    assertRefused(await reader.get(`/v6/queries/${id}/results`), 404, 107);
    assertRefused(await writer.send('DELETE', `/v6/queries/${id}`), 404, 107);
  });

  it('needs Queries_Read to read and run, Queries_Write to save; a public query runs for anyone', async () => {
    const id = await create(writer, '/v6/queries', TITLES);
    assertRefused(await reader.send('POST', '/v6/queries', TITLES), 403, 116);
    assertRefused(await reader.send('DELETE', `/v6/queries/${id}`), 403, 116);
    assertRefused(await other.get('/v6/queries'), 403, 116);
    assertRefused(await anonymous('/v6/queries'), 401, 113);
    assertRefused(await anonymous(`/v6/queries/${id}`), 401, 113);
    // A private query's results: no token 401, a token without Queries_Read 403, a bad token 401.
    assertRefused(await anonymous(`/v6/queries/${id}/results`), 401, 113);
    assertRefused(await other.get(`/v6/queries/${id}/results`), 403, 116);
    assertRefused(await anonymous(`/v6/queries/${id}/results`, { authorization: 'Bearer nonsense' }), 401, 120);
    // Which ids exist is not told to a caller without Queries_Read.
    assertRefused(await anonymous('/v6/queries/999999999/results'), 401, 113);
    assertRefused(await other.get('/v6/queries/999999999/results'), 403, 116);

    assert.equal((await writer.send('PUT', `/v6/queries/${id}`, { public: true })).statusCode, 204);
    const open = await anonymous(`/v6/queries/${id}/results?word=the&limit=3`);
    assert.equal(open.statusCode, 200, open.body);
    assert.deepEqual(open.json(), (await reader.get(`/v6/queries/${id}/results?word=the&limit=3`)).json());
    assert.equal((await other.get(`/v6/queries/${id}/results?word=the`)).statusCode, 200);
    assertRefused(await anonymous(`/v6/queries/${id}`), 401, 113); // the definition stays private
  });

  it('limits runs without a token per address, not runs of a key that may read every query', async () => {
    const limited = await createTestApp({ CARREL_QUERY_PUBLIC_RATE_LIMIT: '3' });
    try {
      const api = caller(limited, await bearer(limited, ['Queries_Write']));
      const id = await create(api, '/v6/queries', { name: 'open', sql: 'select 1 as one', public: true });
      const run = (headers: Record<string, string> = {}) =>
        limited.app.inject({ method: 'GET', url: `/v6/queries/${id}/results`, headers, remoteAddress: '192.0.2.7' });
      await withRoomInMinute(40_000);
      for (let i = 0; i < 3; i++) assert.equal((await run()).statusCode, 200);
      const over = await run();
      assertRefused(over, 429, 134);
      assert.ok(Number(over.headers['retry-after']) > 0);
      // Another address has its own count; a key with Queries_Read its key's limit (test/saved-queries/run-limits.test.ts: other keys).
      assert.equal(
        (await limited.app.inject({ method: 'GET', url: `/v6/queries/${id}/results`, remoteAddress: '192.0.2.8' })).statusCode,
        200,
      );
      assert.equal((await run({ authorization: await bearer(limited, ['Queries_Read']) })).statusCode, 200);
    } finally {
      await limited.close();
    }
  });

  it(
    'stops a query at the time-out with PostgreSQL’s message',
    { skip: ENGINE === 'pglite' && 'the embedded engine cannot interrupt a statement (README, "SQL")' },
    async () => {
      const slow = await createTestApp({ CARREL_SQL_TIMEOUT_MS: '200' });
      try {
        const api = caller(slow, await bearer(slow, ['Queries_Write']));
        const id = await create(api, '/v6/queries', { name: 'slow', sql: 'select pg_sleep(5) as slept' });
        const res = await api.get(`/v6/queries/${id}/results`);
        assertRefused(res, 400, 108);
        assert.match(res.json().description, /statement timeout/);
      } finally {
        await slow.close();
      }
    },
  );
});
