// `npm run bench:sip2`: what self-check kiosks meet on Carrel's SIP2 door, on PostgreSQL. Fifty
// kiosks (one TCP connection each, logged in with a SIP account) send a stream of distinct
// requests: Patron Status (23) for random patrons, Checkout (11) of distinct available items to
// random patrons in good standing, then Checkin (09) of those same items (which puts the
// database back as it was). Each kiosk waits for its answer, then pauses as a kiosk does between
// scans (exponentially distributed, --think-ms on average), so the door meets many kiosks at
// once rather than one loop at full speed. The runs are made at two paces: a message a second from
// every kiosk (several times the busiest library's: a patron scans an item every few seconds) and
// ten a second (past what the machine can do for PIN checks and checkouts: where the queue builds).
// Every answer's checksum is checked and every answer is read: a refusal counts as an error.
// The baseline, in the same run with the same kiosks and pauses: a bare TCP server (node:net)
// answering each message with the answer Carrel gave to a sample request of that kind.
// Besides latency, each Carrel run reports the CPU time per message of the server, of its
// PostgreSQL backends and of the kiosks (this process), and the database round trips per message.
// The data comes from `carrel generate` (seed 1), kept in the database carrel_bench_sip2 and
// reused while it holds the same numbers (--fresh to rebuild it).
// Options: --kiosks N (default 50), --seconds N (default 10), --think-ms N[,N…] (default 1000,100),
// --bibs N (default 20000), --patrons N (default 5000), --fresh, --database-url URL.
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { GENERATED_PIN } from '../src/generate/patrons.ts';
import { checksum } from '../src/sip2/messages.ts';
import { benchDatabase, costPer, peakRssMb, percentile, ROOT, startChild, stop } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    kiosks: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '10' },
    'think-ms': { type: 'string', default: '1000,100' },
    bibs: { type: 'string', default: '20000' },
    patrons: { type: 'string', default: '5000' },
    fresh: { type: 'boolean', default: false },
    'database-url': { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const KIOSKS = Number(args.kiosks);
const SECONDS = Number(args.seconds);
/** Kiosks' average pauses between messages, one set of runs for each. */
const PACES = args['think-ms'].split(',').map(Number);
const BIBS = Number(args.bibs);
const PATRONS = Number(args.patrons);
const SEED = 1;
const DB = 'carrel_bench_sip2';
const RESULTS = path.join(ROOT, 'bench/results');
const INSTITUTION = 'BENCH';
const CARREL_PORT = 3932;
const ECHO_PORT = 3931;

/** A request with error detection: the sequence number and the checksum a kiosk adds. */
function framed(text: string, sequence: number): string {
  const head = `${text}AY${sequence % 10}AZ`;
  return `${head}${checksum(head)}\r`;
}

/** An answer's checksum holds, and it carries the sequence number sent. */
function answerOk(answer: string, sequence: number): boolean {
  const tail = /AY(\d)AZ([0-9A-F]{4})$/.exec(answer);
  return Boolean(tail) && tail![1] === String(sequence % 10) && checksum(answer.slice(0, -4)) === tail![2];
}

/** One kiosk's connection: one message at a time, its answer read up to the CR. */
class Kiosk {
  private buffered = '';
  private waiting: ((answer: string) => void) | undefined;
  private sequence = 0;
  private constructor(private readonly socket: net.Socket) {
    socket.setNoDelay(true);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffered += chunk;
      const end = this.buffered.indexOf('\r');
      if (end < 0 || !this.waiting) return;
      const answer = this.buffered.slice(0, end);
      this.buffered = this.buffered.slice(end + 1);
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve(answer);
    });
  }

  static connect(port: number): Promise<Kiosk> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(new Kiosk(socket)));
      socket.once('error', reject);
    });
  }

  /** Sends a message; its answer (without the CR), whether its checksum and sequence hold, and the round trip in ms. */
  async ask(text: string): Promise<{ answer: string; ok: boolean; ms: number }> {
    const sequence = this.sequence++;
    const answered = new Promise<string>((resolve) => (this.waiting = resolve));
    const started = performance.now();
    this.socket.write(framed(text, sequence));
    const answer = await answered;
    return { answer, ok: answerOk(answer, sequence), ms: performance.now() - started };
  }

  close(): void {
    this.socket.destroy();
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A kiosk's pause between messages: exponential, `mean` ms on average (0: none). */
const think = (mean: number) => (mean > 0 ? pause(-Math.log(1 - Math.random()) * mean) : Promise.resolve());

/** SIP2's date field: YYYYMMDD, four spaces, HHMMSS. */
const sipNow = () => {
  const d = new Date();
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${two(d.getMonth() + 1)}${two(d.getDate())}    ${two(d.getHours())}${two(d.getMinutes())}${two(d.getSeconds())}`;
};

const messages = {
  patronStatus: (patron: string, pin = '') => `23001${sipNow()}AO${INSTITUTION}|AA${patron}|AC|AD${pin}|`,
  checkout: (patron: string, item: string) => `11YN${sipNow()}${' '.repeat(18)}AO${INSTITUTION}|AA${patron}|AB${item}|AC|`,
  checkin: (item: string) => `09N${sipNow()}${sipNow()}APBENCH|AO${INSTITUTION}|AB${item}|AC|`,
};

/** What a run's answers must be: a valid patron (BL Y), an item checked out (ok 1) or in (ok 1). */
const accepted = {
  patronStatus: (answer: string) => answer.startsWith('24') && answer.includes('|BLY|'),
  patronStatusPin: (answer: string) => answer.startsWith('24') && answer.includes('|BLY|CQY|'),
  checkout: (answer: string) => answer.startsWith('121'),
  checkin: (answer: string) => answer.startsWith('101'),
};
type Kind = keyof typeof accepted;

interface Run {
  messages: number;
  rate: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  sampleErrors: string[];
  serverUs?: number;
  postgresUs?: number;
  kioskUs?: number;
  trips?: number;
}

/** A table row: one run beside its baseline. */
const row = (pace: number, name: string, r: Run, baseline: Run) => ({
  'pause ms': pace,
  run: name,
  messages: r.messages,
  'msg/s': Math.round(r.rate),
  'p50 ms': r.p50,
  'p99 ms': r.p99,
  'max ms': r.max,
  'p99 vs echo': (r.p99 / baseline.p99).toFixed(1),
  errors: r.errors,
  'server µs/msg': r.serverUs ?? '',
  'postgres µs/msg': r.postgresUs ?? '',
  'kiosks µs/msg': r.kioskUs ?? '',
  'db trips/msg': r.trips?.toFixed(2) ?? '',
});

/**
 * KIOSKS kiosks send `next()`'s messages for SECONDS (or until it runs out), each after its
 * pause. `login` is sent first on each connection when given.
 */
async function drive(port: number, pace: number, kind: Kind, next: () => string | undefined, login?: string): Promise<Run> {
  const kiosks = await Promise.all(Array.from({ length: KIOSKS }, () => Kiosk.connect(port)));
  if (login)
    for (const kiosk of kiosks) {
      const { answer } = await kiosk.ask(login);
      if (!answer.startsWith('941')) throw new Error(`SIP2 login refused: ${answer}`);
    }
  const latencies: number[] = [];
  const sampleErrors: string[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    kiosks.map(async (kiosk) => {
      await pause(Math.random() * pace); // kiosks do not start in step
      for (let text = next(); text !== undefined && performance.now() < deadline; text = next()) {
        const { answer, ok, ms } = await kiosk.ask(text);
        latencies.push(ms);
        if (!ok || !accepted[kind](answer)) {
          errors++;
          if (sampleErrors.length < 3) sampleErrors.push(answer);
        }
        await think(pace);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  for (const kiosk of kiosks) kiosk.close();
  latencies.sort((a, b) => a - b);
  return {
    messages: latencies.length,
    rate: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    max: percentile(latencies, 1),
    errors,
    sampleErrors,
  };
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const admin = postgres(args['database-url'], { max: 1, onnotice: () => {} });
  const { env, cli, sql } = benchDatabase(args['database-url'], DB);
  const exists = (await admin`select 1 from pg_database where datname = ${DB}`).length > 0;
  const have =
    exists && !args.fresh
      ? await sql(
          async (db) =>
            (
              await db`select (select count(*) from patrons)::int as patrons,
                (select count(*) from bibs where control_source = 'CarrelGen')::int as bibs`
            )[0] as { patrons: number; bibs: number },
        )
      : undefined;
  if (have?.patrons !== PATRONS || have.bibs !== BIBS) {
    await admin.unsafe(`drop database if exists ${DB} with (force)`);
    await admin.unsafe(`create database ${DB}`);
    process.stderr.write(`carrel generate --bibs ${BIBS} --patrons ${PATRONS}…\n`);
    cli(['generate', '--bibs', String(BIBS), '--patrons', String(PATRONS), '--seed', String(SEED), '--json']);
    await sql((db) => db`vacuum analyze`);
  } else process.stderr.write(`reusing ${DB}: ${have.bibs} bibs, ${have.patrons} patrons (--fresh to rebuild)\n`);
  cli(['migrate']);
  if (((await sql(async (db) => (await db`select count(*)::int as n from search_queue`)[0]!.n as number)) ?? 0) > 0) {
    process.stderr.write('carrel search reindex…\n');
    cli(['search', 'reindex']);
  }

  // Who can borrow and what can be borrowed: patrons current, unblocked and owing nothing; items
  // on the shelf ('-'), not on loan (lent and returned by earlier runs is fine: every run would
  // otherwise take copies from the next), with no hold on the copy or its title.
  const pools = await sql(async (db) => {
    const patrons = (
      await db`select b.barcode from patrons p join patron_barcodes b on b.patron_id = p.id
        where p.deleted_date is null and p.block_code = '-' and p.money_owed = 0 and p.expiration_date > current_date + 30
        order by md5(b.barcode)`
    ).map((r) => r.barcode as string);
    const items = (
      await db`select i.barcode from items i
        where i.deleted_date is null and i.barcode is not null and i.status = '-'
          and not exists (select 1 from checkouts c where c.item_id = i.id and c.returned_date is null)
          and not exists (select 1 from holds h where h.item_id = i.id and h.finished_date is null)
          and not exists (select 1 from item_bibs ib join holds h on h.bib_id = ib.bib_id where ib.item_id = i.id and h.finished_date is null)
        order by md5(i.barcode)`
    ).map((r) => r.barcode as string);
    return { patrons, items };
  });
  if (!pools?.patrons.length || !pools.items.length) throw new Error('no patrons or items to borrow in the bench database');
  const allPatrons = (await sql(async (db) =>
    (await db`select barcode from patron_barcodes order by md5(barcode)`).map((r) => r.barcode as string),
  ))!;
  const randomOf = (list: string[]) => list[Math.floor(Math.random() * list.length)]!;

  const account = JSON.parse(cli(['sip', 'accounts', 'create', `bench-${Date.now()}`, '--institution', INSTITUTION, '--json'])) as {
    name: string;
    password: string;
  };
  const login = `9300CN${account.name}|CO${account.password}|CPBENCH|`;
  const server = await startChild(
    ['dist/server.js'],
    { ...env, PORT: '3933', HOST: '127.0.0.1', CARREL_SIP2_PORT: String(CARREL_PORT), CARREL_WORKERS: '1' },
    /^ {2}SIP2: /m,
    path.join(RESULTS, 'sip2-carrel.log'),
  );

  // The bare server's answers: Carrel's own, to one request of each kind.
  const sample = await Kiosk.connect(CARREL_PORT);
  await sample.ask(login);
  const samples: Record<Exclude<Kind, 'patronStatusPin'>, string> = {
    patronStatus: (await sample.ask(messages.patronStatus(pools.patrons[0]!))).answer,
    checkout: (await sample.ask(messages.checkout(pools.patrons[0]!, pools.items[0]!))).answer,
    checkin: (await sample.ask(messages.checkin(pools.items[0]!))).answer,
  };
  sample.close();
  for (const kind of Object.keys(samples) as (keyof typeof samples)[])
    if (!accepted[kind](samples[kind])) throw new Error(`sample ${kind} refused: ${samples[kind]}`);
  const echo = await startChild(
    [
      '-e',
      `const answers={'93':'941','23':${JSON.stringify(samples.patronStatus.replace(/AY\dAZ[0-9A-F]{4}$/, ''))},'11':${JSON.stringify(samples.checkout.replace(/AY\dAZ[0-9A-F]{4}$/, ''))},'09':${JSON.stringify(samples.checkin.replace(/AY\dAZ[0-9A-F]{4}$/, ''))}};` +
        `const sum=(t)=>{let s=0;for(const b of Buffer.from(t))s=(s+b)&0xffff;return(-s&0xffff).toString(16).toUpperCase().padStart(4,'0')};` +
        `require('net').createServer((c)=>{c.setNoDelay(true);c.setEncoding('utf8');let b='';c.on('data',(d)=>{b+=d;let e;while((e=b.indexOf('\\r'))>=0){const m=b.slice(0,e);b=b.slice(e+1);const seq=/AY(\\d)AZ/.exec(m)[1];const h=answers[m.slice(0,2)]+'AY'+seq+'AZ';c.write(h+sum(h)+'\\r')}});c.on('error',()=>{})}).listen(${ECHO_PORT},'127.0.0.1',()=>console.log('ready'))`,
    ],
    {},
    /ready/,
    path.join(RESULTS, 'sip2-echo.log'),
  );

  /** A run against Carrel, with what each message cost the server, PostgreSQL and the kiosks. */
  async function measured(go: () => Promise<Run>): Promise<Run> {
    const { result, cost } = await costPer(admin, DB, server.pid!, go, (run) => run.messages);
    return { ...result, serverUs: cost.serverUs, postgresUs: cost.postgresUs, kioskUs: cost.selfUs, trips: cost.trips };
  }

  const items = pools.items.slice(1);
  let nextItem = 0;
  const borrowed: string[] = [];
  let nextReturn = 0;
  const status = () => messages.patronStatus(randomOf(allPatrons));
  // Warmed as a server that has lent all day is, before anything is measured: every kind of
  // message through every pooled connection (statements prepared, PL/pgSQL compiled). The copies
  // lent while warming are taken back; the runs lend others. (A server's first check-outs after a
  // start, each connection's first, take up to half a second: see bench/README.md.)
  process.stderr.write('warming up…\n');
  await drive(CARREL_PORT, 100, 'patronStatus', status, login);
  const warmItems = items.splice(-500);
  const warmLent: string[] = [];
  await drive(
    CARREL_PORT,
    100,
    'checkout',
    () => {
      const item = warmItems.shift();
      if (item) warmLent.push(item);
      return item && messages.checkout(randomOf(pools.patrons), item);
    },
    login,
  );
  await drive(
    CARREL_PORT,
    100,
    'checkin',
    () => {
      const item = warmLent.shift();
      return item && messages.checkin(item);
    },
    login,
  );

  /** The six runs at one pace, as table rows. */
  async function runsAt(pace: number) {
    const say = (what: string) => process.stderr.write(`${pace} ms pause: ${what}…\n`);
    say('TCP echo, Patron Status answer');
    const echoStatus = await drive(ECHO_PORT, pace, 'patronStatus', status, login);
    say('carrel 23 Patron Status');
    const patronStatus = await measured(() => drive(CARREL_PORT, pace, 'patronStatus', status, login));
    say('carrel 23 Patron Status with the PIN');
    const withPin = await measured(() =>
      drive(CARREL_PORT, pace, 'patronStatusPin', () => messages.patronStatus(randomOf(pools!.patrons), GENERATED_PIN), login),
    );
    say('TCP echo, Checkout answer');
    const echoCheckout = await drive(ECHO_PORT, pace, 'checkout', () => messages.checkout(randomOf(pools!.patrons), items[0]!), login);
    say('carrel 11 Checkout');
    const checkout = await measured(() =>
      drive(
        CARREL_PORT,
        pace,
        'checkout',
        () => {
          const item = items[nextItem++];
          if (item) borrowed.push(item);
          return item && messages.checkout(randomOf(pools!.patrons), item);
        },
        login,
      ),
    );
    say('carrel 09 Checkin of those items');
    const checkin = await measured(() =>
      drive(
        CARREL_PORT,
        pace,
        'checkin',
        () => {
          const item = borrowed[nextReturn++];
          return item && messages.checkin(item);
        },
        login,
      ),
    );
    for (const [name, r] of Object.entries({ patronStatus, withPin, checkout, checkin }))
      if (r.sampleErrors.length) console.log(`${pace} ms, ${name} errors, e.g. ${JSON.stringify(r.sampleErrors)}`);
    return {
      patronStatus,
      checkout,
      withPin,
      rows: [
        row(pace, 'TCP echo, Patron Status answer', echoStatus, echoStatus),
        row(pace, 'carrel 23 Patron Status', patronStatus, echoStatus),
        row(pace, 'carrel 23 Patron Status, PIN checked', withPin, echoStatus),
        row(pace, 'TCP echo, Checkout answer', echoCheckout, echoCheckout),
        row(pace, 'carrel 11 Checkout', checkout, echoCheckout),
        row(pace, 'carrel 09 Checkin', checkin, echoCheckout),
      ],
    };
  }
  const results = [];
  for (const pace of PACES) results.push({ pace, ...(await runsAt(pace)) });

  // Whatever the check-in run's time left out is returned unmeasured, so the next run finds the shelf as it was.
  const rest = borrowed.slice(nextReturn);
  if (rest.length) {
    const kiosk = await Kiosk.connect(CARREL_PORT);
    await kiosk.ask(login);
    for (const item of rest) await kiosk.ask(messages.checkin(item));
    kiosk.close();
  }
  const serverPeak = peakRssMb(server.pid!);
  await Promise.all([stop(echo), stop(server)]);
  cli(['sip', 'accounts', 'revoke', account.name]);
  await admin.end();

  console.log(
    `\n${PATRONS} patrons, ${BIBS} bibs (carrel generate, seed ${SEED}); PostgreSQL; ${KIOSKS} kiosks, one connection each, ` +
      `pauses between messages of ${PACES.join(' and ')} ms on average; ${SECONDS} s per run; Node ${process.version}\n`,
  );
  console.table(results.flatMap((r) => r.rows));
  console.log(`server peak RSS ${serverPeak} MB`);
  for (const r of results)
    console.log(
      `budget (p99 <= 20 ms), ${r.pace} ms pause: Patron Status ${r.patronStatus.p99} ms (PIN checked: ${r.withPin.p99} ms), Checkout ${r.checkout.p99} ms`,
    );
}

await main();
