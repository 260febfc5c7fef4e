// CARREL_WORKERS=2 on PostgreSQL: the real server as a child process, its two workers on one
// port. Which worker answered a request is read from the worker's own request log line (each line
// carries its process id, and the request's X-Request-Id). What the workers must share goes
// through the database: the rate limit refuses at the key's limit counted over both, and hold
// expiry, run by both, expires each hold once. A killed worker is replaced, and SIGTERM stops both,
// answering a request in flight, with exit code 0. Nothing here is timed: each step waits for what
// it needs, and the runner's time-out ends a hang. The other doors (SIP2, SFTP, FTP, SQL) answer on
// their ports, which the workers share as they share HTTP's.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, addItem, addPatron, setUpLibrary } from '../helpers/circulation.ts';
import { PG_URL } from '../helpers/db.ts';
import { withRoomInMinute } from '../helpers/minute.ts';
import { startServer, type ServerProcess } from '../helpers/process.ts';
import { freePort } from '../helpers/tcp.ts';

const HOLDS = 200;
const LIMIT = 10;

/** Until `check` answers something other than undefined, asked every 50 ms. */
async function waitFor<T>(check: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

type LogLine = Record<string, unknown> & { msg?: string; pid?: number };

function logLines(server: ServerProcess): LogLine[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

describe('two worker processes on PostgreSQL', { skip: !PG_URL && 'PostgreSQL is not configured (DATABASE_URL)' }, () => {
  let t: TestApp;
  let server: ServerProcess;
  let port: number;
  const doors = { sip2: 0, sftp: 0, ftp: 0, sql: 0 };
  let keyId = '';
  let basic = '';
  let sequence = 0;
  /** Generous: a worker starts in seconds, on a loaded machine in tens of them. */
  const long = { timeout: 120_000 };

  /** The worker process ids the primary has started, oldest first. */
  const started = () => logLines(server).flatMap((l) => (l.msg === 'worker started' ? [l.worker as number] : []));

  /** One request on a connection of its own (a kept-alive one would stay with one worker); its status and the worker that answered. */
  async function request(path: string, headers: Record<string, string> = {}): Promise<{ status: number; pid: number; body: string }> {
    const id = `workers-test-${++sequence}`;
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path, agent: false, headers: { ...headers, 'x-request-id': id } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      });
      req.on('error', reject);
      req.end();
    });
    const pid = await waitFor(() => logLines(server).find((l) => l.requestId === id)?.pid);
    return { status, pid, body };
  }

  async function bearer(): Promise<string> {
    const res = await fetch(`http://127.0.0.1:${port}/v6/token`, { method: 'POST', headers: { authorization: `Basic ${basic}` } });
    assert.equal(res.status, 200);
    return `Bearer ${((await res.json()) as { access_token: string }).access_token}`;
  }

  before(async () => {
    t = await createTestApp();
    const db = t.testDb.db;
    await setUpLibrary(db);
    for (let i = 0; i < HOLDS; i++) {
      const bib = await addBib(db, `Waiting ${i}`);
      await addItem(db, bib);
      await t.services.holds.place(await addPatron(db), { recordType: 'b', recordNumber: bib, pickupLocation: 'mn' });
    }
    const key = await t.services.auth.createKey('workers', ['all'], LIMIT);
    keyId = key.id;
    basic = Buffer.from(`${key.key}:${key.secret}`).toString('base64');
    port = await freePort();
    for (const door of Object.keys(doors) as (keyof typeof doors)[]) doors[door] = await freePort();
    server = await startServer(
      {
        DATABASE_URL: t.testDb.url!,
        CARREL_WORKERS: '2',
        CARREL_DEMO_CATALOGUE: 'false',
        CARREL_HOLD_EXPIRY_MS: '1000',
        // The request in flight at SIGTERM is answered however long the test takes to finish it.
        CARREL_HTTP_REQUEST_TIMEOUT_MS: '3600000',
        CARREL_SHUTDOWN_GRACE_MS: '500',
        CARREL_SIP2_PORT: String(doors.sip2),
        CARREL_SFTP_PORT: String(doors.sftp),
        CARREL_FTP_PORT: String(doors.ftp),
        CARREL_SQL_PORT: String(doors.sql),
      },
      port,
    );
  });
  after(async () => {
    await server?.stop();
    await t?.close();
  });

  it('serves requests from both workers on one port', long, async () => {
    const workers = started();
    assert.equal(workers.length, 2, 'the primary started two workers');
    const seen = new Set<number>();
    await waitFor(async () => (seen.add((await request('/api')).pid).size === 2 ? true : undefined));
    assert.deepEqual([...seen].sort(), [...workers].sort());
  });

  it('answers on the SIP2, SFTP, FTP and SQL ports, each shared by the workers', long, async () => {
    /** What a new connection to `door` is first told, after `send`, up to `until`. */
    const first = (door: number, send: Buffer | string | undefined, until: (text: string) => boolean) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(door, '127.0.0.1');
        let text = '';
        socket.on('data', (chunk: Buffer) => {
          text += chunk.toString('latin1');
          if (until(text)) {
            socket.destroy();
            resolve(text);
          }
        });
        socket.on('error', reject);
        socket.on('close', () => resolve(text));
        if (send !== undefined) socket.write(send);
      });
    const sslRequest = Buffer.alloc(8);
    sslRequest.writeInt32BE(8, 0);
    sslRequest.writeInt32BE(80877103, 4);
    // Several connections each, so that the primary hands them to both workers in turn.
    for (let i = 0; i < 4; i++) {
      assert.match(await first(doors.sip2, '9300CNnobody|COwrong|CPmn|\r', (t) => t.includes('\r')), /^940/, 'SIP2: a login refused');
      assert.match(await first(doors.sftp, undefined, (t) => t.includes('\n')), /^SSH-2\.0-/, 'SFTP: the SSH greeting');
      assert.match(await first(doors.ftp, undefined, (t) => t.includes('\n')), /^220/, 'FTP: the greeting');
      assert.match(await first(doors.sql, sslRequest, (t) => t.length >= 1), /^[NS]/, 'SQL: the answer to an SSLRequest');
    }
  });

  it('refuses at the key’s limit counted over both workers', long, async () => {
    const auth = await bearer();
    const counted = async () =>
      (await t.testDb.db.query<{ n: number }>('select coalesce(sum(count), 0)::int as n from rate_counts where key_id = $1', [keyId]))[0]!
        .n;
    const servedBy = new Set<number>();
    let accepted = 0;
    let refused = false;
    // Each worker carries into a new minute the previous one's count as it last heard it, so a run
    // straddling a minute's end could pass the limit by more than the one-second lag.
    await withRoomInMinute(40_000);
    // Each request waits until its count has reached the database, so that the other worker can
    // have learnt it: what is left is the one-second lag the limiter allows (src/auth/rate-limit.ts).
    for (let i = 0; i < 2 * LIMIT && !refused; i++) {
      const answer = await request('/v6/branches', { authorization: auth });
      if (answer.status === 429) refused = true;
      else {
        assert.equal(answer.status, 200, answer.body);
        servedBy.add(answer.pid);
        accepted++;
        await waitFor(async () => ((await counted()) === accepted ? true : undefined));
      }
    }
    assert.ok(refused, `no 429 in ${2 * LIMIT} requests: each worker counted alone`);
    assert.equal(servedBy.size, 2, 'both workers served the key');
    assert.ok(accepted >= LIMIT && accepted <= LIMIT + 1, `${accepted} requests accepted under a limit of ${LIMIT} a minute`);
  });

  it('expires each hold once with both workers running hold expiry', long, async () => {
    const db = t.testDb.db;
    const waiting = async () => (await db.query<{ n: number }>("select count(*)::int as n from holds where state = '0'"))[0]!.n;
    assert.equal(await waiting(), HOLDS);
    // Due all at once, so that both workers' next passes find the same holds.
    await db.query("update holds set not_needed_after = current_date - 30 where state = '0'");
    await waitFor(async () => ((await waiting()) === 0 ? true : undefined));
    const twice = await db.query<{ hold_id: string; n: number }>(
      "select hold_id::text, count(*)::int as n from circ_transactions where op_code = 'x' group by hold_id having count(*) <> 1",
    );
    if (twice.length) assert.fail(`${twice.length} holds expired more than once, e.g. ${JSON.stringify(twice[0])}`);
    const expired = (await db.query<{ n: number }>("select count(*)::int as n from holds where state = 'x'"))[0]!.n;
    assert.equal(expired, HOLDS);
    // What the workers report expiring adds up to the holds, each counted by one of them.
    const reported = () =>
      logLines(server)
        .filter((l) => l.msg === 'holds expired')
        .reduce((n, l) => n + (l.unfilled as number), 0);
    assert.equal(await waitFor(() => (reported() >= HOLDS ? reported() : undefined)), HOLDS);
  });

  it('replaces a worker that dies', long, async () => {
    const [victim, other] = started();
    process.kill(victim!, 'SIGKILL');
    const replacement = await waitFor(() => started().find((pid) => pid !== victim && pid !== other));
    // Served by the replacement on the same port.
    await waitFor(async () => ((await request('/api')).pid === replacement ? true : undefined));
  });

  it('stops both workers on SIGTERM, answering a request in flight, with exit code 0', long, async () => {
    const workers = started().slice(-2);
    const auth = `Basic ${basic}`;
    const body = 'grant_type=client_credentials';
    // A request whose headers have reached a worker (it answered 100 Continue) but not its body.
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.write(
      `POST /v6/token HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
        `Content-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    );
    await waitFor(() => (answer.includes('100 Continue') ? true : undefined));
    server.child.kill('SIGTERM');
    const draining = () => new Set(logLines(server).flatMap((l) => (l.msg === 'shutting down: draining' ? [l.pid] : [])));
    await waitFor(() => (workers.every((pid) => draining().has(pid)) ? true : undefined));
    socket.write(body);
    await new Promise((resolve) => socket.on('close', resolve));
    assert.match(answer, /HTTP\/1\.1 200 OK[\s\S]*access_token/, answer);
    assert.equal(await server.exited, 0);
    const stopped = new Set(logLines(server).flatMap((l) => (l.msg === 'stopped' ? [l.pid] : [])));
    assert.ok(
      workers.every((pid) => stopped.has(pid)),
      'each worker stopped cleanly',
    );
  });
});
