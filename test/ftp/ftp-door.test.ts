// The FTP door (src/ftp) through real sockets and clients nobody wrote for Carrel: Python's
// ftplib (run as a child process) and the npm basic-ftp client, over FTPS and plain FTP. A MARC
// file stored into in/ is loaded, with its report read back from out/; logins in clear are
// refused unless allowed; paths outside in/ and out/, a revoked account, active mode and a data
// connection from another address are refused; an upload past the cap, aborted (ABOR), or whose
// client is gone before its end keeps nothing.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FtpDoor } from '../../src/ftp/index.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { basicFtp, ftplib, ftplibLive, openTestFtpDoor } from '../helpers/ftp.ts';
import { marcFile } from '../helpers/shared-data.ts';

const MAX_BYTES = 64 * 1024;

describe(`the FTP door with ftplib and basic-ftp, on ${ENGINE}`, () => {
  let t: TestApp;
  /** Logins in clear refused (the default), and a door that takes them. */
  let secure: FtpDoor;
  let plain: FtpDoor;
  let dir: string;
  let vendor: { name: string; password: string };

  const files = async () => (await t.services.files.list({ limit: 100, offset: 0 })).entries;
  const py = (door: FtpDoor, tls: boolean, body: string, login = vendor) => ftplib(door.port, login, { tls, cwd: dir }, body);
  /** The file loaded, by the name it was stored under (the newest of that name). */
  const loaded = async (name: string) => {
    await t.services.files.processWaiting();
    const file = (await files()).find((f) => f.name === name);
    assert.ok(file, `${name} was not received`);
    assert.equal(file.kind, 'marc');
    assert.equal(file.status, 'loaded', JSON.stringify(file.report));
    return file;
  };

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-ftp-test-'));
    t = await createTestApp({ CARREL_DATA_DIR: dir });
    vendor = await t.services.sftpAccounts.create('vendor-f', { vendor: 'VF', items: false });
    secure = await openTestFtpDoor(t, {}, { maxFileBytes: MAX_BYTES });
    plain = await openTestFtpDoor(t, { allowPlain: true }, { maxFileBytes: MAX_BYTES });
  });
  after(async () => {
    await secure?.close();
    await plain?.close();
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loads a MARC file basic-ftp stores into in/ over FTPS, and lists and sends its report from out/', async () => {
    const client = await basicFtp(secure.port, vendor, true);
    try {
      await client.uploadFrom(marcFile('brkrtest.mrc'), 'in/brkrtest.mrc');
      const file = await loaded('brkrtest.mrc');
      assert.equal(file.size, fs.statSync(marcFile('brkrtest.mrc')).size);
      const report = `brkrtest.mrc.${file.id}.report.json`;
      assert.deepEqual(
        (await client.list('out')).map((e) => e.name),
        [report],
      );
      assert.deepEqual((await client.list('/')).map((e) => e.name).sort(), ['in', 'out']);
      await client.downloadTo(path.join(dir, 'report.json'), `out/${report}`);
      const kept = JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8')) as { id: string; status: string };
      assert.deepEqual([kept.id, kept.status], [file.id, 'loaded']);
    } finally {
      client.close();
    }
  });

  it('loads a MARC file ftplib stores over FTPS, and sends its report', async () => {
    const run = await py(
      secure,
      true,
      `
f = connect()
f.cwd('in')
with open(${JSON.stringify(marcFile('sample1.mrc'))}, 'rb') as src:
    out(stor=f.storbinary('STOR sample1.mrc', src))
out(pwd=f.pwd())
f.cwd('/out')
names = f.nlst()
out(names=names)
chunks = []
out(retr=f.retrbinary('RETR ' + [n for n in names if n.startswith('sample1.mrc.')][0], chunks.append) if any(n.startswith('sample1.mrc.') for n in names) else None)
out(report=b''.join(chunks).decode())
f.quit()
`,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(String(run.lines[0]?.stor), /^226 /);
    assert.equal(run.lines[1]?.pwd, '/in');
    // The file is processed once stored; its report may not be in out/ yet at the listing.
    const file = await loaded('sample1.mrc');
    assert.equal(file.size, fs.statSync(marcFile('sample1.mrc')).size);
    const again = await py(
      secure,
      true,
      `
f = connect()
chunks = []
out(retr=f.retrbinary('RETR out/sample1.mrc.${file.id}.report.json', chunks.append))
out(report=json.loads(b''.join(chunks)))
out(mlsd=[n for n, facts in f.mlsd('out')])
f.quit()
`,
    );
    assert.equal(again.code, 0, again.stderr);
    assert.match(String(again.lines[0]?.retr), /^226 /);
    assert.equal((again.lines[1]?.report as { status: string }).status, 'loaded');
    assert.ok((again.lines[2]?.mlsd as string[]).includes(`sample1.mrc.${file.id}.report.json`));
  });

  it('refuses logins in clear unless CARREL_FTP_ALLOW_PLAIN, and data connections without PROT P', async () => {
    const refused = await py(
      secure,
      false,
      `
f = connect(login=False)
try:
    f.login(A['user'], A['password'])
    out(login='accepted')
except ftplib.error_perm as e:
    out(login=str(e))
f = connect(tls=True, prot=False)
try:
    f.nlst('out')
    out(nlst='sent')
except ftplib.error_perm as e:
    out(nlst=str(e))
try:
    out(protc=f.sendcmd('PROT C'))
except ftplib.error_perm as e:
    out(protc=str(e))
`,
    );
    assert.equal(refused.code, 0, refused.stderr);
    assert.match(String(refused.lines[0]?.login), /^530 log in over TLS/);
    assert.match(String(refused.lines[1]?.nlst), /^521 /);
    assert.match(String(refused.lines[2]?.protc), /^536 /);
    await assert.rejects(basicFtp(secure.port, vendor, false), /530/);
  });

  it('takes a file in clear where allowed, from ftplib and basic-ftp', async () => {
    const run = await py(
      plain,
      false,
      `
f = connect()
with open(${JSON.stringify(marcFile('brkrtest_UTF8.mrc'))}, 'rb') as src:
    out(stor=f.storbinary('STOR /in/utf8.mrc', src))
f.quit()
`,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(String(run.lines[0]?.stor), /^226 /);
    await loaded('utf8.mrc');
    const client = await basicFtp(plain.port, vendor, false);
    try {
      await client.uploadFrom(marcFile('brkrtest.mrc'), 'in/plain.mrc');
      const file = await loaded('plain.mrc');
      assert.ok((await client.list('out')).some((e) => e.name === `plain.mrc.${file.id}.report.json`));
    } finally {
      client.close();
    }
  });

  it('refuses paths outside in/ and out/, uploads outside in/, and changes', async () => {
    const before = (await files()).length;
    const local = path.join(dir, 'escape.mrc');
    fs.copyFileSync(marcFile('pymarc-one.json'), local);
    const run = await py(
      secure,
      true,
      `
f = connect()
def tr(label, fn):
    try:
        out(label=label, reply=fn())
    except ftplib.all_errors as e:
        out(label=label, reply=str(e))
def stor(name):
    with open('escape.mrc', 'rb') as src:
        return f.storbinary('STOR ' + name, src)
for name in ['../escape.mrc', '/in/../../escape.mrc', '/etc/escape.mrc', 'out/escape.mrc', 'escape.mrc', 'in/..', 'in/a/b.mrc', 'in/bad\\x1bname.mrc']:
    tr('stor ' + name, lambda: stor(name))
for target in ['..', '/etc', 'in/..', '/in/../..']:
    tr('cwd ' + target, lambda: f.sendcmd('CWD ' + target))
tr('retr', lambda: f.retrbinary('RETR /etc/passwd', lambda b: None))
tr('retr up', lambda: f.retrbinary('RETR in/../../etc/passwd', lambda b: None))
tr('list', lambda: f.nlst('/tmp'))
tr('dele', lambda: f.delete('out/anything'))
tr('mkd', lambda: f.mkd('in/sub'))
tr('rename', lambda: f.rename('out/a', 'in/b'))
out(pwd=f.pwd())
`,
    );
    assert.equal(run.code, 0, run.stderr);
    const replies = run.lines.filter((l) => 'label' in l);
    assert.equal(replies.length, 18, JSON.stringify(run.lines));
    for (const r of replies) assert.match(String(r.reply), /^55\d /, `${String(r.label)}: ${String(r.reply)}`);
    assert.equal(run.lines.at(-1)?.pwd, '/');
    assert.equal((await files()).length, before);
  });

  it('refuses a revoked account, and ends its open session', async () => {
    const kept = await t.services.sftpAccounts.create('vendor-f-gone');
    const open = ftplibLive(
      secure.port,
      kept,
      { tls: true, cwd: dir },
      `
f = connect()
out(ready=True)
out(said=f.getline())
out(rest=len(f.sock.recv(100)))
`,
    );
    assert.deepEqual(await open.next(), { ready: true });
    await t.services.sftpAccounts.revoke(kept.name);
    await assert.rejects(basicFtp(secure.port, kept, true), /530 login incorrect/);
    const run = await py(
      secure,
      true,
      `\ntry:\n    connect()\n    out(login='accepted')\nexcept ftplib.error_perm as e:\n    out(login=str(e))\n`,
      kept,
    );
    assert.match(String(run.lines[0]?.login), /^530 /);
    // The session open before the revocation is ended by the door (within its check interval).
    assert.deepEqual(await open.next(), { said: '421 this account was revoked' });
    assert.deepEqual(await open.next(), { rest: 0 });
    assert.equal((await open.done).code, 0);
  });

  it('refuses active mode (PORT, EPRT): passive only', async () => {
    const run = await py(
      plain,
      false,
      `
f = connect()
for cmd in ['PORT 127,0,0,1,4,1', 'EPRT |1|127.0.0.1|1025|', 'EPRT |2|::1|1025|']:
    try:
        out(reply=f.sendcmd(cmd))
    except ftplib.error_perm as e:
        out(reply=str(e))
f.set_pasv(False)
try:
    f.nlst('out')
    out(reply='listed')
except ftplib.error_perm as e:
    out(reply=str(e))
`,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.lines.length, 4);
    for (const line of run.lines) assert.match(String(line.reply), /^502 active mode/);
  });

  it('closes a data connection from another address and takes the client’s own', async () => {
    const run = await py(
      plain,
      false,
      `
f = connect()
host, port = f.makepasv()
# Another host (127.0.0.2, still this machine) reaches the passive port first.
s = socket.socket()
s.bind(('127.0.0.2', 0))
s.settimeout(10)
s.connect((host, port))
try:
    out(stranger=len(s.recv(10)))
except ConnectionResetError:
    out(stranger=0)
f.voidcmd('TYPE I')
c = socket.create_connection((host, port), timeout=10)
out(nlst=f.sendcmd('NLST /'))
data = b''
while True:
    b = c.recv(4096)
    if not b:
        break
    data += b
out(names=data.decode().split())
out(end=f.voidresp())
`,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(run.lines[0], { stranger: 0 });
    assert.match(String(run.lines[1]?.nlst), /^150 /);
    assert.deepEqual(run.lines[2]?.names, ['in', 'out']);
    assert.match(String(run.lines[3]?.end), /^226 /);
  });

  it('refuses an upload past the cap with 552, keeping nothing', async () => {
    const before = (await files()).length;
    const local = path.join(dir, 'big.mrc');
    fs.writeFileSync(local, Buffer.concat(Array.from({ length: 4 }, () => fs.readFileSync(marcFile('065001035.mrc')))));
    assert.ok(fs.statSync(local).size > MAX_BYTES);
    const run = await py(
      secure,
      true,
      `
f = connect()
try:
    with open('big.mrc', 'rb') as src:
        out(reply=f.storbinary('STOR in/big.mrc', src))
except ftplib.error_perm as e:
    out(reply=str(e))
except OSError:
    # The door closed the data connection under the client's feet: its reply follows.
    out(reply=f.getresp() if False else f.getmultiline())
`,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(String(run.lines[0]?.reply), /^552 a file is at most 0\.0625 MB/);
    const client = await basicFtp(secure.port, vendor, true);
    try {
      await assert.rejects(client.uploadFrom(local, 'in/big2.mrc'));
    } finally {
      client.close();
    }
    assert.equal((await files()).length, before);
  });

  it('keeps nothing of an upload aborted (ABOR), or whose client is gone before it ends', async () => {
    const before = (await files()).length;
    const half = `open(${JSON.stringify(marcFile('sample1.mrc'))}, 'rb').read()[:3000]`;
    const aborted = await py(
      plain,
      false,
      `
f = connect()
f.voidcmd('TYPE I')
c = f.transfercmd('STOR in/aborted.mrc')
c.sendall(${half})
out(abort=f.abort())
c.close()
out(next=f.sendcmd('NOOP'))
`,
    );
    assert.equal(aborted.code, 0, aborted.stderr);
    assert.match(String(aborted.lines[0]?.abort), /^426 /);
    // ABOR's own answer (226) comes after the transfer's, then NOOP's.
    assert.match(String(aborted.lines[1]?.next), /^226 /);
    // The client gone (its control connection closed) in the middle: the door ends the data connection.
    for (const tls of [true, false]) {
      const gone = await py(
        tls ? secure : plain,
        tls,
        `
f = connect()
c = f.transfercmd('STOR in/gone.mrc')
c.sendall(${half})
f.close()
try:
    out(data=len(c.recv(100)))
except OSError as e:
    out(data=type(e).__name__)
`,
      );
      assert.equal(gone.code, 0, gone.stderr);
      assert.ok([0, 'ConnectionResetError'].includes(gone.lines[0]?.data as string), JSON.stringify(gone.lines));
    }
    await t.services.files.processWaiting();
    assert.equal((await files()).length, before);
  });
});

describe(`the FTP door's limits, on ${ENGINE}`, () => {
  let t: TestApp;
  let door: FtpDoor;
  /** A door whose login time-out is too short for any client to log in, taking 3 connections from an address. */
  let quick: FtpDoor;
  let dir: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-ftp-limits-'));
    t = await createTestApp({ CARREL_DATA_DIR: dir, CARREL_LOGIN_ADDRESS_FAILURES: '2', CARREL_LOGIN_ACCOUNT_FAILURES: '100' });
    door = await openTestFtpDoor(t, {});
    quick = await openTestFtpDoor(t, { loginTimeoutMs: 100, maxConnectionsPerAddress: 3 });
  });
  after(async () => {
    await door?.close();
    await quick?.close();
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses even the right password from an address past its failed logins (the SFTP door’s limiter)', async () => {
    const account = await t.services.sftpAccounts.create('vendor-limited');
    (await basicFtp(door.port, account, true)).close();
    for (let i = 0; i < 2; i++) await assert.rejects(basicFtp(door.port, { ...account, password: 'wrong' }, true), /530 login incorrect/);
    await assert.rejects(basicFtp(door.port, account, true), /530 too many failed logins/);
  });

  it('closes a connection that does not log in within the login time-out', async () => {
    const socket = net.connect({ port: quick.port, host: '127.0.0.1' });
    socket.on('error', () => undefined);
    let said = '';
    socket.on('data', (chunk: Buffer) => (said += chunk.toString()));
    await new Promise<void>((resolve) => socket.on('close', () => resolve()));
    assert.match(said, /^220 .*\r\n421 no login in time/);
  });

  it('refuses connections past the cap per address', async () => {
    const sockets = Array.from({ length: 4 }, () => net.connect({ port: quick.port, host: '127.0.0.1' }));
    const said = await Promise.all(
      sockets.map(
        (socket) =>
          new Promise<string>((resolve) => {
            socket.on('error', () => undefined);
            socket.once('data', (chunk: Buffer) => resolve(chunk.toString()));
          }),
      ),
    );
    for (const socket of sockets) socket.destroy();
    assert.deepEqual(said.map((s) => s.slice(0, 3)).sort(), ['220', '220', '220', '421']);
  });
});
