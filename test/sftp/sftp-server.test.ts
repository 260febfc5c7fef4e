// The SFTP door in the real server process (src/server.ts), with the real `carrel` command: an
// account made with `carrel sftp accounts create --json`, a real MARC file put by OpenSSH's sftp,
// loaded and listed by `carrel files list --json` and GET /v6/files; the host key kept across a
// restart.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { childDatabase, ENGINE } from '../helpers/db.ts';
import { carrel, serverBearer, startServer, type ServerProcess } from '../helpers/process.ts';
import { marcFile } from '../helpers/shared-data.ts';
import { sftpBatch } from '../helpers/sftp.ts';
import { freePort } from '../helpers/tcp.ts';

interface Listed {
  id: string;
  name: string;
  kind: string;
  status: string;
  report: { created?: number };
}

describe(`the SFTP door in the server process, on ${ENGINE}`, () => {
  let database: Awaited<ReturnType<typeof childDatabase>>;
  let server: ServerProcess;
  let env: Record<string, string>;
  let sftpPort: number;
  let dir: string;

  const start = async () => startServer({ ...env, CARREL_SFTP_PORT: String(sftpPort) }, await freePort());

  before(async () => {
    database = await childDatabase();
    // One key sealing the host key, as servers sharing a database are given.
    env = { ...database.env, CARREL_SECRETS_KEY: Buffer.alloc(32, 5).toString('base64') };
    sftpPort = await freePort();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-sftp-server-'));
    server = await start();
  });
  after(async () => {
    await server?.stop();
    await database?.remove();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loads a MARC file put by sftp, listed by carrel files list and GET /v6/files', async () => {
    assert.match(server.output(), new RegExp(`SFTP: +sftp -P ${sftpPort} `));
    const created = await carrel(['sftp', 'accounts', 'create', 'vendor-z', '--vendor', 'VZ', '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    const account = JSON.parse(created.stdout) as { name: string; password: string };
    assert.deepEqual(Object.keys(account).sort(), ['name', 'password']);
    const run = await sftpBatch(sftpPort, account.name, account, [`put ${marcFile('sample1.mrc')} in/sample1.mrc`], dir);
    assert.equal(run.code, 0, run.stderr);

    // The server processes it on its own; the list is read until it says what became of it.
    let listed: Listed[] = [];
    for (;;) {
      const list = await carrel(['files', 'list', '--json'], env);
      assert.equal(list.code, 0, JSON.stringify(list));
      listed = JSON.parse(list.stdout) as Listed[];
      if (listed[0] && listed[0].status !== 'received' && listed[0].status !== 'processing') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.equal(listed.length, 1);
    assert.equal(listed[0].name, 'sample1.mrc');
    assert.equal(listed[0].kind, 'marc');
    assert.equal(listed[0].status, 'loaded', JSON.stringify(listed[0]));
    assert.ok((listed[0].report.created ?? 0) > 0);

    const token = await serverBearer(server, env, ['Files_Read']);
    const res = await fetch(`${server.url}/v6/files`, { headers: { authorization: token } });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { entries: Listed[] };
    assert.deepEqual(
      body.entries.map((e) => [e.id, e.kind, e.status]),
      [[listed[0].id, 'marc', 'loaded']],
    );
    const bibs = await fetch(`${server.url}/v6/bibs?limit=2000`, {
      headers: { authorization: await serverBearer(server, env, ['Bibs_Read']) },
    });
    // (An embedded server starts with a demo catalogue: the loaded bibs are among more.)
    assert.ok(((await bibs.json()) as { entries: unknown[] }).entries.length >= listed[0].report.created!);
  });

  it('carrel files retry processes a refused file again', async () => {
    const account = JSON.parse((await carrel(['sftp', 'accounts', 'create', 'vendor-y', '--json'], env)).stdout) as {
      name: string;
      password: string;
    };
    const local = path.join(dir, 'ordrsp.edi');
    fs.writeFileSync(local, "UNB+UNOC:3+A+B+261129:1034+1'UNH+1+ORDRSP:D:96A:UN:EAN005'UNT+2+1'UNZ+1+1'");
    assert.equal((await sftpBatch(sftpPort, account.name, account, [`put ${local} in/ordrsp.edi`], dir)).code, 0);
    let id: string | undefined;
    while (!id) {
      const listed = JSON.parse((await carrel(['files', 'list', '--account', 'vendor-y', '--json'], env)).stdout) as Listed[];
      if (listed[0]?.status === 'refused') id = listed[0].id;
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const retried = await carrel(['files', 'retry', id, '--json'], env);
    assert.equal(retried.code, 1, retried.stderr);
    const file = JSON.parse(retried.stdout) as Listed & { report: { refused: number; messages: { reason: string }[] } };
    assert.equal(file.status, 'refused');
    assert.equal(file.report.refused, 1);
    assert.match(file.report.messages[0]!.reason, /BGM/);
  });

  it('shows the same host key after a restart', async () => {
    const scan = () =>
      execFileSync('ssh-keyscan', ['-p', String(sftpPort), '-t', 'ed25519', '127.0.0.1'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    const first = scan();
    assert.match(first, /ssh-ed25519 /);
    await server.stop();
    server = await start();
    assert.equal(scan(), first);
  });
});
