// `carrel edi send|fetch` with a vendor's FTP server (basic-ftp as the client, a small FTP server
// the test starts): the same rules as over SFTP (sftp.test.ts): sent once, a refused upload leaves
// the order pending, fetched once, a wrong password said plainly.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { ENGINE } from '../../helpers/db.ts';
import { ediWorkspace } from '../../helpers/edi-transport.ts';
import { marcFile } from '../../helpers/shared-data.ts';
import { startVendorFtpServer } from '../../helpers/vendor-ftp.ts';

const PASSWORD = 'ftp-secret-7';

describe(`carrel edi send and fetch with a vendor's FTP server, on ${ENGINE}`, () => {
  const w = ediWorkspace({ vendor: 'bls', protocol: 'ftp', user: 'lib7', password: PASSWORD, start: startVendorFtpServer });
  const { run, setServer, ordersSent, readSent } = w;
  let bib = '';
  before(async () => {
    assert.equal((await run(['vendors', 'edi', 'set', 'bls', '--party', '31B:1234560', '--library-party', '91:LIB7'])).code, 0);
    bib = await w.bib('Ordered over FTP', '9780306406157');
  });
  const place = (copies: number) => w.place(bib, copies);

  it('a wrong password is a clear error and sends nothing', async () => {
    assert.equal((await setServer('wrong')).code, 0);
    await place(2);
    const sent = await run(['edi', 'send', '--json']);
    assert.notEqual(sent.code, 0);
    const [result] = sent.json() as { outcome: string; error: string }[];
    assert.equal(result?.outcome, 'failed');
    assert.match(result.error, /the login lib7 was refused \(wrong user or password\)/);
    assert.deepEqual(ordersSent(), []);
  });

  it('sends once; a refused upload leaves the order pending', async () => {
    assert.equal((await setServer(PASSWORD)).code, 0);
    const sent = await run(['edi', 'send', '--json']);
    assert.equal(sent.code, 0, sent.stdout + sent.stderr);
    const [result] = sent.json() as { outcome: string; file: string }[];
    assert.equal(result?.outcome, 'sent');
    assert.deepEqual(ordersSent(), [result.file]);
    assert.deepEqual(
      readSent(result.file).map((o) => o.lines.map((l) => [l.quantity, l.isbn])),
      [[[2, '9780306406157']]],
    );
    assert.deepEqual((await run(['edi', 'send', '--json'])).json(), []);

    const later = await place(1);
    w.server.refuseWrites = true;
    const refused = await run(['edi', 'send', '--json']);
    assert.notEqual(refused.code, 0);
    assert.equal((refused.json() as { outcome: string }[])[0]?.outcome, 'failed');
    assert.deepEqual(((await run(['edi', 'send', '--dry-run', '--json'])).json() as { orders: string[] }[])[0]?.orders, [later.id]);
    w.server.refuseWrites = false;
    assert.equal((await run(['edi', 'send'])).code, 0);
    assert.equal(ordersSent().length, 2);
  });

  it('fetches the files the vendor left once', async () => {
    fs.copyFileSync(marcFile('brkrtest.mrc'), path.join(w.server.root, 'files', 'brkrtest.mrc'));
    const fetched = await run(['edi', 'fetch', '--json']);
    assert.equal(fetched.code, 0, fetched.stdout + fetched.stderr);
    const [result] = fetched.json() as { files: { name: string; size: number }[] }[];
    assert.deepEqual(
      result?.files.map((f) => [f.name, f.size]),
      [['brkrtest.mrc', fs.statSync(marcFile('brkrtest.mrc')).size]],
    );
    const files = (await run(['files', 'list', '--json'])).json() as { account: string; status: string }[];
    assert.deepEqual(
      files.map((f) => [f.account, f.status]),
      [['edi:bls', 'loaded']],
    );
    assert.deepEqual((await run(['edi', 'fetch', '--json'])).json(), [{ vendor: 'bls', outcome: 'nothing', files: [] }]);
  });
});
