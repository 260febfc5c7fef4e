// The connection Carrel opens to PostgreSQL for a client of the SQL door (src/sql/wire/pg-connection.ts):
// a server that accepts the connection and then says nothing fails the login within its time-out,
// so a door's client is told, never left waiting. The logins themselves are test/sql/wire.test.ts.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { connectRaw } from '../../src/sql/wire/pg-connection.ts';

describe('Carrel’s own connection to PostgreSQL', () => {
  let quiet: net.Server;
  const held: net.Socket[] = [];

  before(async () => {
    // Takes connections and reads them, and never answers: a server stalled or behind a broken proxy.
    quiet = net.createServer((socket) => {
      held.push(socket);
      socket.on('error', () => undefined);
      socket.resume();
    });
    await new Promise<void>((resolve) => quiet.listen(0, '127.0.0.1', () => resolve()));
  });
  after(async () => {
    for (const socket of held) socket.destroy();
    await new Promise<void>((resolve) => quiet.close(() => resolve()));
  });

  for (const sslmode of ['disable', 'require']) {
    it(`fails a login the server never answers (sslmode=${sslmode})`, async () => {
      const { port } = quiet.address() as net.AddressInfo;
      await assert.rejects(
        connectRaw(`postgres://carrel:secret@127.0.0.1:${port}/carrel?sslmode=${sslmode}`, 200),
        /did not answer within 200 ms/,
      );
    });
  }
});
