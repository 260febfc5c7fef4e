// The SFTP door (src/sftp) through a real socket and a client nobody wrote for Carrel: OpenSSH's
// sftp. A MARC file put into in/ is loaded and listed, with its report in out/; a file that is
// neither MARC nor EDIFACT is refused with a report; paths outside in/ and out/ are refused; a
// revoked account cannot log in and its open session ends; an upload past the limit keeps nothing;
// a key made by ssh-keygen logs in.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import ssh2 from 'ssh2';
import type { SftpDoor } from '../../src/sftp/index.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { marcFile } from '../helpers/shared-data.ts';
import { openTestDoor, sftpBatch } from '../helpers/sftp.ts';
import { bearer } from '../helpers/tokens.ts';

const MAX_BYTES = 64 * 1024;

describe(`the SFTP door with OpenSSH's sftp, on ${ENGINE}`, () => {
  let t: TestApp;
  let door: SftpDoor;
  let dir: string;
  let vendor: { name: string; password: string };

  const files = async () => (await t.services.files.list({ limit: 100, offset: 0 })).entries;
  const put = (local: string, remote: string) => sftpBatch(door.port, vendor.name, vendor, [`put ${local} ${remote}`], dir);

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-sftp-test-'));
    t = await createTestApp({ CARREL_DATA_DIR: dir });
    vendor = await t.services.sftpAccounts.create('vendor-a', { vendor: 'VA', items: false });
    door = await openTestDoor(t, { maxFileBytes: MAX_BYTES });
  });
  after(async () => {
    await door?.close();
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loads a MARC file put into in/, lists it, and puts its report in out/', async () => {
    const run = await put(marcFile('brkrtest.mrc'), 'in/brkrtest.mrc');
    assert.equal(run.code, 0, run.stderr);
    await t.services.files.processWaiting();
    const [file] = await files();
    assert.equal(file?.name, 'brkrtest.mrc');
    assert.equal(file.kind, 'marc');
    assert.equal(file.status, 'loaded');
    assert.equal(file.size, fs.statSync(marcFile('brkrtest.mrc')).size);
    const report = file.report as { read: number; created: number };
    assert.ok(report.created > 0);
    const [bibs] = await t.testDb.db.query<{ n: number }>('select count(*)::int as n from bibs');
    assert.equal(bibs?.n, report.created);

    const res = await t.app.inject({ method: 'GET', url: '/v6/files', headers: { authorization: await bearer(t, ['Files_Read']) } });
    assert.equal(res.statusCode, 200);
    const listed = res.json<{ total: number; entries: { id: string; status: string; kind: string; account: string }[] }>();
    assert.deepEqual(
      listed.entries.map((e) => [e.id, e.account, e.kind, e.status]),
      [[file.id, 'vendor-a', 'marc', 'loaded']],
    );
    const forbidden = await t.app.inject({ method: 'GET', url: '/v6/files', headers: { authorization: await bearer(t, ['Bibs_Read']) } });
    assert.equal(forbidden.statusCode, 403);

    const got = await sftpBatch(door.port, vendor.name, vendor, ['ls out', `get out/brkrtest.mrc.${file.id}.report.json`], dir);
    assert.equal(got.code, 0, got.stderr);
    const kept = JSON.parse(fs.readFileSync(path.join(dir, `brkrtest.mrc.${file.id}.report.json`), 'utf8')) as { status: string };
    assert.equal(kept.status, 'loaded');
  });

  it('refuses a file that is neither MARC nor EDIFACT, with a report in out/', async () => {
    const local = path.join(dir, 'notes.mrc');
    fs.writeFileSync(local, 'Dear vendor, here are the files you asked for.\n');
    assert.equal((await put(local, 'in/notes.mrc')).code, 0);
    await t.services.files.processWaiting();
    const file = (await files()).find((f) => f.name === 'notes.mrc')!;
    assert.equal(file.kind, 'unknown');
    assert.equal(file.status, 'refused');
    assert.match((file.report as { reason: string }).reason, /neither MARC .* nor EDIFACT/);
    const got = await sftpBatch(door.port, vendor.name, vendor, [`get out/notes.mrc.${file.id}.report.json report.json`], dir);
    assert.equal(got.code, 0, got.stderr);
    assert.equal((JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8')) as { status: string }).status, 'refused');
  });

  it('records an EDIFACT file by its message type and processes it, refusing a message from no known vendor', async () => {
    const local = path.join(dir, 'invoice.txt');
    fs.writeFileSync(
      local,
      "\uFEFF  UNA:+.? 'UNB+UNOC:3+5013546027856+5030000000000+261129:1034+1'UNH+1+INVOIC:D:96A:UN:EAN008'BGM+380+INV1+9'UNT+3+1'UNZ+1+1'",
    );
    assert.equal((await put(local, 'in/invoice.txt')).code, 0);
    await t.services.files.processWaiting();
    const file = (await files()).find((f) => f.name === 'invoice.txt')!;
    assert.equal(file.kind, 'edifact-invoic');
    assert.equal(file.status, 'refused');
    const report = file.report as { refused: number; messages: { tag: string; reason: string }[] };
    assert.equal(report.refused, 1);
    assert.match(report.messages[0]!.reason, /no vendor has the UNB sender 5013546027856/);
    // Retried: processed again, with the processor registered then.
    t.services.files.register('edifact-invoic', async () => ({ status: 'loaded', report: { invoices: 1 } }));
    const retry = (id: string, roles: string[]) =>
      bearer(t, roles).then((authorization) => t.app.inject({ method: 'POST', url: `/v6/files/${id}/retry`, headers: { authorization } }));
    assert.equal((await retry(file.id, ['Files_Read'])).statusCode, 403);
    const accepted = await retry(file.id, ['Files_Write']);
    assert.equal(accepted.statusCode, 202, accepted.body);
    assert.equal(accepted.json<{ status: string }>().status, 'received');
    await t.services.files.processWaiting();
    assert.deepEqual((await t.services.files.get(file.id)).report, { invoices: 1 });
    const again = await retry(file.id, ['Files_Write']);
    assert.equal(again.statusCode, 409);
    assert.equal((await retry('nine', ['Files_Write'])).statusCode, 400);
  });

  it('refuses paths outside in/ and out/, uploads outside in/, and links', async () => {
    const before = (await files()).length;
    const local = path.join(dir, 'escape.mrc');
    fs.copyFileSync(marcFile('pymarc-one.json'), local);
    const run = await sftpBatch(
      door.port,
      vendor.name,
      vendor,
      [
        `-put ${local} ../escape.mrc`,
        `-put ${local} /in/../../escape.mrc`,
        `-put ${local} /etc/escape.mrc`,
        `-put ${local} out/escape.mrc`,
        `-put ${local} escape.mrc`,
        `-put ${local} in/..`,
        '-get /etc/passwd passwd',
        '-get in/../../etc/passwd passwd',
        '-ls /tmp',
        '-cd ..',
        '-symlink in out/link',
        '-mkdir in/sub',
        '-rm out/anything',
      ],
      dir,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal((await files()).length, before);
    assert.ok(!fs.existsSync(path.join(dir, 'passwd')));
    // Each refused in words, never done.
    const refusals = run.stderr.trim().split('\n');
    assert.equal(refusals.length, 13, run.stderr);
    for (const line of refusals) assert.match(line, /Permission denied|not found|outside your folders/);
  });

  it('keeps nothing of an upload past CARREL_SFTP_MAX_FILE_MB', async () => {
    const before = (await files()).length;
    const local = path.join(dir, 'big.mrc');
    fs.writeFileSync(local, Buffer.concat(Array.from({ length: 4 }, () => fs.readFileSync(marcFile('065001035.mrc')))));
    assert.ok(fs.statSync(local).size > MAX_BYTES);
    const run = await put(local, 'in/big.mrc');
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /write remote "\/in\/big.mrc": Failure/);
    assert.equal((await files()).length, before);
  });

  it('keeps nothing of an upload whose connection is lost before the file is closed', async () => {
    const before = (await files()).length;
    const client = new ssh2.Client();
    await new Promise<void>((resolve, reject) => {
      client.on('ready', () => resolve());
      client.on('error', reject);
      client.connect({ host: '127.0.0.1', port: door.port, username: vendor.name, password: vendor.password });
    });
    const sftp = await new Promise<ssh2.SFTPWrapper>((resolve, reject) => client.sftp((error, s) => (error ? reject(error) : resolve(s))));
    const handle = await new Promise<Buffer>((resolve, reject) =>
      sftp.open('in/half.mrc', 'w', (error, h) => (error ? reject(error) : resolve(h))),
    );
    const half = fs.readFileSync(marcFile('sample1.mrc')).subarray(0, 3000);
    await new Promise<void>((resolve, reject) =>
      sftp.write(handle, half, 0, half.length, 0, (error) => (error ? reject(error) : resolve())),
    );
    const closed = new Promise<void>((resolve) => client.on('close', () => resolve()));
    client.destroy();
    await closed;
    // The same account's next session sees nothing of it either: no file, no report.
    const listed = await sftpBatch(door.port, vendor.name, vendor, ['ls out'], dir);
    assert.equal(listed.code, 0, listed.stderr);
    assert.doesNotMatch(listed.stdout, /half\.mrc/);
    assert.equal((await files()).length, before);
  });

  it('logs in with a key made by ssh-keygen', async () => {
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'id_test')]);
    const keyed = await t.services.sftpAccounts.create('vendor-key', { publicKey: fs.readFileSync(path.join(dir, 'id_test.pub'), 'utf8') });
    const ok = await sftpBatch(door.port, keyed.name, { keyFile: path.join(dir, 'id_test') }, ['ls out'], dir);
    assert.equal(ok.code, 0, ok.stderr);
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'id_other')]);
    const other = await sftpBatch(door.port, keyed.name, { keyFile: path.join(dir, 'id_other') }, ['ls out'], dir);
    assert.notEqual(other.code, 0);
  });

  it('refuses a revoked account, and ends its open session', async () => {
    const kept = await t.services.sftpAccounts.create('vendor-gone');
    const open = new ssh2.Client();
    const closed = new Promise<void>((resolve) => open.on('close', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      open.on('ready', () => resolve());
      open.on('error', reject);
      open.connect({ host: '127.0.0.1', port: door.port, username: kept.name, password: kept.password });
    });
    assert.equal((await sftpBatch(door.port, kept.name, kept, ['ls out'], dir)).code, 0);
    await t.services.sftpAccounts.revoke(kept.name);
    const refused = await sftpBatch(door.port, kept.name, kept, ['ls out'], dir);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /Permission denied/);
    // The session open before the revocation is ended by the door (within its check interval).
    await closed;
  });
});

describe(`the SFTP door's limits, on ${ENGINE}`, () => {
  let t: TestApp;
  let door: SftpDoor;
  /** A door with a short login time-out: too short for OpenSSH's own logins on a busy machine. */
  let hasty: SftpDoor;
  let dir: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-sftp-limits-'));
    t = await createTestApp({ CARREL_DATA_DIR: dir, CARREL_LOGIN_ADDRESS_FAILURES: '2', CARREL_LOGIN_ACCOUNT_FAILURES: '100' });
    door = await openTestDoor(t, {});
    hasty = await openTestDoor(t, { loginTimeoutMs: 300 });
  });
  after(async () => {
    await door?.close();
    await hasty?.close();
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses even the right password from an address past its failed logins', async () => {
    const account = await t.services.sftpAccounts.create('vendor-limited');
    assert.equal((await sftpBatch(door.port, account.name, account, ['ls out'], dir)).code, 0);
    for (let i = 0; i < 2; i++) assert.notEqual((await sftpBatch(door.port, account.name, { password: 'wrong' }, ['ls out'], dir)).code, 0);
    const refused = await sftpBatch(door.port, account.name, account, ['ls out'], dir);
    assert.notEqual(refused.code, 0);
  });

  it('closes a connection that does not log in within the login time-out', async () => {
    const socket = net.connect({ port: hasty.port, host: '127.0.0.1' });
    socket.on('error', () => undefined);
    socket.on('data', () => undefined);
    await new Promise<void>((resolve) => socket.on('close', () => resolve()));
  });
});
