// A bib written through the API becomes searchable on a running server, and a deleted one leaves
// the results, with no reindex: the server indexes what was written on a short schedule
// (CARREL_SEARCH_INDEX_MS). How soon is a figure for a benchmark, not an assertion here.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { childDatabase, ENGINE } from '../helpers/db.ts';
import { startServer, type ServerProcess, serverBearer } from '../helpers/process.ts';
import { freePort } from '../helpers/tcp.ts';

describe(`search freshness on a running server on ${ENGINE}`, () => {
  let server: ServerProcess;
  let database: Awaited<ReturnType<typeof childDatabase>>;
  let auth: string;
  before(async () => {
    database = await childDatabase();
    const env = { ...database.env, CARREL_DEMO_CATALOGUE: 'false' };
    server = await startServer(env, await freePort());
    auth = await serverBearer(server, env, ['Bibs_Write']);
  });
  after(async () => {
    await server?.stop();
    await database?.remove();
  });

  /**
   * Whether a search for `word` comes to have `expected` results by itself (the server's indexer),
   * asked every 20 ms for at most 500 rounds.
   */
  async function comesTo(word: string, expected: number): Promise<boolean> {
    for (let round = 0; round < 500; round++) {
      const res = await fetch(`${server.url}/v6/bibs/search?text=${word}`, { headers: { authorization: auth } });
      if (((await res.json()) as { total: number }).total === expected) return true;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return false;
  }

  it('finds a new bib, and loses a deleted one, by itself', async () => {
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
    assert.ok(await comesTo('zephyrs', 1), 'a new bib becomes searchable without a reindex');
    await fetch(link.replace(/^http:\/\/[^/]+/, server.url), { method: 'DELETE', headers: { authorization: auth } });
    assert.ok(await comesTo('zephyrs', 0), 'a deleted bib leaves the results without a reindex');
  });
});
