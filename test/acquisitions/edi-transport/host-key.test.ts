// Carrel checks a vendor's SFTP host key as an unattended OpenSSH client with
// StrictHostKeyChecking=accept-new does: with none set, the first connection records the key the
// server offers (its fingerprint as ssh-keygen -lf prints it); a server offering another key is then
// refused, naming the vendor and both fingerprints, with nothing sent or fetched, until the library
// sets the new one. Two servers with two host keys, one after the other on the same port.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { caller, create, type Caller } from '../../helpers/api.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { setUpLibrary } from '../../helpers/circulation.ts';
import { ENGINE } from '../../helpers/db.ts';
import { bearer } from '../../helpers/tokens.ts';
import { startVendorServer, type VendorServer } from '../../helpers/vendor-sftp.ts';

const USER = 'lib-hk';
const PASSWORD = 'host-key-secret';

/** The fingerprint OpenSSH's own tool prints for a public key. */
function sshKeygenFingerprint(publicKey: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-host-key-'));
  try {
    fs.writeFileSync(path.join(dir, 'key.pub'), `${publicKey}\n`);
    const printed = execFileSync('ssh-keygen', ['-lf', path.join(dir, 'key.pub')], { encoding: 'utf8' });
    return /SHA256:\S+/.exec(printed)![0];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const hasSshKeygen = (() => {
  try {
    execFileSync('ssh-keygen', ['-?'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    return (error as { status?: number }).status !== undefined;
  }
})();

describe(`a vendor's SFTP host key, on ${ENGINE}`, { skip: !hasSshKeygen && 'ssh-keygen (openssh-client) is not installed' }, () => {
  let t: TestApp;
  let api: Caller;
  let vendorId = '';
  let first: VendorServer;
  let second: VendorServer | undefined;
  let bib = '';
  const edi = async () => (await api.get(`/v6/vendors/${vendorId}/edi`)).json();
  const order = () =>
    create(api, '/v6/orders', {
      bibId: bib,
      vendor: 'hk',
      fund: 'books',
      copies: 1,
      location: [{ locationCode: 'mn', copies: 1 }],
      estimatedPrice: 9.99,
    });
  const point = (port: number, extra: Record<string, unknown> = {}) =>
    api.send('PUT', `/v6/vendors/${vendorId}/edi`, {
      connection: { protocol: 'sftp', host: '127.0.0.1', port, user: USER, ordersFolder: 'in', filesFolder: 'out', ...extra },
    });

  before(async () => {
    t = await createTestApp({ CARREL_SECRETS_KEY: Buffer.alloc(32, 5).toString('base64') });
    api = caller(t, await bearer(t, ['Invoices_Write', 'Acquisitions_Write', 'Files_Read']));
    await setUpLibrary(t.testDb.db);
    const [row] = await t.testDb.db.query<{ id: string }>(
      `insert into bibs (title, isbns, created_date, updated_date) values ('Keyed', '{9780306406157}', now(), now()) returning id::text as id`,
    );
    bib = row!.id;
    await create(api, '/v6/funds', { code: 'books', fundName: 'Books', appropriation: '100.00' });
    vendorId = await create(api, '/v6/vendors', { code: 'hk', vendorName: 'Host Key Books' });
    first = await startVendorServer(USER, PASSWORD, ['in', 'out']);
    const set = await api.send('PUT', `/v6/vendors/${vendorId}/edi`, {
      partyIds: [{ qualifier: '31B', id: '1234560' }],
      libraryPartyId: { qualifier: '91', id: 'LIBHK' },
    });
    assert.equal(set.statusCode, 200, set.body);
    assert.equal((await point(first.port, { password: PASSWORD })).statusCode, 200);
  });
  after(async () => {
    await first?.close();
    await second?.close();
    await t?.close();
  });

  it('records the key the server offers on the first connection, as ssh-keygen -lf prints it', async () => {
    assert.equal((await edi()).connection.hostKey, null);
    await order();
    const [sent] = await t.services.ediTransport.send({ vendor: 'hk' });
    assert.equal(sent?.outcome, 'sent', JSON.stringify(sent));
    assert.equal((await edi()).connection.hostKey, sshKeygenFingerprint(first.publicKey));
  });

  it('refuses a server offering another key, naming the vendor and both keys, sending and fetching nothing', async () => {
    const port = first.port;
    const expected = (await edi()).connection.hostKey as string;
    await first.close();
    second = await startVendorServer(USER, PASSWORD, ['in', 'out'], port);
    const offered = sshKeygenFingerprint(second.publicKey);
    assert.notEqual(offered, expected);
    const pending = await order();
    fs.writeFileSync(path.join(second.root, 'out', 'I1.EDI'), "UNA:+.? '");

    const [sent] = await t.services.ediTransport.send({ vendor: 'hk' });
    assert.equal(sent?.outcome, 'failed');
    assert.ok(
      sent.error!.includes(
        `vendor hk's server offered host key ${offered}, not the ${expected} expected: refused, nothing sent or fetched`,
      ),
      sent.error,
    );
    const [fetched] = await t.services.ediTransport.fetch({ vendor: 'hk' });
    assert.equal(fetched?.outcome, 'failed');
    assert.match(fetched.error!, /offered host key/);
    assert.deepEqual(fs.readdirSync(path.join(second.root, 'in')), [], 'nothing sent');
    assert.equal((await api.get('/v6/files')).json().total, 0, 'nothing fetched');
    const [dry] = await t.services.ediTransport.send({ vendor: 'hk', dryRun: true });
    assert.deepEqual(dry?.orders, [pending], 'the order is still to be sent');
    assert.equal((await edi()).connection.hostKey, expected, 'the key expected is kept');

    // The library checks the new key with the vendor and sets it: the same server, so the password stays.
    assert.equal((await point(port, { hostKey: offered })).statusCode, 200);
    const [again] = await t.services.ediTransport.send({ vendor: 'hk' });
    assert.equal(again?.outcome, 'sent', JSON.stringify(again));
    assert.deepEqual(fs.readdirSync(path.join(second.root, 'in')), [again.file]);
  });

  it('forgets the key when the server moves, and refuses a key that is not a fingerprint', async () => {
    const kept = (await edi()).connection.hostKey as string;
    assert.equal((await point(second!.port)).statusCode, 200);
    assert.equal((await edi()).connection.hostKey, kept, 'the same server keeps its key');
    assert.equal((await point(second!.port + 1)).statusCode, 200);
    assert.equal((await edi()).connection.hostKey, null, 'another port is another server');

    for (const [body, named] of [
      [{ hostKey: 'MD5:16:27:ac:a5:76:28:2d:36:63:1b:56:4d:eb:df:a6:48' }, /connection\.hostKey: a host key fingerprint/],
      [{ hostKey: `SHA256:${'a'.repeat(42)}` }, /connection\.hostKey/],
      [{ protocol: 'ftp', hostKey: kept }, /connection\.hostKey: only an SFTP server/],
      [{ protocol: 'ftp', hostKey: kept, port: second!.port + 1 }, /connection\.hostKey: only an SFTP server/],
    ] as const) {
      const res = await point(second!.port, body);
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.json().description, named);
    }
    assert.equal((await edi()).connection.hostKey, null, 'a refused change keeps nothing');
  });
});
