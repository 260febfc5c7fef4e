// The SQL door's limits on the connections it takes (src/sql/wire/door.ts), through real sockets on
// the engine under test: caps per client address and in all, answered as PostgreSQL answers them;
// a time-out before authentication; no more than a few messages queued for a connection, whatever
// it sends; a long statement taken in one piece. The process itself surviving resets and stopping
// on SIGTERM is test/e2e/ports.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import postgres from 'postgres';
import { loadConfig } from '../../src/config.ts';
import type { Db } from '../../src/db/types.ts';
import { SqlLoginService } from '../../src/sql/logins.ts';
import type { WireDoor } from '../../src/sql/wire/door.ts';
import { message, messagesIn } from '../../src/sql/wire/messages.ts';
import { connectRaw } from '../../src/sql/wire/pg-connection.ts';
import { startSqlDoor } from '../../src/sql/wire/start.ts';
import { ENGINE } from '../helpers/db.ts';
import { sqlPortDatabase, type SqlPortDatabase } from '../helpers/sql-port.ts';
import { watchHeap } from '../helpers/heap.ts';
import { admitted, fatal, logIn, pgError, rawClient, refused, SSL_REQUEST, startupPacket } from '../helpers/pg-raw.ts';

describe(`the SQL door’s connection limits on ${ENGINE}`, () => {
  let sqlDb: SqlPortDatabase;
  let db: Db;
  let logins: SqlLoginService;
  let user: string;
  let password: string;
  const doors: WireDoor[] = [];
  const clients: postgres.Sql[] = [];

  /** A door with these settings, on a free port. */
  const openDoor = async (env: Record<string, string>) => {
    const c = loadConfig({ ...env, ...sqlDb.where });
    const door = (await startSqlDoor({ ...c, sql: { ...c.sql, port: 0 } }, db, logins, pino({ level: 'silent' })))!;
    doors.push(door);
    return door;
  };
  const urlOf = (door: WireDoor) => {
    const u = new URL(`postgres://127.0.0.1/carrel`);
    u.username = user;
    u.password = password;
    u.port = String(door.port);
    return u.toString();
  };
  const connect = (door: WireDoor) => {
    const client = postgres(urlOf(door), { max: 1, onnotice: () => {}, connect_timeout: 30 });
    clients.push(client);
    return client;
  };
  /** A login's first statement, tried again while the door still counts connections just closed. */
  const eventually = async (door: WireDoor): Promise<number> => {
    for (;;) {
      const client = postgres(urlOf(door), { max: 1, onnotice: () => {}, connect_timeout: 30 });
      try {
        return (await client`select 1::integer as one`)[0]!.one as number;
      } catch (error) {
        if ((error as { code?: string }).code !== '53300') throw error;
        await new Promise((resolve) => setTimeout(resolve, 20));
      } finally {
        await client.end({ timeout: 1 });
      }
    }
  };

  before(async () => {
    sqlDb = await sqlPortDatabase('limits');
    ({ db, logins, user, password } = sqlDb);
  });
  after(async () => {
    for (const client of clients) await client.end({ timeout: 1 }).catch(() => undefined);
    for (const door of doors) await door.close();
    await sqlDb?.remove();
  });

  it('takes a few connections per client address and a few in all, refuses the next with 53300, and lives through their resets', async () => {
    const door = await openDoor({ CARREL_SQL_MAX_CONNECTIONS: '5', CARREL_SQL_MAX_CONNECTIONS_PER_ADDRESS: '3' });
    const held = [];
    for (let i = 0; i < 3; i++) held.push(await rawClient(door.port, '127.0.0.1'));
    for (const client of held) await admitted(client);
    // Half-open clients: they keep their side open after the door's goodbye, and then reset.
    const overAddress = await rawClient(door.port, '127.0.0.1', true);
    assert.deepEqual(await refused(overAddress), { code: '53300', text: 'too many connections from 127.0.0.1' });
    for (let i = 0; i < 2; i++) held.push(await rawClient(door.port, '127.0.0.2'));
    for (const client of held.slice(3)) await admitted(client);
    const overAll = await rawClient(door.port, '127.0.0.3', true);
    assert.deepEqual(await refused(overAll), { code: '53300', text: 'sorry, too many clients already' });
    assert.equal((await pgError(connect(door)`select 1`)).code, '53300');
    overAddress.socket.resetAndDestroy();
    overAll.socket.resetAndDestroy();
    // Resets before the door has answered, and in the middle of a start-up packet.
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        const client = await rawClient(door.port, '127.0.0.4');
        client.socket.resetAndDestroy();
      }),
    );
    held[0]!.socket.write(startupPacket(user).subarray(0, 6));
    held[0]!.socket.resetAndDestroy();
    for (const client of held) client.socket.destroy();
    assert.equal(await eventually(door), 1);
    assert.equal((await db.query<{ one: number }>('select 1::integer as one'))[0]!.one, 1);
  });

  it('closes a connection that has not logged in within CARREL_SQL_LOGIN_TIMEOUT_MS (57014), and a login then gets in', async () => {
    const door = await openDoor({ CARREL_SQL_LOGIN_TIMEOUT_MS: '2000', CARREL_SQL_MAX_CONNECTIONS: '4' });
    // Logged in first: the time-out is for logging in, not for what comes after.
    const early = await connectRaw(urlOf(door));
    try {
      const silent = await rawClient(door.port);
      const startedOnly = await rawClient(door.port);
      startedOnly.socket.write(startupPacket(user));
      await startedOnly.until((d) => [...messagesIn(d)].some((m) => m.type === 'R'));
      const halfScram = await rawClient(door.port);
      halfScram.socket.write(startupPacket(user));
      const first = Buffer.from('n,,n=,r=abcdefghijklmnopqrstuvwx');
      const length = Buffer.alloc(4);
      length.writeInt32BE(first.length);
      halfScram.socket.write(message('p', 'SCRAM-SHA-256', Buffer.concat([length, first])));
      await halfScram.until((d) => [...messagesIn(d)].filter((m) => m.type === 'R').length === 2);
      // The door is full: nobody else gets in while they wait.
      assert.equal((await pgError(connect(door)`select 1`)).code, '53300');
      for (const client of [silent, startedOnly, halfScram]) {
        await client.closed;
        assert.deepEqual(fatal(client.data()), { code: '57014', text: 'canceling authentication due to timeout' });
      }
      assert.equal(await eventually(door), 1);
      const answer = await early.turn((send) => send(message('Q', 'select 1')));
      assert.deepEqual(
        [...messagesIn(answer)].map((m) => m.type),
        ['T', 'D', 'C', 'Z'],
      );
    } finally {
      await early.close();
    }
  });

  it('answers at most two encryption requests before the start-up packet, however many are sent', async () => {
    const door = await openDoor({});
    const client = await rawClient(door.port);
    // 2 MB of SSLRequests, sent without reading a byte.
    const flood = Buffer.alloc(250_000 * SSL_REQUEST.length, SSL_REQUEST);
    const watch = watchHeap(32 * 2 ** 20);
    client.socket.write(flood);
    try {
      await Promise.race([client.closed, watch.exceeded]);
    } finally {
      watch.stop();
    }
    const data = client.data();
    assert.equal(data.subarray(0, 2).toString('latin1'), 'NN');
    assert.equal(fatal(data.subarray(2))?.code, '08P01');
  });

  it('reads a logged-in client’s messages no faster than it answers them', async () => {
    const door = await openDoor({});
    const client = await rawClient(door.port);
    await logIn(client, user, password);
    // A statement that keeps the session a while; 600,000 Flush messages (3 MB), each answered
    // with nothing; 32 statements of 1 MB; then a query. The pieces are written as they are, not
    // joined: the test holds 4 MB, and what the door holds shows.
    const flush = message('H');
    const long = message('Q', `select 1 as one -- ${'x'.repeat(2 ** 20)}`);
    const pieces = [
      message('Q', 'select count(*)::integer as n from generate_series(1, 2000000)'),
      Buffer.alloc(600_000 * flush.length, flush),
      ...Array.from({ length: 32 }, () => long),
      message('Q', 'select 7::integer as seven'),
    ];
    const answers = () => [...messagesIn(client.data())].filter((m) => m.type === 'Z').length;
    const watch = watchHeap(32 * 2 ** 20);
    try {
      for (const piece of pieces) client.socket.write(piece);
      // Answered the first statement, the door has read little more: the rest (35 MB in all,
      // less what the kernel's buffers hold) still waits on the client's side.
      await Promise.race([client.until(() => answers() === 1), watch.exceeded]);
      assert.ok(client.socket.writableLength > 8 * 2 ** 20, `${client.socket.writableLength} bytes not yet sent`);
      await Promise.race([client.until(() => answers() === 34), watch.exceeded]);
    } finally {
      watch.stop();
    }
    const rows = [...messagesIn(client.data())].filter((m) => m.type === 'D');
    assert.deepEqual(
      rows.map((m) => m.body.subarray(6).toString()),
      ['2000000', ...Array.from({ length: 32 }, () => '1'), '7'],
    );
    client.socket.destroy();
  });

  it('takes a 30 MB statement in one piece', async () => {
    const door = await openDoor({});
    const sql = connect(door);
    const long = 'x'.repeat(30 * 2 ** 20);
    const [row] = await sql.unsafe(`select length('${long}')::integer as n`);
    assert.equal(row!.n, long.length);
    assert.equal((await sql`select 1::integer as one`)[0]!.one, 1);
  });
});
