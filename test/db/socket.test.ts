// DATABASE_URL in libpq's form for a Unix socket (?host=/dir) reaches PostgreSQL through the socket.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { openPostgres, socketDirectory } from '../../src/db/postgres.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';

const options = { max: 1, connectTimeoutSec: 5 };

describe('a socket directory in DATABASE_URL', () => {
  it('is taken out of the URL (the server would be sent it as a setting), other parameters kept', () => {
    assert.deepEqual(socketDirectory('postgres://carrel@localhost/lib?host=/var/run/postgresql&sslmode=disable'), {
      url: 'postgres://carrel@localhost/lib?sslmode=disable',
      host: '/var/run/postgresql',
    });
    // A host that is not a directory is left to postgres.js, as before.
    assert.deepEqual(socketDirectory('postgres://carrel@db.example/lib?host=other'), {
      url: 'postgres://carrel@db.example/lib?host=other',
    });
    assert.deepEqual(socketDirectory('postgres://carrel@localhost:6432/lib'), { url: 'postgres://carrel@localhost:6432/lib' });
    // Several hosts, as postgres.js takes them: no URL to the WHATWG parser, handed on as it is.
    assert.deepEqual(socketDirectory('postgres://carrel@h1:5432,h2:5433/lib'), { url: 'postgres://carrel@h1:5432,h2:5433/lib' });
  });

  it('must be a directory: any other host parameter is refused at start-up, saying why', () => {
    assert.equal(
      loadConfig({ DATABASE_URL: 'postgres://carrel@localhost/lib?host=/var/run/postgresql' }).databaseUrl,
      'postgres://carrel@localhost/lib?host=/var/run/postgresql',
    );
    assert.throws(
      () => loadConfig({ DATABASE_URL: 'postgres://carrel@localhost/lib?host=db.example' }),
      (error) => error instanceof ConfigError && /host parameter must be a socket directory.*"db\.example"/.test(error.message),
    );
  });

  it("is where the connection goes, with the URL's port in the socket's name", async () => {
    const db = openPostgres('postgres://carrel@localhost:6543/lib?host=/nonexistent-carrel-dir', options);
    try {
      await assert.rejects(db.query('select 1'), /ENOENT \/nonexistent-carrel-dir\/\.s\.PGSQL\.6543/);
    } finally {
      await db.close();
    }
  });

  describe(`on ${ENGINE}`, { skip: ENGINE !== 'postgres' && 'needs PostgreSQL' }, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb();
    });
    after(() => t?.drop());

    it("connects through the server's own socket, to the URL's database", async (ctx) => {
      const [settings] = await t.db.query<{ dirs: string; port: string }>(
        "select current_setting('unix_socket_directories') as dirs, current_setting('port') as port",
      );
      const { dirs, port } = settings!;
      const dir = dirs
        .split(',')
        .map((d) => d.trim())
        .find((d) => fs.existsSync(path.join(d, `.s.PGSQL.${port}`)));
      if (!dir) return ctx.skip('PostgreSQL has no Unix socket on this machine');
      const url = new URL(t.url!);
      url.port = port;
      url.searchParams.set('host', dir);
      const db = openPostgres(url.toString(), options);
      try {
        const [row] = await db.query<{ addr: string | null; name: string }>(
          'select inet_client_addr()::text as addr, current_database() as name',
        );
        assert.equal(row!.addr, null, 'a Unix socket has no client address');
        assert.equal(row!.name, new URL(t.url!).pathname.slice(1));
      } finally {
        await db.close();
      }
    });
  });
});
