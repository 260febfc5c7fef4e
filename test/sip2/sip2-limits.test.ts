// The SIP2 door's limits on the connections it takes (src/sip2/server.ts), through real sockets on
// the engine under test: a kiosk must log in within a time-out and is closed when idle past
// another; caps per client address and in all; a few messages before a login, then the connection
// is closed; messages read no faster than they are answered; one log line per refusal kind and
// minute, not one per message.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { loadConfig, type Sip2Limits } from '../../src/config.ts';
import { openSipDoor, type SipDoor } from '../../src/sip2/server.ts';
import { captureLogs, createTestApp, type TestApp } from '../helpers/app.ts';
import { setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { watchHeap } from '../helpers/heap.ts';
import { Kiosk } from '../helpers/sip2.ts';

/** A kiosk from a loopback address of its choosing. */
async function kioskFrom(port: number, from: string): Promise<Kiosk> {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return new Kiosk(socket);
}

/** Whether the door serves this kiosk (answers its SC Status) or closes it unanswered. */
async function served(k: Kiosk): Promise<boolean> {
  k.socket.write(`${k.seal('9900302.00')}\r`);
  return Promise.race([k.read().then((answer) => /^98/.test(answer)), k.closed.then(() => false)]);
}

/** A raw connection that floods the door with `bytes` and counts the answers, until the door closes it. */
async function flood(port: number, bytes: Buffer): Promise<{ answers: number }> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined); // the door closes it mid-write
  let answers = 0;
  socket.on('data', (chunk: Buffer) => {
    for (const byte of chunk) if (byte === 13) answers++;
  });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(bytes);
  await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { answers };
}

describe(`the SIP2 door’s connection limits on ${ENGINE}`, () => {
  let t: TestApp;
  let account: { name: string; password: string };
  const logs = captureLogs();
  const doors: SipDoor[] = [];
  const kiosks: Kiosk[] = [];
  const openDoor = async (limits: Partial<Sip2Limits>, logged = true) => {
    const door = await openSipDoor({
      services: t.services,
      libraryName: 'Carrel Test Library',
      host: '127.0.0.1',
      port: 0,
      log: pino({ level: logged ? 'info' : 'silent' }, logs.stream),
      limits,
    });
    doors.push(door);
    return door;
  };
  const kiosk = async (door: SipDoor, from = '127.0.0.1') => {
    const k = await kioskFrom(door.port, from);
    kiosks.push(k);
    return k;
  };
  const login = (k: Kiosk) => k.ask(`9300CN${account.name}|CO${account.password}|`);

  before(async () => {
    t = await createTestApp();
    await setUpLibrary(t.testDb.db);
    account = await t.services.sipAccounts.create('limits-kiosk', 'CARREL');
  });
  after(async () => {
    for (const k of kiosks) k.socket.destroy();
    for (const door of doors) await door.close();
    await t?.close();
  });

  it('reads its limits once from the environment, with defaults, and refuses nonsense', () => {
    assert.deepEqual(loadConfig({}).sip2Limits, {
      loginTimeoutMs: 30_000,
      idleTimeoutMs: 1_800_000,
      maxConnections: 1000,
      maxConnectionsPerAddress: 100,
    });
    const set = loadConfig({
      CARREL_SIP2_LOGIN_TIMEOUT_MS: '500',
      CARREL_SIP2_IDLE_TIMEOUT_MS: '60000',
      CARREL_SIP2_MAX_CONNECTIONS: '7',
      CARREL_SIP2_MAX_CONNECTIONS_PER_ADDRESS: '3',
    }).sip2Limits;
    assert.deepEqual(set, { loginTimeoutMs: 500, idleTimeoutMs: 60_000, maxConnections: 7, maxConnectionsPerAddress: 3 });
    assert.throws(() => loadConfig({ CARREL_SIP2_MAX_CONNECTIONS: '0' }), /CARREL_SIP2_MAX_CONNECTIONS must be between 1 and/);
  });

  it('closes a kiosk that has not logged in within the login time-out, and not one that has', async () => {
    const door = await openDoor({ loginTimeoutMs: 2000 });
    const early = await kiosk(door);
    assert.match(await login(early), /^941/);
    const late = await kiosk(door);
    assert.match(await late.ask('9900302.00'), /^98N/); // answered, not logged in
    await late.closed;
    assert.match(await early.ask('9900302.00'), /^98Y/);
    assert.match(await login(await kiosk(door)), /^941/);
  });

  it('closes a logged-in kiosk idle past the idle time-out', async () => {
    const door = await openDoor({ idleTimeoutMs: 1500 });
    const idle = await kiosk(door);
    assert.match(await login(idle), /^941/);
    await idle.closed;
    const next = await kiosk(door);
    assert.match(await login(next), /^941/);
    assert.match(await next.ask('9900302.00'), /^98Y/);
  });

  it('takes a few kiosks per client address and a few in all, closes the next unanswered, and lives through resets', async () => {
    const door = await openDoor({ maxConnections: 4, maxConnectionsPerAddress: 2 });
    const first = [await kiosk(door, '127.0.0.1'), await kiosk(door, '127.0.0.1')];
    for (const k of first) assert.ok(await served(k));
    assert.equal(await served(await kiosk(door, '127.0.0.1')), false);
    const second = [await kiosk(door, '127.0.0.2'), await kiosk(door, '127.0.0.2')];
    for (const k of second) assert.ok(await served(k));
    assert.equal(await served(await kiosk(door, '127.0.0.3')), false);
    // Resets right after connecting, and in the middle of an answer.
    for (let i = 0; i < 10; i++) (await kiosk(door, '127.0.0.4')).socket.resetAndDestroy();
    first[0]!.socket.write(`${first[0]!.seal('9900302.00')}\r`);
    first[0]!.socket.resetAndDestroy();
    for (const k of [...first, ...second]) k.socket.destroy();
    // Served again once the door has seen them go.
    while (!(await served(await kiosk(door, '127.0.0.1')))) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(logs.lines.some((line) => /SIP2 connection refused: too many from its address/.test(line)));
  });

  it('closes a connection that sends more than a few messages before logging in, whatever it sends, and logs a few lines for it', async () => {
    const door = await openDoor({});
    logs.lines.length = 0;
    const watch = watchHeap(64 * 2 ** 20);
    try {
      // 3 MB of 97 (resend) from four connections in turn, then of 99 (SC Status), before any
      // login, sent without reading.
      for (const message of ['97', '97', '97', '97', '9900302.00']) {
        const bytes = Buffer.from(`${message}\r`.repeat(Math.ceil((3 * 2 ** 20) / (message.length + 1))));
        const { answers } = await Promise.race([flood(door.port, bytes), watch.exceeded]);
        assert.ok(answers <= 10, `${answers} answers`);
      }
    } finally {
      watch.stop();
    }
    // The 99s answered are logged (ten), the refusals a few a minute: not 40 refused 97s and 5 closes.
    assert.ok(logs.lines.length <= 30, `${logs.lines.length} log lines`);
    assert.ok(logs.lines.some((line) => /SIP2 connection closed: too many messages before a login/.test(line)));
    const k = await kiosk(door);
    assert.match(await login(k), /^941/);
  });

  it('logs a few lines a minute for messages before a login, however many connections send them', async () => {
    const door = await openDoor({});
    logs.lines.length = 0;
    // Twenty connections, each with the most SC Status messages a connection may send before a login.
    for (let i = 0; i < 20; i++) {
      const k = await kiosk(door);
      for (let m = 0; m < 10; m++) assert.match(await k.ask('9900302.00'), /^98/);
      k.socket.destroy();
      await k.closed;
    }
    const lines = logs.lines.map((line) => JSON.parse(line) as { msg: string });
    assert.equal(lines.filter((line) => line.msg === 'SIP2 message').length, 0);
    const before = lines.filter((line) => line.msg === 'SIP2 message before a login').length;
    assert.ok(before >= 1 && before <= 10, `${before} lines for 200 messages`);
    // A logged-in kiosk's messages are each logged.
    const k = await kiosk(door);
    assert.match(await login(k), /^941/);
    await k.ask('9900302.00');
    assert.equal(logs.lines.map((line) => JSON.parse(line) as { msg: string }).filter((line) => line.msg === 'SIP2 message').length, 2);
  });

  it('closes a connection whose message is longer than any SIP2 message', async () => {
    const door = await openDoor({});
    const k = await kiosk(door);
    assert.match(await login(k), /^941/);
    k.socket.write(`2300120060101    084237AOCARREL|AA${'9'.repeat(20_000)}|\r`);
    await k.closed;
  });

  it('reads a logged-in kiosk’s messages no faster than the kiosk takes their answers, and answers every one in order', async () => {
    const door = await openDoor({}, false); // a line per message answered: a million lines
    const k = await kiosk(door);
    assert.match(await login(k), /^941/);
    assert.match(await k.ask('9900302.00'), /^98Y/);
    const count = 1_000_000;
    // 97 answers the last answer again (the SC Status, 98): 80 MB of answers the kiosk does not
    // read at first, each made from memory at once. Then an End Patron Session, answered 36.
    const bytes = Buffer.from(`${'97\r'.repeat(count)}${k.seal('3519980723    094014AOCARREL|AAP0001|')}\r`);
    k.socket.removeAllListeners('data'); // the answers are counted here, not kept
    k.socket.pause();
    let resent = 0;
    let carry = '';
    const status = new Promise<string>((resolve) =>
      k.socket.on('data', (chunk: string) => {
        const answers = (carry + chunk).split('\r');
        carry = answers.pop()!;
        for (const answer of answers) {
          if (/^98Y/.test(answer)) resent++;
          else resolve(answer);
        }
      }),
    );
    k.socket.pause(); // a 'data' listener resumes the socket
    const watch = watchHeap(16 * 2 ** 20);
    try {
      const sent = new Promise<void>((resolve) => k.socket.write(bytes, () => resolve()));
      // The kiosk reads nothing until everything is sent, or for a second: a door that took every
      // message and wrote every answer regardless holds them all by then.
      await Promise.race([sent, new Promise((resolve) => setTimeout(resolve, 1000)), watch.exceeded]);
      k.socket.resume();
      assert.match(await Promise.race([status, watch.exceeded]), /^36Y/);
    } finally {
      watch.stop();
    }
    assert.equal(resent, count);
  });
});
