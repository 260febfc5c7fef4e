// The FTP door in the real server process (src/server.ts): the start-up banner names its port, an
// account made with `carrel sftp accounts create --json` stores a MARC file with basic-ftp over
// FTPS and the server loads it on its own, and the certificate made once is the same after a
// restart.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import tls from 'node:tls';
import { childDatabase, ENGINE } from '../helpers/db.ts';
import { basicFtp } from '../helpers/ftp.ts';
import { carrel, startServer, type ServerProcess } from '../helpers/process.ts';
import { marcFile } from '../helpers/shared-data.ts';
import { freePort } from '../helpers/tcp.ts';

describe(`the FTP door in the server process, on ${ENGINE}`, () => {
  let database: Awaited<ReturnType<typeof childDatabase>>;
  let server: ServerProcess;
  let env: Record<string, string>;
  let ftpPort: number;

  const start = async () => startServer({ ...env, CARREL_FTP_PORT: String(ftpPort) }, await freePort());
  /** The certificate's SHA-256 fingerprint, as a client sees it after AUTH TLS. */
  const fingerprint = (client: Awaited<ReturnType<typeof basicFtp>>) =>
    (client.ftp.socket as tls.TLSSocket).getPeerX509Certificate()!.fingerprint256;

  before(async () => {
    database = await childDatabase();
    env = { ...database.env, CARREL_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'), CARREL_FTP_PASSIVE_PORTS: '40000-49999' };
    ftpPort = await freePort();
    server = await start();
  });
  after(async () => {
    await server?.stop();
    await database?.remove();
  });

  it('names its port at start-up, and loads a MARC file stored over FTPS', async () => {
    assert.match(server.output(), new RegExp(`FTP: +lftp -p ${ftpPort} `));
    const created = await carrel(['sftp', 'accounts', 'create', 'vendor-y', '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    const account = JSON.parse(created.stdout) as { name: string; password: string };
    const client = await basicFtp(ftpPort, account, true);
    try {
      await client.uploadFrom(marcFile('sample1.mrc'), 'in/sample1.mrc');
    } finally {
      client.close();
    }
    // The server processes it on its own; the list is read until it says what became of it.
    for (;;) {
      const list = await carrel(['files', 'list', '--json'], env);
      assert.equal(list.code, 0, JSON.stringify(list));
      const [file] = JSON.parse(list.stdout) as { name: string; status: string }[];
      if (file && file.status !== 'received' && file.status !== 'processing') {
        assert.deepEqual([file.name, file.status], ['sample1.mrc', 'loaded']);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  it('shows the same certificate after a restart', async () => {
    const account = JSON.parse((await carrel(['sftp', 'accounts', 'create', 'vendor-x', '--json'], env)).stdout) as {
      name: string;
      password: string;
    };
    const before = await basicFtp(ftpPort, account, true);
    const first = fingerprint(before);
    before.close();
    await server.stop();
    server = await start();
    const afterRestart = await basicFtp(ftpPort, account, true);
    assert.equal(fingerprint(afterRestart), first);
    afterRestart.close();
  });
});
