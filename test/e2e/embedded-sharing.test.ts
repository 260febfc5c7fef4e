// The embedded database shared by the server and `carrel` commands: a command's open transaction
// stays its own. The server's statements wait for it instead of running inside it.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { readLock } from '../../src/db/embedded-lock.ts';
import { childDatabase, ENGINE } from '../helpers/db.ts';
import { carrel, startServer, type ServerProcess, serverBearer } from '../helpers/process.ts';
import { freePort } from '../helpers/tcp.ts';

/**
 * One request on a connection of its own. While an import holds the engine the server's event loop
 * can stall for seconds, and then close a kept-alive connection just as a client sends on it: a
 * race of HTTP/1.1 keep-alive, not of the database sharing this file tests.
 */
function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const RECORD = {
  leader: '00000nam a2200000 i 4500',
  fields: [{ '245': { ind1: '0', ind2: '0', subfields: [{ a: 'Written by the server' }] } }],
};

describe(
  'embedded database shared by the server and commands',
  { skip: ENGINE === 'postgres' ? 'the embedded engine only' : false },
  () => {
    let env: Record<string, string>;
    let server: ServerProcess;
    let database: Awaited<ReturnType<typeof childDatabase>>;
    let auth: string;

    before(async () => {
      database = await childDatabase();
      env = { ...database.env, CARREL_DEMO_CATALOGUE: 'false' };
      server = await startServer(env, await freePort());
      auth = await serverBearer(server, env, ['Bibs_Write']);
    });
    after(async () => {
      await server?.stop();
      await database?.remove();
    });

    it("keeps a client's uncommitted rows from the server, and the server's writes out of the client's rollback", async () => {
      const socket = readLock(env.CARREL_DATA_DIR!)!.socket!;
      const client = postgres({ path: socket, user: 'postgres', database: 'postgres', max: 1, onnotice: () => {} });
      try {
        const conn = await client.reserve();
        await conn`begin`;
        const [row] = await conn<
          { id: string }[]
        >`insert into bibs (title, created_date, updated_date) values ('uncommitted', now(), now()) returning id::text`;
        const id = row!.id;
        // While the client's transaction is open, the server reads and writes.
        let readDone = false;
        const read = fetch(`${server.url}/v6/bibs/${id}`, { headers: { authorization: auth } }).then((r) => ((readDone = true), r));
        const write = fetch(`${server.url}/v6/bibs`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: JSON.stringify(RECORD),
        });
        await new Promise((resolve) => setTimeout(resolve, 500));
        assert.equal(readDone, false, 'the read waits for the transaction to end');
        await conn`rollback`;
        conn.release();
        assert.equal((await read).status, 404, 'the rolled-back row was never visible to the server');
        const posted = await write;
        assert.equal(posted.status, 200);
        const link = ((await posted.json()) as { link: string }).link;
        const again = await fetch(link.replace(/^http:\/\/[^/]+/, server.url), { headers: { authorization: auth } });
        assert.equal(again.status, 200, "the server's bib survived the client's rollback");
      } finally {
        await client.end();
      }
    });

    it('loads a generated catalogue through the socket while the API writes and reads', async () => {
      const generating = carrel(['generate', '--bibs', '1500', '--seed', '4', '--json'], env);
      let posted = 0;
      let listed = 0;
      let done = false;
      void generating.then(() => (done = true));
      while (!done) {
        const res = await send(
          `${server.url}/v6/bibs`,
          'POST',
          { authorization: auth, 'content-type': 'application/json' },
          JSON.stringify(RECORD),
        );
        assert.equal(res.status, 200, res.text);
        posted++;
        const list = await send(`${server.url}/v6/bibs?limit=50`, 'GET', { authorization: auth });
        assert.equal(list.status, 200, list.text);
        listed++;
      }
      const result = await generating;
      assert.equal(result.code, 0, result.stderr);
      assert.equal(JSON.parse(result.stdout).created, 1500);
      assert.ok(posted > 0 && listed > 0);
      const page = await fetch(`${server.url}/v6/bibs?limit=2000&fields=id,title`, { headers: { authorization: auth } });
      const titles = ((await page.json()) as { entries: { title: string }[] }).entries.map((e) => e.title);
      assert.equal(titles.filter((t) => t === 'Written by the server').length, posted + 1);
      assert.equal(titles.length, 1500 + posted + 1);
    });
  },
);
