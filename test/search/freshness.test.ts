// A bib written through the API is searchable within a second on a running server, and a deleted
// one disappears as fast: the server indexes what was written on a short schedule.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { childDatabase, ENGINE } from '../helpers/db.ts';
import { carrel, startServer, type ServerProcess } from '../helpers/process.ts';
import { freePort } from '../helpers/tcp.ts';

describe(`search freshness on a running server on ${ENGINE}`, () => {
  let server: ServerProcess;
  let database: Awaited<ReturnType<typeof childDatabase>>;
  let auth: string;
  before(async () => {
    database = await childDatabase();
    const env = { ...database.env, CARREL_DEMO_CATALOGUE: 'false' };
    server = await startServer(env, await freePort());
    const key = JSON.parse((await carrel(['keys', 'create', '--name', 's', '--roles', 'Bibs_Write', '--json'], env)).stdout) as {
      key: string;
      secret: string;
    };
    const token = await fetch(`${server.url}/v6/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}` },
    });
    auth = `Bearer ${((await token.json()) as { access_token: string }).access_token}`;
  });
  after(async () => {
    await server?.stop();
    await database?.remove();
  });

  /** Milliseconds until a search for `word` has `expected` results (or 5 s). */
  async function until(word: string, expected: number): Promise<number> {
    const started = performance.now();
    while (performance.now() - started < 5000) {
      const res = await fetch(`${server.url}/v6/bibs/search?text=${word}`, { headers: { authorization: auth } });
      if (((await res.json()) as { total: number }).total === expected) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return Infinity;
  }

  it('finds a new bib within a second, and loses a deleted one as fast', async () => {
    const record = {
      leader: '00000nam a2200000 i 4500',
      fields: [{ '245': { ind1: '0', ind2: '0', subfields: [{ a: 'Quixotic zephyrs' }] } }],
    };
    const posted = await fetch(`${server.url}/v6/bibs`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(record),
    });
    assert.equal(posted.status, 200);
    const link = ((await posted.json()) as { link: string }).link;
    assert.ok((await until('zephyrs', 1)) < 1000, 'searchable within a second');
    await fetch(link.replace(/^http:\/\/[^/]+/, server.url), { method: 'DELETE', headers: { authorization: auth } });
    assert.ok((await until('zephyrs', 0)) < 1000, 'gone within a second');
  });
});
