// What the SQL port answers a client that goes wrong before it has logged in (src/sql/wire), through
// raw sockets: each refusal with PostgreSQL's code and the connection closed after it, and a login's
// connections counted, a place given back when one of them closes. Client libraries never send
// most of these, so nothing else would notice if one of them changed.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import postgres from 'postgres';
import type { Config } from '../../src/config.ts';
import type { Db } from '../../src/db/types.ts';
import { SqlLoginService } from '../../src/sql/logins.ts';
import { openWireDoor, type WireDoor } from '../../src/sql/wire/door.ts';
import { message, messagesIn } from '../../src/sql/wire/messages.ts';
import { connectRaw } from '../../src/sql/wire/pg-connection.ts';
import { startSqlDoor } from '../../src/sql/wire/start.ts';
import { ENGINE } from '../helpers/db.ts';
import { sqlPortDatabase, type SqlPortDatabase } from '../helpers/sql-port.ts';
import { CANCEL_REQUEST, fatal, GSS_REQUEST, logIn, PROTOCOL_3, rawClient, SSL_REQUEST, startup } from '../helpers/pg-raw.ts';

/** A SASLInitialResponse: the mechanism, then the client-first-message with its length. */
function saslInitial(mechanism: string, first: string): Buffer {
  const bytes = Buffer.from(first);
  const length = Buffer.alloc(4);
  length.writeInt32BE(bytes.length);
  return message('p', mechanism, Buffer.concat([length, bytes]));
}

describe(`the SQL port’s start-up and login on ${ENGINE}`, () => {
  let sqlDb: SqlPortDatabase;
  let db: Db;
  let config: Config;
  let logins: SqlLoginService;
  let user: string;
  let password: string;
  const doors: WireDoor[] = [];
  const clients: postgres.Sql[] = [];

  before(async () => {
    sqlDb = await sqlPortDatabase('startup');
    ({ config, db, logins, user, password } = sqlDb);
  });
  after(async () => {
    for (const client of clients) await client.end({ timeout: 1 }).catch(() => undefined);
    for (const door of doors) await door.close();
    await sqlDb?.remove();
  });

  it('answers each wrong turn before a login with PostgreSQL’s code, then closes the connection', async () => {
    const door = (await startSqlDoor({ ...config, sql: { ...config.sql, port: 0 } }, db, logins, pino({ level: 'silent' })))!;
    doors.push(door);
    /** What the port wrote to a client that sent these, until it closed the connection. */
    const answer = async (...pieces: Buffer[]) => {
      const client = await rawClient(door.port);
      for (const piece of pieces) client.socket.write(piece);
      await client.closed;
      return client.data();
    };
    const refusal = async (...pieces: Buffer[]) => fatal(await answer(...pieces));
    const started = startup(PROTOCOL_3, { user, database: 'carrel' });

    // Before the start-up packet.
    assert.deepEqual(await refusal(Buffer.from([0, 0, 0, 4])), { code: '08P01', text: 'invalid message length' });
    assert.deepEqual(await refusal(startup(PROTOCOL_3, { user, filler: 'x'.repeat(20_000) })), {
      code: '08P01',
      text: 'invalid message length',
    });
    const encryption = await answer(GSS_REQUEST, SSL_REQUEST, GSS_REQUEST);
    assert.equal(encryption.subarray(0, 2).toString('latin1'), 'NN');
    assert.deepEqual(fatal(encryption.subarray(2)), { code: '08P01', text: 'too many encryption requests before the start-up packet' });
    // The embedded engine's statements cannot be interrupted: a CancelRequest is closed unanswered, as PostgreSQL does.
    assert.equal((await answer(CANCEL_REQUEST)).length, 0);
    assert.deepEqual(await refusal(startup(131072, { user })), { code: '0A000', text: 'unsupported frontend protocol 2.0' });
    assert.deepEqual(await refusal(startup(PROTOCOL_3, { database: 'carrel' })), {
      code: '28000',
      text: 'no PostgreSQL user name specified in startup packet',
    });
    assert.deepEqual(await refusal(startup(PROTOCOL_3, { user, client_encoding: 'LATIN1' })), {
      code: '22023',
      text: 'this server answers in UTF8 only, not LATIN1',
    });

    // After it: SCRAM-SHA-256 asked for (AuthenticationSASL), then the client's password messages.
    const asked = await answer(started, message('Q', 'select 1'));
    assert.deepEqual(
      [...messagesIn(asked)].map((m) => m.type),
      ['R', 'E'],
    );
    assert.equal(messagesIn(asked).next().value!.body.readInt32BE(0), 10);
    assert.deepEqual(fatal(asked), { code: '08P01', text: 'expected a password message, got "Q"' });
    assert.deepEqual(await refusal(started, saslInitial('SCRAM-SHA-1', 'n,,n=,r=abc')), {
      code: '28000',
      text: 'SCRAM-SHA-256 is the only authentication offered',
    });
    assert.deepEqual(await refusal(started, saslInitial('SCRAM-SHA-256', 'no gs2 header')), {
      code: '08P01',
      text: 'malformed SCRAM message',
    });
    assert.deepEqual(await refusal(started, message('p', Buffer.alloc(20_000, 'x'))), { code: '08P01', text: 'invalid message length' });
    // A message that cannot be read at all (its mechanism has no end) is the port's failure to say so: XX000.
    assert.deepEqual(await refusal(started, message('p', Buffer.from('SCRAM-SHA-256'))), {
      code: 'XX000',
      text: 'the connection failed; see the server log',
    });
  });

  it('lets a login have so many connections, and gives a place back when one closes', async () => {
    const lines: string[] = [];
    let wake: (() => void) | undefined;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().trim().split('\n'));
        wake?.();
        done();
      },
    });
    const logged = (text: string) => lines.filter((line) => (JSON.parse(line) as { msg: string }).msg === text).length;
    const restore = await logins.sessionSettings();
    const door = await openWireDoor({
      session: async () => {
        if (ENGINE === 'pglite') return { raw: db.rawSession!, shared: true, restore, close: () => Promise.resolve() };
        const connection = await connectRaw(sqlDb.where.DATABASE_URL!);
        return { raw: connection, shared: false, restore: [], close: () => connection.close() };
      },
      host: '127.0.0.1',
      port: 0,
      rowCap: 50,
      statementTimeoutMs: 30_000,
      verifier: (name) => logins.verifier(name),
      parameters: {},
      log: pino({ level: 'info' }, sink),
      perLogin: 1,
    });
    doors.push(door);
    const url = new URL('postgres://127.0.0.1/carrel');
    url.username = user;
    url.password = password;
    url.port = String(door.port);
    const connect = () => {
      const client = postgres(url.toString(), { max: 1, onnotice: () => {}, connect_timeout: 30 });
      clients.push(client);
      return client;
    };

    const first = await rawClient(door.port);
    await logIn(first, user, password);
    const refused = await connect()`select 1`.then(
      () => assert.fail('a second connection of the login got in'),
      (error: { code?: string; message?: string }) => error,
    );
    assert.deepEqual(
      { code: refused.code, message: refused.message },
      { code: '53300', message: `too many connections for role "${user}"` },
    );
    first.socket.destroy();
    // The place is given back once the port has closed the connection's session, which it logs.
    while (logged('SQL login disconnected') === 0) await new Promise<void>((resolve) => (wake = resolve));
    assert.equal((await connect()`select 1::integer as one`)[0]!.one, 1);
  });
});
