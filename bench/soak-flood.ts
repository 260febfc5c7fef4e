// One flood of bench/soak.ts, in a process of its own so that it does not share the prober's
// thread: `tsx bench/soak-flood.ts KIND SECONDS CONFIG_JSON`. Every connection comes from
// 127.0.0.2 (loopback, another address than the prober's), as an attacker's would. Prints one JSON
// line at the end: how many requests or connections it made, and how the server answered them.
import http from 'node:http';
import net from 'node:net';
import { checksum } from '../src/sip2/messages.ts';

interface FloodConfig {
  http: number;
  sip2: number;
  sql: number;
  token: string;
  publicQuery: string;
}

const [kind = '', secondsText = '30', configText = '{}'] = process.argv.slice(2);
const config = JSON.parse(configText) as FloodConfig;
const until = Date.now() + Number(secondsText) * 1000;
const FROM = '127.0.0.2';
const answers = new Map<string, number>();
let sent = 0;
const count = (what: string) => answers.set(what, (answers.get(what) ?? 0) + 1);
const running = () => Date.now() < until;

function request(method: string, path: string, headers: Record<string, string>, body?: string): Promise<void> {
  return new Promise((resolve) => {
    sent++;
    const req = http.request({ host: '127.0.0.1', port: config.http, localAddress: FROM, method, path, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => {
        count(String(res.statusCode));
        resolve();
      });
    });
    req.setTimeout(30_000, () => req.destroy(new Error('time-out')));
    req.on('error', (error) => {
      count(error.message.slice(0, 40));
      resolve();
    });
    req.end(body);
  });
}

/** Opens a connection; answers when it closes. onOpen writes to it. */
function connection(port: number, onOpen: (socket: net.Socket) => void): Promise<void> {
  return new Promise((resolve) => {
    sent++;
    const socket = net.connect({ host: '127.0.0.1', port, localAddress: FROM });
    socket.setTimeout(60_000, () => socket.destroy());
    socket.on('connect', () => onOpen(socket));
    socket.on('data', () => undefined);
    socket.on('error', (error) => count((error as NodeJS.ErrnoException).code ?? 'error'));
    socket.on('close', () => {
      count('closed');
      resolve();
    });
  });
}

/** Writes text as fast as the server reads it until the time is up or the server closes. */
function pour(socket: net.Socket, text: string): void {
  const chunk = Buffer.from(text.repeat(Math.max(1, Math.floor(65536 / text.length))));
  const more = () => {
    while (running() && !socket.destroyed) if (!socket.write(chunk)) return void socket.once('drain', more);
    socket.destroy();
  };
  more();
}

async function loops(n: number, body: () => Promise<void>): Promise<void> {
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (running()) await body();
    }),
  );
}

const startupPacket = (user: string) => {
  const body = Buffer.concat([Buffer.from([0, 3, 0, 0]), Buffer.from(`user\0${user}\0database\0carrel\0\0`)]);
  const head = Buffer.alloc(4);
  head.writeInt32BE(body.length + 4);
  return Buffer.concat([head, body]);
};

const floods: Record<string, () => Promise<void>> = {
  // POST /v6/token with keys nobody made: each would cost a password hash.
  token: () =>
    loops(100, () =>
      request(
        'POST',
        '/v6/token',
        {
          Authorization: `Basic ${Buffer.from(`nokey${Math.random()}:nosecret`).toString('base64')}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        'grant_type=client_credentials',
      ),
    ),
  // Paths that made a regular expression on the raw URL work quadratically.
  paths: () => loops(20, () => request('GET', `/PATRONAPI${'/'.repeat(16_200)}${Math.random()}/dump`, {})),
  // The JSON query that ran 38 s: two MARC conditions of a thousand values each.
  query: () => {
    const values = (n: number) => Array.from({ length: 1000 }, (_, i) => `v${n}-${i}`);
    const body = JSON.stringify({
      queries: [
        { target: { record: { type: 'bib' }, field: { marcTag: '245' } }, expr: { op: 'in', operands: values(1) } },
        'or',
        { target: { record: { type: 'bib' }, field: { marcTag: '100' } }, expr: { op: 'in', operands: values(2) } },
      ],
    });
    return loops(10, () =>
      request(
        'POST',
        '/v6/bibs/query?offset=0&limit=10',
        { Authorization: `Bearer ${config.token}`, 'Content-Type': 'application/json' },
        body,
      ),
    );
  },
  // A public saved query, without a token, as fast as it is answered.
  public: () => loops(50, () => request('GET', `/v6/queries/${config.publicQuery}/results`, {})),
  // SIP2 before login: SC Status (99) and resend (97) poured without end.
  'sip2-prelogin': () => {
    const status = '9900302.00AY1AZ';
    return loops(20, () => connection(config.sip2, (socket) => pour(socket, `${status}${checksum(status)}\r97AZFEF6\r`)));
  },
  // SIP2 logins (93) with a wrong password, one after another on each connection.
  'sip2-login': () =>
    loops(50, () =>
      connection(config.sip2, (socket) => {
        const again = () => {
          if (!running()) return void socket.destroy();
          const login = `9300CNsoak|COwrong${Math.random()}|CPMAIN|AY1AZ`;
          socket.write(`${login}${checksum(login)}\r`);
        };
        socket.on('data', again);
        again();
      }),
    ),
  // The SQL door: more connections than its cap, left idle or reset before they log in.
  'sql-door': () =>
    loops(150, () =>
      connection(config.sql, (socket) => {
        if (Math.random() < 0.5) socket.write(startupPacket('nobody'));
        setTimeout(() => socket.resetAndDestroy(), Math.random() * 2000);
      }),
    ),
};

const flood = floods[kind];
if (!flood) throw new Error(`no flood named ${kind}: ${Object.keys(floods).join(', ')}`);
await flood();
console.log(JSON.stringify({ kind, sent, answers: Object.fromEntries(answers) }));
