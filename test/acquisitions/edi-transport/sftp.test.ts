// `carrel edi send|fetch` through the real command against a vendor's SFTP server the test starts
// (ssh2's Server, a temporary folder as its root): orders go out as one ORDERS interchange that
// reads back to the same orders; nothing is sent twice; a refused upload leaves the orders
// pending; the vendor's files are fetched once and processed; a wrong password is said plainly.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { readInterchange } from '../../../src/edifact/index.ts';
import { ENGINE } from '../../helpers/db.ts';
import { ediWorkspace } from '../../helpers/edi-transport.ts';
import { marcFile } from '../../helpers/shared-data.ts';
import { startVendorServer } from '../../helpers/vendor-sftp.ts';

const PASSWORD = 'vendor-secret-42';

describe(`carrel edi send and fetch with a vendor's SFTP server, on ${ENGINE}`, () => {
  const w = ediWorkspace({ vendor: 'ebsco', protocol: 'sftp', user: 'lib42', password: PASSWORD, start: startVendorServer });
  const { run, sql, setServer, place, ordersSent, readSent } = w;
  let bibs: string[] = [];
  before(async () => {
    bibs = [
      await w.bib('Ordered by EDI', '978-0-306-40615-7'),
      await w.bib('Also ordered', '0306406152'),
      await w.bib('Ordered later', '9781861972712'),
    ];
  });

  it('refuses to send for a vendor without an EDI identity', async () => {
    await place(bibs[0]!, 2);
    const r = await run(['edi', 'send', '--vendor', 'ebsco']);
    assert.notEqual(r.code, 0);
    assert.match(r.stdout, /ebsco: refused: vendor ebsco has no EDI identity/);
  });

  it('a wrong password is a clear error and marks nothing sent', async () => {
    assert.equal((await run(['vendors', 'edi', 'set', 'ebsco', '--party', '31B:1234560', '--library-party', '91:LIB42'])).code, 0);
    assert.equal((await setServer('wrong')).code, 0);
    const sent = await run(['edi', 'send', '--json']);
    assert.notEqual(sent.code, 0);
    const [result] = sent.json() as { outcome: string; error: string }[];
    assert.equal(result?.outcome, 'failed');
    assert.match(result.error, /the login lib42 was refused \(wrong user or password\)/);
    const fetched = await run(['edi', 'fetch', '--json']);
    assert.notEqual(fetched.code, 0);
    assert.match(fetched.stdout, /wrong user or password/);
    assert.deepEqual(ordersSent(), []);
    const dry = (await run(['edi', 'send', '--dry-run', '--json'])).json() as { orders: string[] }[];
    assert.equal(dry[0]?.orders.length, 1, 'still pending');
  });

  it('sends the orders once as one ORDERS interchange that reads back to the same orders', async () => {
    assert.equal((await setServer(PASSWORD)).code, 0);
    const second = await place(bibs[1]!, 1);
    const sent = await run(['edi', 'send', '--vendor', 'ebsco', '--json']);
    assert.equal(sent.code, 0, sent.stderr + sent.stdout);
    const [result] = sent.json() as { outcome: string; file: string; orders: string[]; controlReference: string }[];
    assert.equal(result?.outcome, 'sent');
    assert.deepEqual(ordersSent(), [result.file]);
    assert.match(result.file, /^ord\d+\.CEP$/);
    const orders = readSent(result.file);
    assert.deepEqual(
      orders.map((o) => o.lines.map((l) => [l.reference, l.quantity, l.isbn, l.copies?.map((c) => c.branch)])),
      [[[`o${result.orders[0]}`, 2, '9780306406157', [w.here, w.here]]], [[second.lineReference, 1, '0306406152', [w.here]]]],
    );
    assert.deepEqual(
      orders.map((o) => [o.buyer, o.supplier]),
      orders.map(() => [
        { qualifier: '91', id: 'LIB42' },
        { qualifier: '31B', id: '1234560' },
      ]),
    );

    const again = await run(['edi', 'send', '--json']);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(again.json(), []);
    assert.deepEqual(ordersSent(), [result.file], 'nothing sent twice');
  });

  it('a refused upload leaves the order pending; the next run sends it, and only it', async () => {
    const later = await place(bibs[2]!, 3);
    w.server.refuseWrites = true;
    const refused = await run(['edi', 'send', '--json']);
    assert.notEqual(refused.code, 0);
    const [failed] = refused.json() as { outcome: string; error: string }[];
    assert.equal(failed?.outcome, 'failed');
    assert.match(failed.error, /uploading orders\/ord\d+\.CEP\.part/);
    assert.equal(ordersSent().length, 1);
    const dry = (await run(['edi', 'send', '--dry-run', '--json'])).json() as { orders: string[] }[];
    assert.deepEqual(dry[0]?.orders, [later.id]);

    w.server.refuseWrites = false;
    const sent = await run(['edi', 'send', '--json']);
    assert.equal(sent.code, 0, sent.stdout);
    const [result] = sent.json() as { outcome: string; file: string }[];
    assert.equal(result?.outcome, 'sent');
    assert.equal(ordersSent().length, 2);
    assert.deepEqual(
      readSent(result.file).map((o) => o.lines.map((l) => [l.reference, l.quantity])),
      [[[later.lineReference, 3]]],
    );
  });

  it('fetches the files the vendor left once, and processes them', async () => {
    fs.copyFileSync(marcFile('brkrtest.mrc'), path.join(w.server.root, 'files', 'brkrtest.mrc'));
    fs.copyFileSync(path.join(w.server.root, 'orders', ordersSent()[0]!), path.join(w.server.root, 'files', 'echo.edi'));
    const fetched = await run(['edi', 'fetch', '--vendor', 'ebsco', '--json']);
    assert.equal(fetched.code, 0, fetched.stdout + fetched.stderr);
    const [result] = fetched.json() as { outcome: string; files: { name: string; fileId: string }[] }[];
    assert.equal(result?.outcome, 'fetched');
    assert.deepEqual(result.files.map((f) => f.name).sort(), ['brkrtest.mrc', 'echo.edi']);
    const files = (await run(['files', 'list', '--json'])).json() as {
      id: string;
      account: string;
      name: string;
      kind: string;
      status: string;
    }[];
    assert.deepEqual(files.map((f) => [f.account, f.name, f.kind]).sort(), [
      ['edi:ebsco', 'brkrtest.mrc', 'marc'],
      ['edi:ebsco', 'echo.edi', 'edifact-orders'],
    ]);
    assert.ok(
      files.every((f) => f.status !== 'received' && f.status !== 'processing'),
      JSON.stringify(files),
    );
    assert.equal(files.find((f) => f.kind === 'marc')?.status, 'loaded');

    const again = await run(['edi', 'fetch', '--json']);
    assert.equal(again.code, 0, again.stdout);
    assert.deepEqual(again.json(), [{ vendor: 'ebsco', outcome: 'nothing', files: [] }]);
    assert.equal(((await run(['files', 'list', '--json'])).json() as unknown[]).length, 2, 'nothing fetched twice');
  });

  it('resolves an interchange a run left unrecorded: not sent again when it arrived, sent again when not', async () => {
    const [last] = (await run(['edi', 'sent', '--vendor', 'ebsco', '--json'])).json() as { controlReference: string; file: string }[];
    // As if the process died between the rename and marking it sent.
    const unmark = () =>
      sql(`update edi_interchanges set status = 'prepared', sent_date = null where control_reference = $1`, [last!.controlReference]);
    await unmark();
    const arrived = await run(['edi', 'send', '--json']);
    assert.equal(arrived.code, 0, arrived.stdout);
    assert.deepEqual(arrived.json(), [{ vendor: 'ebsco', outcome: 'nothing', resolved: [last!.file] }]);
    assert.equal(ordersSent().length, 2, 'not uploaded again');

    await unmark();
    fs.rmSync(path.join(w.server.root, 'orders', last!.file));
    const again = await run(['edi', 'send', '--json']);
    assert.equal(again.code, 0, again.stdout);
    assert.deepEqual(again.json(), [{ vendor: 'ebsco', outcome: 'nothing', resolved: [last!.file] }]);
    const kept = await run(['edi', 'get', last!.controlReference]);
    assert.equal(fs.readFileSync(path.join(w.server.root, 'orders', last!.file), 'latin1'), kept.stdout, 'the same bytes sent again');
    const [row] = await sql('select status from edi_interchanges where control_reference = $1', [last!.controlReference]);
    assert.equal(row?.status, 'sent');
  });

  it('keeps the interchange of a vendor without a server in Carrel, to be taken with carrel edi get', async () => {
    assert.equal((await run(['vendors', 'create', 'bls', '--name', 'BLS'])).code, 0);
    assert.equal((await run(['vendors', 'edi', 'set', 'bls', '--party', '14:5012345678900', '--library-party', '31B:000345X'])).code, 0);
    const r = await run([
      'orders',
      'create',
      '--bib',
      bibs[0]!,
      '--vendor',
      'bls',
      '--fund',
      'books',
      '--location',
      `${w.here}:1`,
      '--price',
      '5.00',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const sent = await run(['edi', 'send', '--json']);
    assert.equal(sent.code, 0, sent.stdout);
    const [result] = sent.json() as { vendor: string; outcome: string; controlReference: string }[];
    assert.deepEqual([result?.vendor, result?.outcome], ['bls', 'kept']);
    const [listed] = (await run(['edi', 'sent', '--vendor', 'bls', '--json'])).json() as { deliveredTo: string | null; status: string }[];
    assert.deepEqual([listed?.status, listed?.deliveredTo], ['sent', null]);
    const got = await run(['edi', 'get', result!.controlReference]);
    const { interchange } = readInterchange(Buffer.from(got.stdout, 'latin1'));
    assert.equal(interchange?.header.controlReference, result!.controlReference);
    assert.equal(ordersSent().length, 2, 'nothing uploaded to another vendor');
  });
});
