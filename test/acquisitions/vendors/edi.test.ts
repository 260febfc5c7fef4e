// A vendor's EDI settings: its party identifiers (checked, one vendor each, found again from an
// interchange), the library's identifier, and the vendor's server with a password kept sealed —
// through the API and the `carrel vendors edi` command, on both engines.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SecretBox } from '../../../src/shared/secret-box.ts';
import { caller, create, type Caller } from '../../helpers/api.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { commandWorkspace, ENGINE } from '../../helpers/db.ts';
import { carrel } from '../../helpers/process.ts';
import { bearer } from '../../helpers/tokens.ts';

const SAN = '1234560';
const GLN = '5012345678900';
const PASSWORD = 'vendor-Secret-7319';

/** A refusal in Sierra's error body, its description matching. */
function assertRefused(res: { statusCode: number; json(): any; body: string }, status: number, description?: RegExp): void {
  assert.equal(res.statusCode, status, res.body);
  const body = res.json();
  assert.deepEqual(Object.keys(body).sort(), ['code', 'description', 'httpStatus', 'name', 'specificCode']);
  if (description) assert.match(String(body.description), description);
}

describe(`vendor EDI settings through the API on ${ENGINE}`, () => {
  let t: TestApp;
  let writer: Caller;
  let reader: Caller;
  let bls: string;
  let other: string;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-edi-'));
  before(async () => {
    t = await createTestApp({ CARREL_DATA_DIR: dataDir });
    writer = caller(t, await bearer(t, ['Invoices_Write']));
    reader = caller(t, await bearer(t, ['Invoices_Read']));
    bls = (await create(writer, '/v6/vendors', { code: 'bls', vendorName: 'BLS' })).split('/').at(-1)!;
    other = (await create(writer, '/v6/vendors', { code: 'askews', vendorName: 'Askews' })).split('/').at(-1)!;
  });
  after(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps identifiers and a server, answers the password only as set, and seals it at rest', async () => {
    assert.deepEqual((await reader.get(`/v6/vendors/${bls}/edi`)).json(), {
      partyIds: [],
      libraryPartyId: null,
      connection: null,
      ordersPickup: false,
    });
    const res = await writer.send('PUT', `/v6/vendors/${bls}/edi`, {
      partyIds: [
        { qualifier: '31B', id: '123-4560' },
        { qualifier: '14', id: GLN },
      ],
      libraryPartyId: { qualifier: '31B', id: '000345X' },
      connection: { protocol: 'sftp', host: 'edi.example.org', user: 'lib42', password: PASSWORD, ordersFolder: 'in', filesFolder: 'out' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const expected = {
      partyIds: [
        { qualifier: '31B', id: SAN },
        { qualifier: '14', id: GLN },
      ],
      libraryPartyId: { qualifier: '31B', id: '000345X' },
      connection: {
        protocol: 'sftp',
        host: 'edi.example.org',
        port: 22,
        user: 'lib42',
        passwordSet: true,
        ordersFolder: 'in',
        filesFolder: 'out',
        hostKey: null,
      },
      ordersPickup: false,
    };
    assert.deepEqual(res.json(), expected);
    assert.deepEqual((await reader.get(`/v6/vendors/${bls}/edi`)).json(), expected);

    const [row] = await t.testDb.db.query<{ password_sealed: string }>('select password_sealed from vendor_edi where vendor_id = $1', [
      bls,
    ]);
    assert.ok(row && !row.password_sealed.includes(PASSWORD) && row.password_sealed.startsWith('v1:'));
    assert.equal((await t.services.vendorEdi.connectionWithPassword(bls))?.password, PASSWORD);
    assert.ok(!JSON.stringify(t.logs).includes(PASSWORD), 'the password is never logged');

    // The same server and login given again without a password keep the one kept; another server or
    // login forgets it (a password is never sent where it was not given for); null forgets the server.
    const server = { protocol: 'sftp', host: 'edi.example.org', user: 'lib42', ordersFolder: 'orders' };
    await writer.send('PUT', `/v6/vendors/${bls}/edi`, { connection: server });
    const same = await t.services.vendorEdi.connectionWithPassword(bls);
    assert.deepEqual([same?.ordersFolder, same?.password], ['orders', PASSWORD]);
    for (const other of [{ host: 'elsewhere.example.org' }, { user: 'lib43' }, { port: 2222 }, { protocol: 'ftps' }]) {
      await writer.send('PUT', `/v6/vendors/${bls}/edi`, { connection: { ...server, password: PASSWORD } });
      await writer.send('PUT', `/v6/vendors/${bls}/edi`, { connection: { ...server, ...other } });
      const moved = await t.services.vendorEdi.connectionWithPassword(bls);
      assert.equal(moved?.password, undefined, `changing ${Object.keys(other)[0]} forgets the password`);
    }
    assert.deepEqual((await reader.get(`/v6/vendors/${bls}/edi`)).json().partyIds, expected.partyIds, 'untouched members stay');
    await writer.send('PUT', `/v6/vendors/${bls}/edi`, { connection: null });
    assert.equal(await t.services.vendorEdi.connectionWithPassword(bls), undefined);
    // Collection from the door is set on its own, and kept when other members change.
    const picked = await writer.send('PUT', `/v6/vendors/${bls}/edi`, { ordersPickup: true });
    assert.equal(picked.json().ordersPickup, true);
    await writer.send('PUT', `/v6/vendors/${bls}/edi`, { libraryPartyId: { qualifier: '31B', id: '000345X' } });
    assert.equal((await reader.get(`/v6/vendors/${bls}/edi`)).json().ordersPickup, true);
    assert.equal((await writer.send('PUT', `/v6/vendors/${bls}/edi`, { ordersPickup: 'yes' })).statusCode, 400);
    await writer.send('PUT', `/v6/vendors/${bls}/edi`, { ordersPickup: false });
    assert.equal((await t.testDb.db.query('select 1 from vendor_edi where password_sealed is not null')).length, 0);
  });

  it('finds the vendor an interchange names, by SAN or GLN as written, or by its code', async () => {
    const find = (id: string) => t.services.vendorEdi.findByParty(id);
    assert.equal((await find('123-4560'))?.code, 'bls');
    assert.equal((await find(GLN))?.code, 'bls');
    assert.equal((await find('ASKEWS'))?.code, 'askews');
    assert.equal(await find('9999999'), undefined);
  });

  it('refuses a bad identifier, one another vendor holds, and a folder that climbs out', async () => {
    const put = (body: unknown) => writer.send('PUT', `/v6/vendors/${other}/edi`, body);
    assertRefused(await put({ partyIds: [{ qualifier: '31B', id: '1234561' }] }), 400, /partyIds\[0\]\.id: "1234561" is not a SAN/);
    assertRefused(await put({ partyIds: [{ qualifier: '14', id: '5012345678901' }] }), 400, /partyIds\[0\]\.id: .* is not a GLN/);
    assertRefused(await put({ partyIds: [{ qualifier: 'ZZ', id: '1' }] }), 400, /partyIds/);
    assertRefused(
      await put({
        partyIds: [
          { qualifier: '92', id: 'A1' },
          { qualifier: '91', id: 'A1' },
        ],
      }),
      400,
      /partyIds\[1\]\.id: A1 is given twice/,
    );
    const taken = await put({ partyIds: [{ qualifier: '31B', id: SAN }] });
    assertRefused(taken, 409, /party identifier 1234560 already names vendor bls/);
    assert.equal(taken.json().specificCode, 14);
    assertRefused(
      await put({ connection: { protocol: 'sftp', host: 'h.example.org', user: 'u', ordersFolder: 'in/../../etc' } }),
      400,
      /connection\.ordersFolder/,
    );
    assertRefused(await put({ connection: { protocol: 'sftp', host: 'h example', user: 'u' } }), 400, /connection\.host/);
    // Nothing of a refused change was kept.
    assert.deepEqual((await reader.get(`/v6/vendors/${other}/edi`)).json(), {
      partyIds: [],
      libraryPartyId: null,
      connection: null,
      ordersPickup: false,
    });
    assertRefused(await reader.send('PUT', `/v6/vendors/${other}/edi`, { partyIds: [] }), 403);
    assertRefused(await reader.get('/v6/vendors/999999/edi'), 404);
  });
});

describe('sealed secrets', () => {
  it('makes a key file once, readable by the owner only, and opens only what it sealed', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-box-'));
    try {
      const box = new SecretBox(undefined, dir);
      const sealed = box.seal('pässword', 'vendor-edi-password:1');
      assert.equal(fs.statSync(path.join(dir, 'secrets.key')).mode & 0o777, 0o600);
      assert.equal(new SecretBox(undefined, dir).open(sealed, 'vendor-edi-password:1'), 'pässword', 'a second process reads the same key');
      assert.notEqual(box.seal('pässword', 'vendor-edi-password:1'), sealed, 'a fresh nonce each time');
      assert.throws(() => new SecretBox(Buffer.alloc(32, 7), dir).open(sealed, 'vendor-edi-password:1'), 'another key');
      assert.throws(() => box.open(sealed, 'vendor-edi-password:2'), 'sealed for another row');
      assert.throws(() => box.open(sealed.slice(0, -4) + 'AAAA', 'vendor-edi-password:1'), 'changed');
      assert.throws(() => box.open(sealed.slice(0, 20), 'vendor-edi-password:1'), 'cut short');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe(`carrel vendors edi on ${ENGINE}`, () => {
  const work = commandWorkspace('vendor-edi');

  it('sets identifiers and a server with the password from standard input, and never prints it', async () => {
    const env = () => ({ ...work.env, CARREL_SECRETS_KEY: Buffer.alloc(32, 3).toString('base64') });
    assert.equal((await carrel(['vendors', 'create', 'bls', '--name', 'BLS'], env())).code, 0);
    const set = await carrel(
      [
        'vendors',
        'edi',
        'set',
        'bls',
        '--party',
        '31B:1234560',
        '--party',
        GLN,
        '--protocol',
        'sftp',
        '--host',
        'edi.example.org',
        '--user',
        'lib42',
        '--password-stdin',
        '--host-key',
        `SHA256:${'Ab1+/'.repeat(8)}xyz`,
        '--json',
      ],
      env(),
      `${PASSWORD}\n`,
    );
    assert.equal(set.code, 0, set.stderr);
    assert.ok(!set.stdout.includes(PASSWORD) && !set.stderr.includes(PASSWORD));
    assert.deepEqual(JSON.parse(set.stdout).partyIds, [
      { qualifier: '31B', id: SAN },
      { qualifier: '14', id: GLN },
    ]);
    const shown = await carrel(['vendors', 'edi', 'show', 'bls'], env());
    assert.match(shown.stdout, /sftp:\/\/lib42@edi\.example\.org:22 \(password set\)/);
    assert.match(shown.stdout, /host key: {7}SHA256:(Ab1\+\/){8}xyz\n/);
    const bad = await carrel(['vendors', 'edi', 'set', 'bls', '--host', 'x.example.org'], env());
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /--protocol, --host and --user/);
  });
});
