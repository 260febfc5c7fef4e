// Public key logins on the SFTP door count against the client address's limit of failed logins as
// wrong passwords do: a signed attempt that fails is a failure, and past the limit even the right
// key is refused. Offering a key that is not the account's (OpenSSH offers each key it holds)
// proves nothing and is not counted.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import ssh2 from 'ssh2';
import type { SftpDoor } from '../../src/sftp/index.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { openTestDoor, sftpBatch } from '../helpers/sftp.ts';

/** Logs in with the account's own key but a signature that does not verify; answers how it ended. */
function forgedSignature(port: number, username: string, keyFile: string): Promise<string> {
  const key = ssh2.utils.parseKey(fs.readFileSync(keyFile));
  assert.ok(!(key instanceof Error));
  key.sign = () => Buffer.alloc(64, 7);
  const method: ssh2.PublicKeyAuthMethod = { type: 'publickey', username, key };
  const client = new ssh2.Client();
  return new Promise<string>((resolve) => {
    client.on('error', (error) => resolve(error.message));
    client.on('ready', () => resolve('logged in'));
    client.on('close', () => resolve('closed'));
    // A parsed key is taken only through authHandler (privateKey must be text).
    client.connect({ host: '127.0.0.1', port, username, authHandler: [method] });
  }).finally(() => client.destroy());
}

describe(`failed public key logins on the SFTP door, on ${ENGINE}`, () => {
  let t: TestApp;
  let door: SftpDoor;
  let dir: string;
  let keyFile: string;
  let otherKey: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-sftp-keys-'));
    t = await createTestApp({ CARREL_DATA_DIR: dir, CARREL_LOGIN_ADDRESS_FAILURES: '2', CARREL_LOGIN_ACCOUNT_FAILURES: '100' });
    door = await openTestDoor(t, {});
    keyFile = path.join(dir, 'id_vendor');
    otherKey = path.join(dir, 'id_other');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', keyFile]);
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', otherKey]);
    await t.services.sftpAccounts.create('vendor-keyed', { publicKey: fs.readFileSync(`${keyFile}.pub`, 'utf8') });
  });
  after(async () => {
    await door?.close();
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('does not count a key offered that is not the account’s', async () => {
    for (let i = 0; i < 3; i++)
      assert.notEqual((await sftpBatch(door.port, 'vendor-keyed', { keyFile: otherKey }, ['ls out'], dir)).code, 0);
    const ok = await sftpBatch(door.port, 'vendor-keyed', { keyFile }, ['ls out'], dir);
    assert.equal(ok.code, 0, ok.stderr);
  });

  it('counts signatures that fail, and past the limit refuses even the right key', async () => {
    for (let i = 0; i < 2; i++) assert.match(await forgedSignature(door.port, 'vendor-keyed', keyFile), /authentication methods failed/);
    const refused = await sftpBatch(door.port, 'vendor-keyed', { keyFile }, ['ls out'], dir);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /Permission denied/);
  });
});
