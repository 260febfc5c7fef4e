// An account's quota (CARREL_SFTP_QUOTA_MB) at the FTP door: one quota per account whichever door
// its files came by. An upload is refused with 552 when the account's files fill it already, when
// what it brings would pass it, and when another upload took its room while it came; nothing of
// it is kept.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FtpDoor } from '../../src/ftp/index.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { basicFtp, ftplib, ftplibLive, openTestFtpDoor } from '../helpers/ftp.ts';

const QUOTA = 100 * 1024;
const FILE = Buffer.alloc(60 * 1024, 'not MARC, not EDIFACT\n');

describe(`an account's quota at the FTP door, on ${ENGINE}`, () => {
  let t: TestApp;
  let door: FtpDoor;
  let dir: string;
  const names = async (account: string) =>
    (await t.services.files.list({ account, limit: 100, offset: 0 })).entries.map((f) => f.name).sort();

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-ftp-quota-'));
    t = await createTestApp({ CARREL_DATA_DIR: dir });
    door = await openTestFtpDoor(t, {}, { quotaBytes: QUOTA });
    fs.writeFileSync(path.join(dir, 'a.txt'), FILE);
    // Far past the quota, and past what the sockets between client and door buffer.
    fs.writeFileSync(path.join(dir, 'big.txt'), Buffer.alloc(32 * 1024 * 1024, 'x'));
  });
  after(async () => {
    await door?.close();
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses an upload at once (552, no data connection used) when files from any door fill the quota', async () => {
    const account = await t.services.sftpAccounts.create('ftp-quota-full');
    // As the SFTP door keeps a file: the same account, the same quota.
    await t.services.files.receive(account.name, 'full.txt', Buffer.alloc(QUOTA, 'x'));
    const run = await ftplib(
      door.port,
      account,
      { tls: true, cwd: dir },
      `
f = connect()
try:
    c = f.transfercmd('STOR in/more.txt')
    out(opened=True)
except ftplib.error_perm as e:
    out(reply=str(e))
`,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(String(run.lines[0]?.reply), /^552 quota exceeded/);
    assert.deepEqual(await names(account.name), ['full.txt']);
  });

  it('refuses an upload that passes the quota as it comes, keeping nothing of it', async () => {
    const account = await t.services.sftpAccounts.create('ftp-quota-a');
    const client = await basicFtp(door.port, account, true);
    try {
      await client.uploadFrom(path.join(dir, 'a.txt'), 'in/a.txt');
    } finally {
      client.close();
    }
    const run = await ftplib(
      door.port,
      account,
      { tls: true, cwd: dir },
      `
f = connect()
c = f.transfercmd('STOR in/b.txt')
out(opened=True)
try:
    c.sendall(open('big.txt', 'rb').read())
    c.unwrap().close()
    out(cut=False)
except OSError:
    # The door closed the data connection under the client's feet: its reply follows.
    out(cut=True)
try:
    out(reply=f.voidresp())
except ftplib.error_perm as e:
    out(reply=str(e))
`,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.lines[0]?.opened, true);
    // The door stops reading once the file passes the room left, rather than spool all of it.
    assert.equal(run.lines[1]?.cut, true);
    assert.match(String(run.lines[2]?.reply), /^552 quota exceeded/);
    assert.deepEqual(await names(account.name), ['a.txt']);
  });

  it('keeps nothing of an upload whose room another upload took while it came', async () => {
    const account = await t.services.sftpAccounts.create('ftp-quota-b');
    const go = path.join(dir, 'go');
    const live = ftplibLive(
      door.port,
      account,
      { tls: true, cwd: dir },
      `
import time
f = connect()
c = f.transfercmd('STOR in/two.txt')
c.sendall(open('a.txt', 'rb').read())
out(sent=True)
while not os.path.exists('go'):
    time.sleep(0.05)
c.unwrap().close()
try:
    out(reply=f.voidresp())
except ftplib.error_perm as e:
    out(reply=str(e))
`,
    );
    assert.deepEqual(await live.next(), { sent: true });
    // Another upload of the account, kept while this one is open: each fits alone, not both.
    await t.services.files.receive(account.name, 'one.txt', FILE);
    fs.writeFileSync(go, '');
    const reply = await live.next();
    const done = await live.done;
    assert.equal(done.code, 0, done.stderr);
    assert.match(String(reply?.reply), /^552 quota exceeded/);
    assert.deepEqual(await names(account.name), ['one.txt']);
  });
});
