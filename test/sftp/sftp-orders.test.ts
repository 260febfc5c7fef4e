// Orders a vendor collects from Carrel's SFTP door (its EDI settings' ordersPickup): `edi send`
// leaves one ORDERS interchange in out/ of the vendor's account, the same bytes `edi get` gives;
// read in part it stays waiting, read whole (OpenSSH's sftp `get`) it is marked sent and leaves
// out/; an order is in one file only, and no other account sees the file.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import ssh2 from 'ssh2';
import { readInterchange, readOrder } from '../../src/edifact/index.ts';
import type { SftpDoor } from '../../src/sftp/index.ts';
import { caller } from '../helpers/api.ts';
import { setUpAcquisitions } from '../helpers/acquisitions.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { openTestDoor, sftpBatch } from '../helpers/sftp.ts';
import { bearer } from '../helpers/tokens.ts';

/** Opens `name` through the ssh2 client, reads its first `bytes` bytes only, and closes it. */
async function readPart(port: number, login: { name: string; password: string }, name: string, bytes: number): Promise<Buffer> {
  const client = new ssh2.Client();
  try {
    await new Promise<void>((resolve, reject) => {
      client.on('ready', () => resolve());
      client.on('error', reject);
      client.connect({ host: '127.0.0.1', port, username: login.name, password: login.password });
    });
    const sftp = await new Promise<ssh2.SFTPWrapper>((resolve, reject) => client.sftp((e, s) => (e ? reject(e) : resolve(s))));
    const handle = await new Promise<Buffer>((resolve, reject) => sftp.open(name, 'r', (e, h) => (e ? reject(e) : resolve(h))));
    const buffer = Buffer.alloc(bytes);
    const read = await new Promise<number>((resolve, reject) =>
      sftp.read(handle, buffer, 0, bytes, 0, (e, n) => (e ? reject(e) : resolve(n))),
    );
    await new Promise<void>((resolve, reject) => sftp.close(handle, (e) => (e ? reject(e) : resolve())));
    return buffer.subarray(0, read);
  } finally {
    client.end();
  }
}

describe(`orders a vendor collects from out/, on ${ENGINE}`, () => {
  let t: TestApp;
  let door: SftpDoor;
  let dir: string;
  let bibId: string;
  let vendorId: string;
  let pickup: { name: string; password: string };
  let other: { name: string; password: string };

  const place = () =>
    t.services.orders.create({
      bibId,
      vendor: 'ebsco',
      fund: 'books',
      copies: 1,
      location: [{ locationCode: 'mn', copies: 1 }],
      estimatedPrice: '10.00',
    });
  const listOut = async (login: { name: string; password: string }) => {
    const run = await sftpBatch(door.port, login.name, login, ['ls -1 out'], dir);
    assert.equal(run.code, 0, run.stderr);
    return run.stdout
      .split('\n')
      .filter((line) => /\.CEP$/.test(line.trim()))
      .map((line) => path.basename(line.trim()));
  };
  const interchange = async (file: string) => (await t.services.ediTransport.interchanges({ limit: 50 })).find((i) => i.file === file)!;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-sftp-orders-'));
    t = await createTestApp({ CARREL_DATA_DIR: dir });
    ({ vendorId } = await setUpAcquisitions(caller(t, await bearer(t, ['Invoices_Write']))));
    await t.services.vendorEdi.set(vendorId, {
      partyIds: [{ qualifier: '91', id: 'EBSCO1' }],
      libraryPartyId: { qualifier: '91', id: 'LIB42' },
      ordersPickup: true,
    });
    await setUpLibrary(t.testDb.db);
    bibId = await addBib(t.testDb.db, 'Collected by the vendor');
    door = await openTestDoor(t, {});
  });
  after(async () => {
    await door?.close();
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses to prepare orders for collection when no SFTP account is tied to the vendor', async () => {
    await place();
    const [result] = await t.services.ediTransport.send({ vendor: 'ebsco' });
    assert.equal(result?.outcome, 'refused');
    assert.match(result.error!, /no SFTP account is tied to it/);
    assert.deepEqual(await t.services.ediTransport.interchanges({ limit: 50 }), []);
  });

  it('leaves the interchange in out/ of the vendor’s account, marked sent only once read whole', async () => {
    pickup = await t.services.sftpAccounts.create('ebsco-orders', { vendor: 'ebsco' });
    other = await t.services.sftpAccounts.create('someone-else', { vendor: 'other' });
    await place();
    const [result] = await t.services.ediTransport.send({ vendor: 'ebsco' });
    assert.equal(result?.outcome, 'waiting', JSON.stringify(result));
    assert.equal(result.orders?.length, 2);
    const file = result.file!;
    assert.equal((await interchange(file)).status, 'prepared');
    assert.deepEqual(await listOut(pickup), [file]);
    assert.deepEqual(await listOut(other), [], 'another account never sees it');
    const got = await sftpBatch(door.port, other.name, other, [`get out/${file}`], dir);
    assert.notEqual(got.code, 0);
    assert.ok(!fs.existsSync(path.join(dir, file)));

    // Read in part and closed: still waiting, whole.
    const bytes = await t.services.ediTransport.interchangeBytes(result.controlReference!);
    const part = await readPart(door.port, pickup, `out/${file}`, 20);
    assert.deepEqual(part, Buffer.from(bytes).subarray(0, 20));
    assert.equal((await interchange(file)).status, 'prepared');
    assert.deepEqual(await listOut(pickup), [file]);

    // Read whole by OpenSSH's sftp: the same bytes; sent, through this account; gone from out/.
    const whole = await sftpBatch(door.port, pickup.name, pickup, [`get out/${file}`], dir);
    assert.equal(whole.code, 0, whole.stderr);
    const kept = fs.readFileSync(path.join(dir, file));
    assert.deepEqual(kept, Buffer.from(bytes));
    const { interchange: read } = readInterchange(kept);
    assert.deepEqual(
      read!.messages.map((m) => {
        const order = readOrder(m);
        return 'order' in order ? order.order.orderNumber : undefined;
      }),
      result.orders,
    );
    const sent = await interchange(file);
    assert.equal(sent.status, 'sent');
    assert.equal(sent.deliveredTo, 'sftp:ebsco-orders');
    assert.deepEqual(await listOut(pickup), []);
    const again = await sftpBatch(door.port, pickup.name, pickup, [`get out/${file} again.CEP`], dir);
    assert.notEqual(again.code, 0);
  });

  it('puts an order in one file only: the next send carries only the orders placed since', async () => {
    assert.deepEqual(await t.services.ediTransport.send({ vendor: 'ebsco' }), [{ vendor: 'ebsco', outcome: 'nothing', resolved: [] }]);
    const third = await place();
    const [result] = await t.services.ediTransport.send({ vendor: 'ebsco' });
    assert.equal(result?.outcome, 'waiting');
    assert.deepEqual(result.orders, [third]);
    assert.deepEqual(await listOut(pickup), [result.file]);
    // The scheduled run visits a vendor that collects its orders, and has nothing more to leave.
    const run = await t.services.ediTransport.scheduled();
    assert.deepEqual(run?.sent, []);
    assert.deepEqual(await listOut(pickup), [result.file]);
  });
});
