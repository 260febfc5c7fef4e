// An SFTP account's quota (CARREL_SFTP_QUOTA_MB): an upload that would take the bytes its files
// hold past it fails with SSH_FX_FAILURE and a message saying so, and nothing of it is kept, also
// when two uploads opened together would each fit alone.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import ssh2 from 'ssh2';
import type { SftpDoor } from '../../src/sftp/index.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { openTestDoor, sftpBatch } from '../helpers/sftp.ts';

const QUOTA = 100 * 1024;
const FILE = Buffer.alloc(60 * 1024, 'not MARC, not EDIFACT\n');

function sftpOf(port: number, login: { name: string; password: string }): Promise<{ client: ssh2.Client; sftp: ssh2.SFTPWrapper }> {
  const client = new ssh2.Client();
  return new Promise((resolve, reject) => {
    client.on('error', reject);
    client.on('ready', () => client.sftp((error, sftp) => (error ? reject(error) : resolve({ client, sftp }))));
    client.connect({ host: '127.0.0.1', port, username: login.name, password: login.password });
  });
}
const openW = (s: ssh2.SFTPWrapper, name: string) =>
  new Promise<Buffer>((resolve, reject) => s.open(name, 'w', (error, h) => (error ? reject(error) : resolve(h))));
const write = (s: ssh2.SFTPWrapper, h: Buffer, data: Buffer) =>
  new Promise<Error | undefined>((resolve) => s.write(h, data, 0, data.length, 0, (error) => resolve(error ?? undefined)));
const close = (s: ssh2.SFTPWrapper, h: Buffer) =>
  new Promise<Error | undefined>((resolve) => s.close(h, (error) => resolve(error ?? undefined)));

describe(`an SFTP account's quota, on ${ENGINE}`, () => {
  let t: TestApp;
  let door: SftpDoor;
  let dir: string;
  const clients: ssh2.Client[] = [];
  const filesOf = async (account: string) => (await t.services.files.list({ account, limit: 100, offset: 0 })).entries;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-sftp-quota-'));
    t = await createTestApp({ CARREL_DATA_DIR: dir });
    door = await openTestDoor(t, { quotaBytes: QUOTA });
    fs.writeFileSync(path.join(dir, 'a.txt'), FILE);
  });
  after(async () => {
    for (const client of clients) client.destroy();
    await door?.close();
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses an upload that would pass the quota, saying so, and keeps nothing of it', async () => {
    const account = await t.services.sftpAccounts.create('quota-a');
    const first = await sftpBatch(door.port, account.name, account, ['put a.txt in/a.txt'], dir);
    assert.equal(first.code, 0, first.stderr);
    const second = await sftpBatch(door.port, account.name, account, ['put a.txt in/b.txt'], dir);
    assert.notEqual(second.code, 0);
    assert.match(second.stderr, /Failure/);
    assert.deepEqual(
      (await filesOf(account.name)).map((f) => f.name),
      ['a.txt'],
    );
    // The message a client shows (ssh2's, here) names the quota.
    const { client, sftp } = await sftpOf(door.port, account);
    clients.push(client);
    const h = await openW(sftp, 'in/c.txt');
    assert.match((await write(sftp, h, FILE))?.message ?? '', /quota exceeded/);
    assert.match((await close(sftp, h))?.message ?? '', /quota exceeded/);
    assert.equal((await filesOf(account.name)).length, 1);
  });

  it('keeps nothing of the second of two uploads that each fit alone', async () => {
    const account = await t.services.sftpAccounts.create('quota-b');
    const { client, sftp } = await sftpOf(door.port, account);
    clients.push(client);
    const one = await openW(sftp, 'in/one.txt');
    const two = await openW(sftp, 'in/two.txt');
    assert.equal(await write(sftp, one, FILE), undefined);
    assert.equal(await write(sftp, two, FILE), undefined);
    assert.equal(await close(sftp, one), undefined);
    assert.match((await close(sftp, two))?.message ?? '', /quota exceeded/);
    assert.deepEqual(
      (await filesOf(account.name)).map((f) => f.name),
      ['one.txt'],
    );
  });
});
