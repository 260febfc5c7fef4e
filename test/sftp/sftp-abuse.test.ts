// The SFTP door against crafted requests (the ssh2 client, driven by hand): what a client could
// otherwise use to make the server hold or do much for little.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ed25519KeyPair } from '../../src/sftp/key-pair.ts';
import { after, before, describe, it } from 'node:test';
import ssh2 from 'ssh2';
import type { SftpDoor } from '../../src/sftp/index.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { openTestDoor } from '../helpers/sftp.ts';
import { bearer } from '../helpers/tokens.ts';

const MAX_BYTES = 64 * 1024;

function connect(port: number, login: { name: string; password: string }): Promise<ssh2.Client> {
  const client = new ssh2.Client();
  return new Promise((resolve, reject) => {
    client.on('ready', () => resolve(client));
    client.on('error', reject);
    client.connect({ host: '127.0.0.1', port, username: login.name, password: login.password });
  });
}

/** How a connection to 127.0.0.1 ends: its error, 'logged in' or 'closed'. */
function outcome(config: ssh2.ConnectConfig): Promise<string> {
  const client = new ssh2.Client();
  return new Promise<string>((resolve) => {
    client.on('error', (error) => resolve(error.message));
    client.on('ready', () => resolve('logged in'));
    client.on('close', () => resolve('closed'));
    client.connect({ host: '127.0.0.1', ...config });
  }).finally(() => client.destroy());
}

function sftpOf(client: ssh2.Client): Promise<ssh2.SFTPWrapper> {
  return new Promise((resolve, reject) => client.sftp((error, s) => (error ? reject(error) : resolve(s))));
}

const openW = (s: ssh2.SFTPWrapper, name: string) =>
  new Promise<Buffer>((resolve, reject) => s.open(name, 'w', (error, h) => (error ? reject(error) : resolve(h))));
const write = (s: ssh2.SFTPWrapper, h: Buffer, data: Buffer, at: number) =>
  new Promise<Error | undefined>((resolve) => s.write(h, data, 0, data.length, at, (error) => resolve(error ?? undefined)));
const close = (s: ssh2.SFTPWrapper, h: Buffer) =>
  new Promise<Error | undefined>((resolve) => s.close(h, (error) => resolve(error ?? undefined)));

describe(`the SFTP door against crafted requests, on ${ENGINE}`, () => {
  let t: TestApp;
  let door: SftpDoor;
  let dir: string;
  let vendor: { name: string; password: string };
  const clients: ssh2.Client[] = [];
  const login = async () => {
    const client = await connect(door.port, vendor);
    clients.push(client);
    return client;
  };
  const files = async () => (await t.services.files.list({ limit: 100, offset: 0 })).entries;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-sftp-abuse-'));
    t = await createTestApp({ CARREL_DATA_DIR: dir });
    vendor = await t.services.sftpAccounts.create('vendor-crafty', { items: false });
    door = await openTestDoor(t, { maxFileBytes: MAX_BYTES });
  });
  after(async () => {
    for (const client of clients) client.destroy();
    await door?.close();
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a write that does not carry on where the file ends, and keeps nothing of it', async () => {
    const before = (await files()).length;
    const s = await sftpOf(await login());
    const h = await openW(s, 'in/sparse.mrc');
    // One byte just under the limit: stored, it would be a file of the limit's size, all zeros but one.
    const error = await write(s, h, Buffer.from('x'), MAX_BYTES - 1);
    assert.match(String(error), /writes must follow one another/);
    assert.match(String(await close(s, h)), /nothing of this file is kept/);
    // Written in order, the same byte is a file of one byte.
    const ok = await openW(s, 'in/one.txt');
    assert.equal(await write(s, ok, Buffer.from('ab'), 0), undefined);
    assert.equal(await write(s, ok, Buffer.from('c'), 2), undefined);
    assert.equal(await close(s, ok), undefined);
    const now = await files();
    assert.equal(now.length, before + 1);
    assert.equal(now[0]?.name, 'one.txt');
    assert.equal(now[0]?.size, 3);
  });

  it('allows one SFTP channel per connection, and caps the files an account has open across its connections', async () => {
    const first = await login();
    const s1 = await sftpOf(first);
    await assert.rejects(sftpOf(first));
    // The first channel still works.
    const handles: Buffer[] = [];
    for (let i = 0; i < 16; i++) handles.push(await openW(s1, `in/a${i}.txt`));
    const s2 = await sftpOf(await login());
    for (let i = 0; i < 16; i++) await openW(s2, `in/b${i}.txt`);
    const s3 = await sftpOf(await login());
    await assert.rejects(openW(s3, 'in/c.txt'), /at most 16 files and folders open in a session, 32 in all/);
    // One closed frees one for any of the account's sessions.
    assert.equal(await close(s1, handles[0]!), undefined);
    const h = await openW(s3, 'in/c.txt');
    assert.equal(await close(s3, h), undefined);
  });

  it('keeps the first 100 refused records of a report, lists out/ without reading reports, and reads one by its id', async () => {
    // A record whose leader says it holds nothing readable: refused, each at its position.
    const bad = Buffer.from('00030nam a2200025 a 4500XX\x1e\x1d', 'latin1');
    const s = await sftpOf(await login());
    const h = await openW(s, 'in/bad.mrc');
    const content = Buffer.concat(Array.from({ length: 150 }, () => bad));
    assert.equal(await write(s, h, content, 0), undefined);
    assert.equal(await close(s, h), undefined);
    await t.services.files.processWaiting();
    const file = (await files()).find((f) => f.name === 'bad.mrc')!;
    assert.equal(file.status, 'refused');
    const report = file.report as { refused: unknown[]; refusedTotal: number };
    assert.equal(report.refused.length, 100);
    assert.equal(report.refusedTotal, 150);

    const listed = await new Promise<ssh2.FileEntry[]>((resolve, reject) =>
      s.readdir('out', (error, list) => (error ? reject(error) : resolve(list))),
    );
    const entry = listed.find((e) => e.filename === `bad.mrc.${file.id}.report.json`)!;
    const got = await new Promise<Buffer>((resolve, reject) =>
      s.readFile(`out/${entry.filename}`, (error, data) => (error ? reject(error) : resolve(data))),
    );
    assert.equal(entry.attrs.size, got.length);
    const read = JSON.parse(got.toString()) as { id: string; status: string; report: { refusedTotal: number } };
    assert.deepEqual([read.id, read.status, read.report.refusedTotal], [file.id, 'refused', 150]);
    // Another account's file, or a name that is not its file's, is no report.
    await assert.rejects(
      new Promise((resolve, reject) => s.stat(`out/other.mrc.${file.id}.report.json`, (error, a) => (error ? reject(error) : resolve(a)))),
      /no such report/,
    );
  });

  it('keeps a report at most 64 KB, and shows one kept longer before as cut', async () => {
    t.services.files.register('unknown', async () => ({ status: 'refused', report: { reason: 'chatty', lines: 'x'.repeat(100_000) } }));
    const s = await sftpOf(await login());
    const h = await openW(s, 'in/chatty.txt');
    assert.equal(await write(s, h, Buffer.from('hello'), 0), undefined);
    assert.equal(await close(s, h), undefined);
    await t.services.files.processWaiting();
    const file = (await files()).find((f) => f.name === 'chatty.txt')!;
    assert.deepEqual(Object.keys(file.report as object).sort(), ['reason', 'truncated']);
    await t.testDb.db.query('update files set report = $1::text::jsonb where id = $2', [
      JSON.stringify({ lines: 'y'.repeat(100_000) }),
      file.id,
    ]);
    const res = await t.app.inject({ method: 'GET', url: '/v6/files', headers: { authorization: await bearer(t, ['Files_Read']) } });
    assert.equal(res.statusCode, 200);
    const shown = res.json<{ entries: { id: string; report: object }[] }>().entries.find((e) => e.id === file.id)!;
    assert.deepEqual(Object.keys(shown.report), ['truncated']);
  });

  it('answers at most 8 database requests of a session at once, refusing the others', async () => {
    const s = await sftpOf(await login());
    const answers = await Promise.all(
      Array.from(
        { length: 30 },
        (_, i) => new Promise<string>((resolve) => s.stat(`out/x.${i + 1}.report.json`, (error) => resolve(String(error?.message)))),
      ),
    );
    assert.ok(
      answers.some((a) => /at most 8 requests at once/.test(a)),
      answers.join('; '),
    );
    assert.ok(
      answers.some((a) => /no such report/.test(a)),
      answers.join('; '),
    );
  });

  it('closes a connection after 6 login attempts', async () => {
    const key = ed25519KeyPair().private;
    let attempts = 0;
    const why = await outcome({
      port: door.port,
      username: vendor.name,
      // A key the account does not have, offered again and again (at most 50 times here).
      authHandler: (_methods, _partial, next) => {
        // false: no more methods (ssh2's documented answer, missing from its types).
        if (++attempts > 50) return next(false as unknown as ssh2.AuthenticationType);
        next({ type: 'publickey', username: vendor.name, key });
      },
    });
    assert.ok(attempts <= 8, `${attempts} attempts, then ${why}`);
  });

  it('offers key exchange on elliptic curves only', async () => {
    const failed = await outcome({
      port: door.port,
      username: vendor.name,
      password: vendor.password,
      algorithms: { kex: ['diffie-hellman-group14-sha256', 'diffie-hellman-group-exchange-sha256'] },
    });
    assert.match(failed, /no matching key exchange/i);
    const curve = await connect(door.port, vendor);
    curve.destroy();
  });

  it('keeps half its connections at most for clients not logged in', async () => {
    const small = await openTestDoor(t, { maxConnections: 2 });
    const raw = () => {
      const socket = net.connect({ port: small.port, host: '127.0.0.1' });
      socket.on('error', () => undefined);
      return socket;
    };
    try {
      const first = raw();
      // The server speaks first (its SSH version): the first connection is taken in.
      await new Promise((resolve) => first.once('data', resolve));
      const second = raw();
      let greeted = false;
      second.on('data', () => (greeted = true));
      await new Promise((resolve) => second.on('close', resolve));
      // Closed at once, before the server said anything: not at its login time-out.
      assert.equal(greeted, false);
      assert.equal(first.destroyed, false);
      first.destroy();
    } finally {
      await small.close();
    }
  });

  it('refuses names with C1, bidirectional or line-separator characters, and upload names too long for their report', async () => {
    const s = await sftpOf(await login());
    for (const bad of [
      'in/a\u0085b.mrc',
      'in/invoice\u202Ecrm.edi',
      'in/a\u2067b.mrc',
      'in/a\u2028b.mrc',
      `in/${'x'.repeat(224)}`,
      `in/${'é'.repeat(112)}`,
    ])
      await assert.rejects(openW(s, bad), /No such file|outside your folders|not a file/, JSON.stringify(bad));
    // 223 bytes: its report's name, with an id of 19 digits, is 255.
    const longest = await openW(s, `in/${'é'.repeat(111)}x`);
    assert.equal(await close(s, longest), undefined);
  });
});
