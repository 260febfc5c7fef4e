// The real server process and the real `carrel` command, on the engine under test: the token flow
// with a key made by the CLI, the operator switch, `carrel status`, and a SIGTERM drain.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { childDatabase, ENGINE } from '../helpers/db.ts';
import { carrel, startServer, type ServerProcess } from '../helpers/process.ts';
import { freePort } from '../helpers/tcp.ts';

describe(`server process and CLI on ${ENGINE}`, () => {
  let env: Record<string, string>;
  let server: ServerProcess;
  let database: Awaited<ReturnType<typeof childDatabase>>;

  before(async () => {
    database = await childDatabase();
    env = { ...database.env };
    env.CARREL_STATE_POLL_MS = '100';
    env.CARREL_SHUTDOWN_GRACE_MS = '1500';
    server = await startServer(env, await freePort());
    env.PORT = new URL(server.url).port;
  });
  after(async () => {
    await server?.stop();
    await database?.remove();
  });

  it('lists its commands in --help', async () => {
    const help = await carrel(['--help'], env);
    assert.equal(help.code, 0);
    for (const command of ['status', 'migrate', 'keys', 'maintenance']) assert.match(help.stdout, new RegExp(`\\b${command}\\b`));
    const keysHelp = await carrel(['keys', '--help'], env);
    for (const command of ['create', 'list', 'revoke']) assert.match(keysHelp.stdout, new RegExp(`\\b${command}\\b`));
  });

  it('carrel status prints 0 and the version while Healthy', async () => {
    const status = await carrel(['status', '--url', server.url], env);
    const report = (await (await fetch(`${server.url}/api`)).json()) as { entries: { API: { data: Record<string, { version: string }> } } };
    assert.equal(status.stdout, `0 ${report.entries.API.data['Carrel.Api']!.version}\n`);
    assert.equal(status.code, 0);
  });

  it('carrel status prints -1 and exits 1 when nothing answers', async () => {
    const status = await carrel(['status', '--url', `http://127.0.0.1:${await freePort()}`], env);
    assert.equal(status.code, 1);
    assert.match(status.stdout, /^-1 unreachable: .*ECONNREFUSED/);
  });

  it('token flow with a key made by the CLI; revoking the key kills its token', async () => {
    const created = await carrel(['keys', 'create', '--name', 'vendor feed', '--roles', 'Bibs_Read', '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    const key = JSON.parse(created.stdout) as { key: string; secret: string; roles: string[] };
    assert.deepEqual(key.roles, ['Bibs_Read']);

    const tokenRes = await fetch(`${server.url}/iii/sierra-api/v6/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    assert.equal(tokenRes.status, 200);
    const { access_token } = (await tokenRes.json()) as { access_token: string };
    const info = await fetch(`${server.url}/v6/info/token`, { headers: { authorization: `Bearer ${access_token}` } });
    assert.equal(info.status, 200);
    assert.equal(((await info.json()) as { keyId: string }).keyId, key.key);

    const list = await carrel(['keys', 'list', '--json'], env);
    const listed = JSON.parse(list.stdout) as { key: string; secret?: string }[];
    assert.ok(listed.some((k) => k.key === key.key));
    assert.ok(!list.stdout.includes(key.secret), 'keys list never shows a secret');

    const revoked = await carrel(['keys', 'revoke', key.key], env);
    assert.equal(revoked.code, 0, revoked.stderr);
    const after = await fetch(`${server.url}/v6/info/token`, { headers: { authorization: `Bearer ${access_token}` } });
    assert.equal(after.status, 401);
    assert.equal(((await after.json()) as { code: number }).code, 120);
    assert.equal((await carrel(['keys', 'revoke', key.key], env)).code, 1, 'revoking twice is an error');

    const logs = server.output();
    assert.ok(!logs.includes(key.secret) && !logs.includes(access_token), 'no secret or token in the log');
    const requestLines = logs.split('\n').filter((line) => line.startsWith('{') && line.includes('"msg":"request"'));
    assert.ok(requestLines.length > 0);
    assert.ok(
      requestLines.every((line) => typeof (JSON.parse(line) as { requestId?: string }).requestId === 'string'),
      'every request line has its request id',
    );
  });

  it('sets rate limits on keys from the CLI: on creation, changed later, listed', async () => {
    const zero = await carrel(['keys', 'create', '--name', 'x', '--roles', 'all', '--rate-limit', '0'], env);
    assert.notEqual(zero.code, 0);
    assert.match(zero.stderr, /unlimited, or default/);
    const created = await carrel(['keys', 'create', '--name', 'reports', '--roles', 'all', '--rate-limit', 'unlimited', '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    const key = JSON.parse(created.stdout) as { key: string; rateLimit: number | null };
    assert.equal(key.rateLimit, 0);
    const changed = await carrel(['keys', 'rate-limit', key.key, '30'], env);
    assert.equal(changed.code, 0, changed.stderr);
    const list = JSON.parse((await carrel(['keys', 'list', '--json'], env)).stdout) as { key: string; rateLimit: number | null }[];
    assert.equal(list.find((k) => k.key === key.key)?.rateLimit, 30);
    assert.match((await carrel(['keys', 'list'], env)).stdout, /30\/min/);
    assert.equal((await carrel(['keys', 'rate-limit', 'nosuchkey', 'default'], env)).code, 1);
  });

  it('refuses bad CLI input with a message and exit code 1', async () => {
    const badRole = await carrel(['keys', 'create', '--name', 'x', '--roles', 'Wizard'], env);
    assert.equal(badRole.code, 1);
    assert.match(badRole.stderr, /unknown role Wizard/);
    const noName = await carrel(['keys', 'create', '--roles', 'all'], env);
    assert.notEqual(noName.code, 0);
    assert.match(noName.stderr, /--name/);
    const badTimeout = await carrel(['status', '--timeout', 'soon'], env);
    assert.notEqual(badTimeout.code, 0);
    assert.match(badTimeout.stderr, /whole number of milliseconds/);
    const noDatabase = await carrel(['migrate'], { DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/x` });
    assert.equal(noDatabase.code, 1);
    assert.match(noDatabase.stderr, /^carrel: cannot reach the database: .*ECONNREFUSED/m);
    assert.doesNotMatch(noDatabase.stderr, /\n\s+at /, 'a message, not a stack trace');
  });

  it('maintenance on: GET /api 404, calls 503 code 117, status -1; off: back to Healthy', async () => {
    assert.equal((await carrel(['maintenance', 'on'], env)).code, 0);
    await waitFor(async () => (await fetch(`${server.url}/api`)).status === 404);
    const call = await fetch(`${server.url}/v6/token`, { method: 'POST' });
    assert.equal(call.status, 503);
    assert.equal(((await call.json()) as { code: number }).code, 117);
    const status = await carrel(['status', '--url', server.url], env);
    assert.equal(status.code, 1);
    assert.match(status.stdout, /^-1 not running \(404\)/);

    assert.equal((await carrel(['maintenance', 'off'], env)).code, 0);
    await waitFor(async () => (await fetch(`${server.url}/api`)).status === 200);
  });

  it('SIGTERM: GET /api answers 404 while draining, then the process exits 0', async () => {
    server.child.kill('SIGTERM');
    await waitFor(async () => (await fetch(`${server.url}/api`)).status === 404);
    assert.equal(await server.exited, 0);
  });
});

// Until the check holds; the runner's time-out ends a wait that never does.
async function waitFor(check: () => Promise<boolean>): Promise<void> {
  while (!(await check().catch(() => false))) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
