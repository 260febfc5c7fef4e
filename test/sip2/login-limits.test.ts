// SIP2 logins (93) under repeated failures and floods, through real sockets from several loopback
// addresses: failures per kiosk address and per account are slowed, then refused (94 not ok)
// while other addresses and accounts still log in; the bound on scrypt work refuses a flood's
// surplus at once; failed logins' log lines are sampled.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { scryptCounts } from '../../src/shared/scrypt.ts';
import { openSipDoor, type SipDoor } from '../../src/sip2/server.ts';
import { captureLogs, createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { Kiosk } from '../helpers/sip2.ts';

describe(`SIP2 login limits on ${ENGINE}`, () => {
  let t: TestApp;
  let door: SipDoor;
  const logged = captureLogs();
  const kiosks: Kiosk[] = [];
  /** A kiosk connecting from a loopback address of its own (127.0.0.0/8 is all loopback). */
  const kioskAt = async (from: string) => {
    const socket = net.connect({ port: door.port, host: '127.0.0.1', localAddress: from });
    await new Promise<void>((resolve, reject) => socket.once('connect', () => resolve()).once('error', reject));
    const k = new Kiosk(socket);
    kiosks.push(k);
    return k;
  };
  const login = (k: Kiosk, name: string, password: string) => k.ask(`9300CN${name}|CO${password}|CPlobby|`);
  const logs = () => logged.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const failedLogins = (from: number, remote: string) =>
    logs()
      .slice(from)
      .filter((l) => l.msg === 'SIP2 login' && l.ok === false && l.remote === remote);

  before(async () => {
    // Small limits so the tests reach them: 4 failures per address, 6 per account, in 5 minutes.
    t = await createTestApp({ CARREL_LOGIN_ADDRESS_FAILURES: '4', CARREL_LOGIN_ACCOUNT_FAILURES: '6' });
    door = await openSipDoor({
      services: t.services,
      libraryName: 'Carrel Test Library',
      host: '127.0.0.1',
      port: 0,
      log: pino({ level: 'info' }, logged.stream),
    });
  });
  after(async () => {
    for (const k of kiosks) k.socket.destroy();
    await door.close();
    await t.close();
  });

  it('slows the failures of one address past half its limit, then refuses it; another address still logs in', async () => {
    const a = await t.services.sipAccounts.create('kiosk-a', 'CARREL');
    const start = logs().length;
    const k = await kioskAt('127.0.0.2');
    for (let i = 0; i < 4; i++) assert.match(await login(k, a.name, `wrong-${i}`), /^940/);
    assert.deepEqual(
      failedLogins(start, '127.0.0.2').map((l) => l.slowedMs),
      [0, 0, 250, 500],
      'the third and fourth failures are held back',
    );
    assert.match(await login(k, a.name, a.password), /^940/, 'the right password, not checked');
    assert.equal(failedLogins(start, '127.0.0.2').at(-1)!.refusedBy, 'address');
    assert.match(await login(await kioskAt('127.0.0.2'), a.name, a.password), /^940/, 'a new connection from there too');
    assert.match(await login(await kioskAt('127.0.0.3'), a.name, a.password), /^941/, 'another address');
  });

  it('refuses an account failed from many addresses, even with its password; other accounts still log in', async () => {
    const [c, d] = [await t.services.sipAccounts.create('kiosk-c', 'CARREL'), await t.services.sipAccounts.create('kiosk-d', 'CARREL')];
    for (let i = 1; i <= 6; i++) assert.match(await login(await kioskAt(`127.0.1.${i}`), c.name, 'wrong'), /^940/);
    const k = await kioskAt('127.0.1.7');
    assert.match(await login(k, c.name, c.password), /^940/);
    assert.equal(failedLogins(0, '127.0.1.7').at(-1)!.refusedBy, 'account');
    assert.match(await login(k, d.name, d.password), /^941/, 'another account');
  });

  it('refuses a flood of unknown accounts past the bound on scrypt work at once (94 not ok), never queueing without end', async () => {
    const before = scryptCounts();
    const start = logs().length;
    // Each from its own address, so that only the bound refuses them.
    const flood = await Promise.all(Array.from({ length: 120 }, (_, i) => kioskAt(`127.0.2.${i + 1}`)));
    const answers = await Promise.all(flood.map((k, i) => login(k, `nobody-${i}`, 'wrong')));
    for (const answer of answers) assert.match(answer, /^940/);
    const after = scryptCounts();
    const refused = after.refused - before.refused;
    assert.ok(refused > 0, 'the bound refused some');
    const busy = logs()
      .slice(start)
      .filter((l) => l.msg === 'SIP2 login' && l.refusedBy === 'busy');
    assert.equal(busy.length, refused, 'every refusal by the bound was a 94 not ok');
    assert.ok(after.peakWaitingUnits <= after.queueUnits, `waited ${after.peakWaitingUnits} of ${after.queueUnits}`);
    const e = await t.services.sipAccounts.create('kiosk-e', 'CARREL');
    assert.match(await login(await kioskAt('127.0.2.200'), e.name, e.password), /^941/, 'a valid kiosk still logs in');
  });

  it('logs the failed logins of one address sampled: ten a minute, not one per attempt', async () => {
    const start = logs().length;
    const k = await kioskAt('127.0.3.1');
    for (let i = 0; i < 30; i++) assert.match(await login(k, 'kiosk-h', `wrong-${i}`), /^940/);
    const lines = failedLogins(start, '127.0.3.1');
    // Ten a minute (twenty should the attempts straddle a minute's end).
    assert.ok(lines.length >= 10 && lines.length <= 20, `${lines.length} lines`);
    assert.ok(
      lines.some((l) => l.nextLogged === 'the next minute'),
      'the last line of the minute says so',
    );
  });
});
