// Carrel's own TCP ports in the real server process (the SQL door, SIP2, the Patron API's port), on
// the engine under test: clients past the connection caps that reset, before or after the door's
// answer, leave the process serving; and SIGTERM ends it while connections refused, idle, logged
// in and half-sent are still open.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { childDatabase, ENGINE, uniqueName } from '../helpers/db.ts';
import { admitted, rawClient, refused } from '../helpers/pg-raw.ts';
import { carrel, startServer, type ServerProcess } from '../helpers/process.ts';
import { Kiosk } from '../helpers/sip2.ts';
import { freePort } from '../helpers/tcp.ts';

describe(`the server’s own ports on ${ENGINE}`, () => {
  let env: Record<string, string>;
  let server: ServerProcess;
  let database: Awaited<ReturnType<typeof childDatabase>>;
  let sqlPort: number;
  let sipPort: number;
  let patronApiPort: number;
  let login: { user: string; password: string };
  let kioskAccount: { name: string; password: string };
  const clients: postgres.Sql[] = [];

  const alive = async () => {
    assert.equal(server.child.exitCode, null, server.output().slice(-2000));
    assert.equal((await fetch(`${server.url}/api`)).status, 200);
  };
  const sql = () => {
    const client = postgres({
      host: '127.0.0.1',
      port: sqlPort,
      database: 'carrel',
      username: login.user,
      password: login.password,
      max: 1,
      onnotice: () => {},
    });
    clients.push(client);
    return client;
  };
  /** A login's first statement, tried again while the door still counts connections just closed. */
  const eventually = async (): Promise<number> => {
    for (;;) {
      try {
        return (await sql()`select 1::integer as one`)[0]!.one as number;
      } catch (error) {
        if ((error as { code?: string }).code !== '53300') throw error;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };
  const kiosk = async (from = '127.0.0.1') => {
    const socket = net.connect({ port: sipPort, host: '127.0.0.1', localAddress: from });
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    return new Kiosk(socket);
  };
  /** Whether the door serves this kiosk (answers its SC Status) or closes it unanswered. */
  const served = async (k: Kiosk) => {
    k.socket.write(`${k.seal('9900302.00')}\r`);
    return Promise.race([k.read().then((answer) => /^98/.test(answer)), k.closed.then(() => false)]);
  };

  before(async () => {
    database = await childDatabase();
    [sqlPort, sipPort, patronApiPort] = [await freePort(), await freePort(), await freePort()];
    env = {
      ...database.env,
      CARREL_SQL_PORT: String(sqlPort),
      CARREL_SIP2_PORT: String(sipPort),
      CARREL_PATRONAPI_PORT: String(patronApiPort),
      // The connection caps count each worker's own connections (README, "Worker processes"):
      // one worker, so the port's caps are these.
      CARREL_WORKERS: '1',
      CARREL_SQL_MAX_CONNECTIONS: '4',
      CARREL_SQL_MAX_CONNECTIONS_PER_ADDRESS: '2',
      CARREL_SIP2_MAX_CONNECTIONS: '4',
      CARREL_SIP2_MAX_CONNECTIONS_PER_ADDRESS: '2',
      CARREL_SHUTDOWN_GRACE_MS: '200',
      // Long enough that the slow clients below are not closed before the listeners close.
      CARREL_HTTP_REQUEST_TIMEOUT_MS: '3000',
      CARREL_HTTP_HEADERS_TIMEOUT_MS: '3000',
    };
    server = await startServer(env, await freePort());
    env.PORT = new URL(server.url).port;
    // Roles belong to the whole PostgreSQL server: a name of its own there.
    const user = ENGINE === 'postgres' ? uniqueName('ports').toLowerCase() : 'ports';
    const created = await carrel(['sql', 'users', 'create', user, '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    login = JSON.parse(created.stdout) as { user: string; password: string };
    const account = await carrel(['sip', 'accounts', 'create', 'ports-kiosk', '--institution', 'CARREL', '--json'], env);
    assert.equal(account.code, 0, account.stderr);
    kioskAccount = JSON.parse(account.stdout) as { name: string; password: string };
  });
  after(async () => {
    for (const client of clients) await client.end({ timeout: 1 }).catch(() => undefined);
    await server?.stop();
    if (ENGINE === 'postgres' && login) await carrel(['sql', 'users', 'revoke', login.user], env);
    await database?.remove();
  });

  it('lives through SQL clients past its caps that reset, and then serves a login', async () => {
    const held = [await rawClient(sqlPort, '127.0.0.1'), await rawClient(sqlPort, '127.0.0.1')];
    held.push(await rawClient(sqlPort, '127.0.0.2'), await rawClient(sqlPort, '127.0.0.2'));
    for (const client of held) await admitted(client);
    // Refused past the cap per address and in all: each keeps its side open, reads the refusal, resets.
    for (const from of ['127.0.0.1', '127.0.0.3']) {
      const client = await rawClient(sqlPort, from, true);
      assert.equal((await refused(client)).code, '53300');
      client.socket.resetAndDestroy();
    }
    // And others reset at once, before the door's answer can have gone.
    for (let i = 0; i < 20; i++) (await rawClient(sqlPort, '127.0.0.4')).socket.resetAndDestroy();
    await alive();
    for (const client of held) client.socket.destroy();
    assert.equal(await eventually(), 1);
    await alive();
  });

  it('lives through SIP2 kiosks past its caps that reset, and then serves a kiosk', async () => {
    const held = [await kiosk('127.0.0.1'), await kiosk('127.0.0.1'), await kiosk('127.0.0.2'), await kiosk('127.0.0.2')];
    for (const k of held) assert.ok(await served(k));
    for (let i = 0; i < 20; i++) (await kiosk('127.0.0.3')).socket.resetAndDestroy();
    held[0]!.socket.write(`${held[0]!.seal('9900302.00')}\r`);
    held[0]!.socket.resetAndDestroy();
    await alive();
    for (const k of held) k.socket.destroy();
    for (;;) {
      const k = await kiosk();
      if (await served(k)) {
        assert.match(await k.ask(`9300CN${kioskAccount.name}|CO${kioskAccount.password}|`), /^941/);
        k.socket.destroy();
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await alive();
  });

  it('exits on SIGTERM with connections refused, idle, logged in and half-sent still open', async () => {
    // The SQL door full: a login, two connections that never start, one half-way through its
    // start-up; then one refused, which keeps its side open and never reads again.
    const loggedIn = sql();
    assert.equal((await loggedIn`select 1::integer as one`)[0]!.one, 1);
    const idle = [await rawClient(sqlPort, '127.0.0.5'), await rawClient(sqlPort, '127.0.0.6')];
    for (const client of idle) await admitted(client);
    const halfway = await rawClient(sqlPort, '127.0.0.6');
    halfway.socket.write(Buffer.from([0, 0, 0, 40, 0, 3]));
    const turnedAway = await rawClient(sqlPort, '127.0.0.7', true);
    assert.equal((await refused(turnedAway)).code, '53300');
    turnedAway.socket.pause();
    // A kiosk logged in, one in the middle of a message; requests whose headers never end, on the
    // Patron API's port and the main one (Node stops timing them once their listener closes).
    const k = await kiosk();
    assert.match(await k.ask(`9300CN${kioskAccount.name}|CO${kioskAccount.password}|`), /^941/);
    (await kiosk('127.0.0.8')).socket.write('9900302');
    const slow = net.connect(patronApiPort, '127.0.0.1');
    slow.on('error', () => undefined);
    await new Promise<void>((resolve) => slow.once('connect', () => resolve()));
    slow.write('GET /PATRONAPI/1234/dump HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const slowMain = net.connect(Number(new URL(server.url).port), '127.0.0.1');
    slowMain.on('error', () => undefined);
    await new Promise<void>((resolve) => slowMain.once('connect', () => resolve()));
    slowMain.write('GET /api HTTP/1.1\r\nHost: x\r\nX-Slow: ');

    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0, server.output().slice(-2000));
    for (const client of [...idle, halfway, turnedAway]) client.socket.destroy();
    slow.destroy();
    slowMain.destroy();
  });
});
