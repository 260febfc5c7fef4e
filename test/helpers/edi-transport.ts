// For tests of `carrel edi send|fetch`: a database of its own with fund books, one vendor whose
// server (SFTP or FTP) the test starts, and the commands the tests run against them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { openClientDb } from '../../src/db/open.ts';
import { readInterchange, readOrder, type Order } from '../../src/edifact/index.ts';
import { childDatabase } from './db.ts';
import { carrel } from './process.ts';

export interface TestVendorServer {
  port: number;
  root: string;
  refuseWrites: boolean;
  close(): Promise<void>;
}

export function ediWorkspace(o: {
  vendor: string;
  protocol: 'sftp' | 'ftp';
  user: string;
  password: string;
  start: (user: string, password: string, folders: string[]) => Promise<TestVendorServer>;
}) {
  let child: Awaited<ReturnType<typeof childDatabase>> | undefined;
  let env: Record<string, string> = {};
  let server: TestVendorServer | undefined;
  let here = '';
  const run = async (args: string[], input?: string) => {
    const r = await carrel(args, env, input);
    return { ...r, json: () => JSON.parse(r.stdout) as unknown };
  };
  const sql = async (text: string, params: unknown[] = []) => {
    const db = await openClientDb(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
    try {
      return await db.query<Record<string, unknown>>(text, params);
    } finally {
      await db.close();
    }
  };
  before(async () => {
    child = await childDatabase();
    env = { ...child.env, CARREL_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') };
    server = await o.start(o.user, o.password, ['orders', 'files']);
    assert.equal((await run(['funds', 'create', 'books', '--name', 'Books', '--appropriation', '1000.00'])).code, 0);
    assert.equal((await run(['vendors', 'create', o.vendor, '--name', o.vendor.toUpperCase()])).code, 0);
    here = String((await sql('select code from locations order by code limit 1'))[0]!.code);
  });
  after(async () => {
    await server?.close();
    await child?.remove();
  });
  return {
    run,
    sql,
    get server() {
      return server!;
    },
    get here() {
      return here;
    },
    /** A bib with this ISBN; answers its id. */
    bib: async (title: string, isbn: string): Promise<string> => {
      const [row] = await sql(
        'insert into bibs (title, isbns, created_date, updated_date) values ($1, $2, now(), now()) returning id::text as id',
        [title, [isbn]],
      );
      return String(row!.id);
    },
    /** Points the vendor at the test's server, logging in with this password. */
    setServer: (password: string) =>
      run(
        [
          'vendors',
          'edi',
          'set',
          o.vendor,
          '--protocol',
          o.protocol,
          '--host',
          '127.0.0.1',
          '--port',
          String(server!.port),
          '--user',
          o.user,
          '--password-stdin',
          '--orders-folder',
          'orders',
          '--files-folder',
          'files',
        ],
        `${password}\n`,
      ),
    /** Places an order of `copies` copies of the bib from the vendor (or `vendor`), all to one location. */
    place: async (bib: string, copies: number, vendor = o.vendor): Promise<{ id: string; lineReference: string }> => {
      const r = await run([
        'orders',
        'create',
        '--bib',
        bib,
        '--vendor',
        vendor,
        '--fund',
        'books',
        '--location',
        `${here}:${copies}`,
        '--price',
        '12.50',
        '--json',
      ]);
      assert.equal(r.code, 0, r.stderr);
      return r.json() as { id: string; lineReference: string };
    },
    /** The files in the server's orders folder. */
    ordersSent: () => fs.readdirSync(path.join(server!.root, 'orders')).sort(),
    /** The orders of a file the server received, read back. */
    readSent: (name: string): Order[] => {
      const { interchange, envelopeOk } = readInterchange(fs.readFileSync(path.join(server!.root, 'orders', name)));
      assert.ok(interchange && envelopeOk);
      return interchange.messages.map((m) => {
        const read = readOrder(m);
        assert.ok('order' in read, JSON.stringify(read));
        return read.order;
      });
    },
  };
}
