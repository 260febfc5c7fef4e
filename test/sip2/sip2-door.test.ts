// The SIP2 door's transport and log (src/sip2/server.ts): kiosks over TLS with the door's
// certificate (made here by openssl), a plain-TCP kiosk on a TLS port turned away, one log line per
// message with its request id and never a PIN or password, and TLS settings given by halves refused.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { openSipDoor, type SipDoor } from '../../src/sip2/server.ts';
import { captureLogs, createTestApp, type TestApp } from '../helpers/app.ts';
import { setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { childEnv } from '../helpers/process.ts';
import { fields, Kiosk } from '../helpers/sip2.ts';
import { bearer } from '../helpers/tokens.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
// Long and not all digits, so that finding it in the log means it was logged, not that a request id or
// a time happened to contain it.
const PIN = 'kiosk-pin-6789';

describe(`the SIP2 door over TLS, and its log, on ${ENGINE}`, () => {
  let t: TestApp;
  let door: SipDoor;
  let dir: string;
  let cert: Buffer;
  let login: { name: string; password: string };
  const logs = captureLogs();

  const tlsKiosk = async () => {
    const socket = tls.connect({ port: door.port, host: '127.0.0.1', servername: 'localhost', ca: cert });
    await new Promise<void>((resolve, reject) => {
      socket.once('secureConnect', () => resolve());
      socket.once('error', reject);
    });
    return new Kiosk(socket);
  };
  const logged = () => logs.lines.map((line) => JSON.parse(line) as Record<string, unknown>);

  before(async () => {
    // A self-signed pair in PEM files, as an operator would give them.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-sip2-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    cert = fs.readFileSync(path.join(dir, 'cert.pem'));
    t = await createTestApp();
    await setUpLibrary(t.testDb.db);
    login = await t.services.sipAccounts.create('tls-kiosk', 'CARREL', undefined, 'all');
    door = await openSipDoor({
      services: t.services,
      libraryName: 'Carrel Test Library',
      host: '127.0.0.1',
      port: 0,
      log: pino({ level: 'info' }, logs.stream),
      tls: { cert, key: fs.readFileSync(path.join(dir, 'key.pem')) },
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/v6/patrons',
      headers: { authorization: await bearer(t, ['all']) },
      payload: { names: ['Marlowe, Christopher'], barcodes: ['P0100'], pin: PIN },
    });
    assert.equal(res.statusCode, 200, res.body);
  });
  after(async () => {
    await door?.close();
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves a kiosk that connects with TLS and checks the certificate', async () => {
    const k = await tlsKiosk();
    assert.match(await k.ask(`9300CN${login.name}|CO${login.password}|`), /^941/);
    const f = fields(await k.ask(`2300120060101    084237AOCARREL|AAP0100|AC|AD${PIN}|`), 37);
    assert.deepEqual([f.get('AE'), f.get('BL'), f.get('CQ')], [['Marlowe, Christopher'], ['Y'], ['Y']]);
    k.socket.destroy();
  });

  it('turns away a kiosk that speaks plain TCP to the TLS port, and says so in the log', async () => {
    const k = await Kiosk.connect(door.port);
    k.socket.write(`${k.seal('9900302.00')}\r`);
    await k.closed;
    assert.ok(logged().some((line) => line.msg === 'SIP2 TLS handshake failed'));
  });

  it('logs each message once with its own request id, never its PIN or password', async () => {
    logs.lines.length = 0;
    const k = await tlsKiosk();
    await k.ask(`9300CN${login.name}|CO${login.password}|`);
    await k.ask(`2300120060101    084237AOCARREL|AAP0100|AC|AD${PIN}|`);
    await k.ask('2300120060101    084237AOCARREL|AAP0100|AC|ADwrong-pin|');
    k.socket.destroy();
    await k.closed;
    const lines = logged();
    const messages = lines.filter((line) => line.msg === 'SIP2 message');
    assert.deepEqual(
      messages.map((line) => [line.message, line.answer]),
      [
        ['93', '94'],
        ['23', '24'],
        ['23', '24'],
      ],
    );
    const ids = messages.map((line) => line.requestId);
    assert.ok(ids.every((id) => typeof id === 'string' && /^[0-9a-f-]{36}$/.test(id)));
    assert.equal(new Set(ids).size, 3);
    assert.ok(messages.every((line) => typeof line.responseTimeMs === 'number'));
    // What a handler logs carries the id of the message it answers.
    assert.equal(lines.find((line) => line.msg === 'SIP2 login')?.requestId, ids[0]);
    const text = logs.lines.join('\n');
    for (const secret of [PIN, 'wrong-pin', login.password]) assert.ok(!text.includes(secret), `${secret} in the log`);
  });
});

describe('the SIP2 TLS settings', () => {
  it('takes a certificate and key together, and refuses one without the other', () => {
    assert.deepEqual(loadConfig({ CARREL_SIP2_TLS_CERT: '/etc/c.pem', CARREL_SIP2_TLS_KEY: '/etc/k.pem' }).sip2Tls, {
      certFile: '/etc/c.pem',
      keyFile: '/etc/k.pem',
    });
    assert.equal(loadConfig({}).sip2Tls, null);
    assert.throws(
      () => loadConfig({ CARREL_SIP2_TLS_CERT: '/etc/c.pem' }),
      (error) => error instanceof ConfigError && /CARREL_SIP2_TLS_CERT and CARREL_SIP2_TLS_KEY/.test(error.message),
    );
  });

  it('stops the server at start when a file cannot be read or is not a certificate, naming the setting', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-sip2-bad-'));
    try {
      fs.writeFileSync(path.join(dir, 'junk.pem'), 'not a certificate');
      for (const [env, expected] of [
        [
          { CARREL_SIP2_TLS_CERT: path.join(dir, 'missing.pem'), CARREL_SIP2_TLS_KEY: path.join(dir, 'junk.pem') },
          /CARREL_SIP2_TLS_CERT: cannot read/,
        ],
        [
          { CARREL_SIP2_TLS_CERT: path.join(dir, 'junk.pem'), CARREL_SIP2_TLS_KEY: path.join(dir, 'junk.pem') },
          /not a PEM certificate and its key/,
        ],
      ] as const) {
        const started = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
          cwd: ROOT,
          env: childEnv({ ...env, CARREL_SIP2_PORT: '16001', CARREL_DATA_DIR: path.join(dir, 'data') }),
          timeout: 60_000,
        }).then(
          () => ({ code: 0, stderr: '' }),
          (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? '' }),
        );
        assert.equal(started.code, 1);
        assert.match(started.stderr, expected);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
