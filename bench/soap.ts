// `npm run bench:soap`: the SOAP door's two busiest calls against their REST twins, in the same
// run on PostgreSQL. PatronValidate (barcode and PIN: PC-booking and self-registration products at
// every login) beside POST /v6/patrons/validate, and PatronLookup by barcode (finance and campus
// identity systems) beside GET /v6/patrons/find?barcode=. The SOAP calls are authenticated as
// clients do, once with a WS-Security UsernameToken (the API key and its secret as PasswordText)
// in the envelope and once with HTTP Basic; the REST calls with a bearer token. Every request
// names another patron: a stream through all the generated patrons in a fixed shuffled order, not
// a loop over a few. Every answer is read, and one that is not the right patron's counts as an error.
// The runs take turns, round after round, and each ratio compares runs of the same round, since on
// a shared machine absolute figures wander from minute to minute. Besides rate and latency, each
// run reports the CPU time per request of the server, of its PostgreSQL backends and of the load
// generator (autocannon, in this process), and the database round trips per request.
// The patrons come from `carrel generate` (seed 1, all with the PIN 1234), kept in the database
// carrel_bench_soap and reused while it holds the same number (--fresh to rebuild it).
// Options: --patrons N (default 20000), --seconds N per run (default 5), --rounds N (default 3),
// --connections N (default 16), --fresh, --database-url URL.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { GENERATED_PIN, patronBarcode } from '../src/generate/patrons.ts';
import { escapeXmlText } from '../src/shared/xml/index.ts';
import { PASSWORD_TEXT, SOAP11, WSSE_NS } from '../src/soap/envelope.ts';
import { SOAP_SERVICES } from '../src/soap/services.ts';
import { benchDatabase, byHash, costPer, peakRssMb, percentile, ROOT, startChild, stop } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    patrons: { type: 'string', default: '20000' },
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '16' },
    fresh: { type: 'boolean', default: false },
    'database-url': { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const PATRONS = Number(args.patrons);
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const CONNECTIONS = Number(args.connections);
/** The catalogue is not measured: the fewest bibs `carrel generate` takes beside the patrons. */
const BIBS = 100;
const SEED = 1;
const DB = 'carrel_bench_soap';
const RESULTS = path.join(ROOT, 'bench/results');
const PORT = 3942;
/** The pause before each measured run, for the database's counts of the last one to come in. */
const SETTLE_MS = 10_500;
const BASE = `http://127.0.0.1:${PORT}`;

const NS = SOAP_SERVICES.find((service) => service.name === 'patrons')!.namespace;

/** An envelope as zeep writes one: the operation and its arguments qualified in the service's namespace. */
function envelope(operation: string, argsXml: Record<string, string>, key?: { key: string; secret: string }): string {
  const header = key
    ? `<soap-env:Header><wsse:Security xmlns:wsse="${WSSE_NS}"><wsse:UsernameToken><wsse:Username>${escapeXmlText(key.key)}</wsse:Username>` +
      `<wsse:Password Type="${PASSWORD_TEXT}">${escapeXmlText(key.secret)}</wsse:Password></wsse:UsernameToken></wsse:Security></soap-env:Header>`
    : '';
  const body = Object.entries(argsXml)
    .map(([name, value]) => `<ns0:${name}>${escapeXmlText(value)}</ns0:${name}>`)
    .join('');
  return (
    `<?xml version='1.0' encoding='utf-8'?>\n<soap-env:Envelope xmlns:soap-env="${SOAP11.ns}">${header}` +
    `<soap-env:Body><ns0:${operation} xmlns:ns0="${NS}">${body}</ns0:${operation}></soap-env:Body></soap-env:Envelope>`
  );
}

/** The patron's id in a SOAP answer: PatronValidateResponse's id, or the Patron's id in PatronLookupResponse. */
const soapId = (body: string, operation: string) =>
  body.includes(`${operation}Response`) && !body.includes('Fault>') ? /<(?:\w+:)?id>(\d+)<\/(?:\w+:)?id>/.exec(body)?.[1] : undefined;

interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
  sampleErrors: string[];
  serverUs?: number;
  postgresUs?: number;
  loadUs?: number;
  trips?: number;
}

type Kind = 'validate' | 'lookup';

/** A request of a run: its method, path, headers and body for one patron, and how to tell its answer is that patron's. */
interface Shape {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  path: (barcode: string) => string;
  body?: (barcode: string) => string;
  /** The patron id the answer gives, or undefined when it is not a right answer. */
  answer: (status: number, body: string) => string | undefined;
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const admin = postgres(args['database-url'], { max: 1, onnotice: () => {} });
  const { env, cli, sql } = benchDatabase(args['database-url'], DB);
  const exists = (await admin`select 1 from pg_database where datname = ${DB}`).length > 0;
  const have =
    exists && !args.fresh ? await sql(async (db) => (await db`select count(*)::int as n from patrons`)[0]!.n as number) : undefined;
  if (have !== PATRONS) {
    await admin.unsafe(`drop database if exists ${DB} with (force)`);
    await admin.unsafe(`create database ${DB}`);
    process.stderr.write(`carrel generate --bibs ${BIBS} --patrons ${PATRONS} --holds 0…\n`);
    cli(['generate', '--bibs', String(BIBS), '--patrons', String(PATRONS), '--holds', '0', '--seed', String(SEED), '--json']);
    await sql((db) => db`vacuum analyze`);
  } else process.stderr.write(`reusing ${DB}: ${have} patrons (--fresh to rebuild)\n`);
  cli(['migrate']);
  if (((await sql(async (db) => (await db`select count(*)::int as n from search_queue`)[0]!.n as number)) ?? 0) > 0) {
    process.stderr.write('carrel search reindex…\n');
    cli(['search', 'reindex']);
  }

  // Every generated patron's barcode and id, in a fixed shuffled order: the stream the runs walk through.
  const idOf = new Map(
    await sql(async (db) =>
      (await db`select barcode, patron_id::text as id from patron_barcodes`).map((r) => [r.barcode as string, r.id as string] as const),
    ),
  );
  const barcodes = byHash(
    Array.from({ length: PATRONS }, (_, i) => patronBarcode(SEED, i + 1)),
    (b) => b,
  );
  if (barcodes.some((b) => !idOf.has(b))) throw new Error(`the bench database lacks some of the ${PATRONS} generated patrons`);
  const cursor: Record<Kind, number> = { validate: 0, lookup: 0 };
  const nextBarcode = (kind: Kind) => barcodes[cursor[kind]++ % barcodes.length]!;

  const key = JSON.parse(cli(['keys', 'create', '--name', 'bench soap', '--roles', 'all', '--rate-limit', 'unlimited', '--json'])) as {
    key: string;
    secret: string;
  };
  const server = await startChild(
    ['dist/server.js'],
    { ...env, PORT: String(PORT), HOST: '127.0.0.1', CARREL_WORKERS: '1' },
    /is listening on/,
    path.join(RESULTS, 'soap-carrel.log'),
  );
  // A failure midway leaves no server behind to hold the port.
  process.on('exit', () => server.exitCode === null && server.kill('SIGINT'));
  const basic = `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}`;
  const token = (await (await fetch(`${BASE}/v6/token`, { method: 'POST', headers: { authorization: basic } })).json()) as {
    access_token: string;
  };
  const bearer = { authorization: `Bearer ${token.access_token}` };
  const soapHeaders = (operation: string) => ({ 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NS}/${operation}"` });

  const shapes: Record<string, Shape> = {
    'REST POST /v6/patrons/validate (bearer)': {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      path: () => '/v6/patrons/validate',
      body: (barcode) => JSON.stringify({ barcode, pin: GENERATED_PIN }),
      // 204 with no body: right when the PIN was checked; the patron's id is not in it.
      answer: (status) => (status === 204 ? '' : undefined),
    },
    'SOAP PatronValidate (UsernameToken)': {
      method: 'POST',
      headers: soapHeaders('PatronValidate'),
      path: () => '/soap/patrons',
      body: (barcode) => envelope('PatronValidate', { barcode, pin: GENERATED_PIN }, key),
      answer: (status, body) => (status === 200 ? soapId(body, 'PatronValidate') : undefined),
    },
    'SOAP PatronValidate (HTTP Basic)': {
      method: 'POST',
      headers: { ...soapHeaders('PatronValidate'), authorization: basic },
      path: () => '/soap/patrons',
      body: (barcode) => envelope('PatronValidate', { barcode, pin: GENERATED_PIN }),
      answer: (status, body) => (status === 200 ? soapId(body, 'PatronValidate') : undefined),
    },
    'REST GET /v6/patrons/find?barcode= (bearer)': {
      method: 'GET',
      headers: bearer,
      path: (barcode) => `/v6/patrons/find?barcode=${encodeURIComponent(barcode)}`,
      answer: (status, body) => (status === 200 ? /^\{"id":"?(\d+)/.exec(body)?.[1] : undefined),
    },
    'SOAP PatronLookup (UsernameToken)': {
      method: 'POST',
      headers: soapHeaders('PatronLookup'),
      path: () => '/soap/patrons',
      body: (barcode) => envelope('PatronLookup', { barcode }, key),
      answer: (status, body) => (status === 200 ? soapId(body, 'PatronLookup') : undefined),
    },
    'SOAP PatronLookup (HTTP Basic)': {
      method: 'POST',
      headers: { ...soapHeaders('PatronLookup'), authorization: basic },
      path: () => '/soap/patrons',
      body: (barcode) => envelope('PatronLookup', { barcode }),
      answer: (status, body) => (status === 200 ? soapId(body, 'PatronLookup') : undefined),
    },
  };

  /** Whether an answer is right for the patron asked about: the same id (REST validate's 204 carries none). */
  const right = (shape: Shape, barcode: string, status: number, body: string) => {
    const id = shape.answer(status, body);
    return id !== undefined && (id === '' || id === idOf.get(barcode));
  };

  // One request of each kind first, by fetch: a wrong shape fails here, not as a run of errors.
  for (const [name, shape] of Object.entries(shapes)) {
    const barcode = barcodes[barcodes.length - 1]!;
    const response = await fetch(`${BASE}${shape.path(barcode)}`, {
      method: shape.method,
      headers: shape.headers,
      body: shape.body?.(barcode),
    });
    const text = await response.text();
    if (!right(shape, barcode, response.status, text)) throw new Error(`${name} of ${barcode}: ${response.status} ${text.slice(0, 600)}`);
  }

  /** Each request for the next patron's barcode, kept in the client's context for checking its answer (one in flight a client). */
  const setupFor = (kind: Kind, shape: Shape) => (request: autocannon.Request, context: object) => {
    const barcode = nextBarcode(kind);
    (context as { barcode?: string }).barcode = barcode;
    return { ...request, path: shape.path(barcode), ...(shape.body ? { body: shape.body(barcode) } : {}) };
  };

  async function load(kind: Kind, shape: Shape, seconds = SECONDS): Promise<Run> {
    let bad = 0;
    const sampleErrors: string[] = [];
    const result = await autocannon({
      url: BASE,
      connections: CONNECTIONS,
      duration: seconds,
      requests: [
        {
          method: shape.method,
          headers: shape.headers,
          setupRequest: setupFor(kind, shape),
          onResponse: (status: number, body: string, context: object) => {
            if (right(shape, (context as { barcode: string }).barcode, status, body)) return;
            bad++;
            if (sampleErrors.length < 3) sampleErrors.push(`${status} ${body.slice(0, 300)}`);
          },
        },
      ],
    });
    return {
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts + bad,
      requests: result.requests.total,
      sampleErrors,
    };
  }

  /**
   * Three calls in step: every connection sends REST, SOAP with a UsernameToken and SOAP with
   * HTTP Basic in turn, so that all three meet the same moments of a shared machine and
   * their ratio holds while the machine's load wanders (it moved validate's time by twice between
   * separate runs). Each answer's latency is autocannon's, told apart by the request it answered.
   */
  async function inStep(kind: Kind, steps: Shape[]): Promise<{ requests: number; p50: number; p99: number; errors: number }[]> {
    const latencies = steps.map((): number[] => []);
    const errors = steps.map(() => 0);
    // autocannon calls a request's onResponse, then at once emits the client's 'response' with the latency.
    let answered = 0;
    const result = await autocannon({
      url: BASE,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: steps.map((shape, i) => ({
        method: shape.method,
        headers: shape.headers,
        setupRequest: setupFor(kind, shape),
        onResponse: (status: number, body: string, context: object) => {
          answered = i;
          if (!right(shape, (context as { barcode: string }).barcode, status, body)) errors[i]!++;
        },
      })),
      setupClient: (client) => client.on('response', (_status: number, _bytes: number, ms: number) => latencies[answered]!.push(ms)),
    });
    return steps.map((_, i) => {
      const sorted = latencies[i]!.sort((a, b) => a - b);
      return {
        requests: sorted.length,
        p50: percentile(sorted, 0.5),
        p99: percentile(sorted, 0.99),
        errors: errors[i]! + (i === 0 ? result.errors + result.timeouts : 0),
      };
    });
  }

  /** A run, with what each request cost the server, PostgreSQL and the load generator. */
  async function measured(kind: Kind, shape: Shape): Promise<Run> {
    // PostgreSQL's backends report their commits at most once a second while busy, and an idle
    // one only after 10 s: without the pause the last run's round trips would be counted in this one's.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const { result, cost } = await costPer(
      admin,
      DB,
      server.pid!,
      () => load(kind, shape),
      (run) => run.requests,
    );
    return { ...result, serverUs: cost.serverUs, postgresUs: cost.postgresUs, loadUs: cost.selfUs, trips: cost.trips };
  }

  // Warmed before anything is measured: the pool opens, statements are prepared, the key is proven
  // once (its secret's scrypt check is remembered), every path compiled.
  const runs = Object.entries(shapes).map(([name, shape]) => {
    const kind: Kind = name.includes('alidate') ? 'validate' : 'lookup';
    return { name, shape, kind };
  });
  process.stderr.write('warming up…\n');
  for (const run of runs) await load(run.kind, run.shape, 2);

  const perRound: Run[][] = runs.map(() => []);
  const stepRounds: Awaited<ReturnType<typeof inStep>>[] = [];
  const lookupSteps: typeof stepRounds = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [i, run] of runs.entries()) {
      process.stderr.write(`round ${round}/${ROUNDS}: ${run.name}…\n`);
      perRound[i]!.push(await measured(run.kind, run.shape));
    }
    for (const kind of ['validate', 'lookup'] as const) {
      process.stderr.write(`round ${round}/${ROUNDS}: the three ${kind} calls in step…\n`);
      const three = runs.filter((run) => run.kind === kind).map((run) => run.shape);
      (kind === 'validate' ? stepRounds : lookupSteps).push(await inStep(kind, three));
    }
  }
  const serverPeak = peakRssMb(server.pid!);
  await stop(server);
  cli(['keys', 'revoke', key.key]);
  await admin.end();

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  const of = (i: number, f: (r: Run) => number | undefined) => median(perRound[i]!.map((r) => f(r) ?? NaN));
  /** Run i against run base, round by round: the median of the rounds' ratios. */
  const ratio = (i: number, base: number, f: (r: Run) => number) =>
    median(perRound[i]!.map((r, round) => f(r) / f(perRound[base]![round]!)));
  const baseOf = (i: number) => (i < 3 ? 0 : 3);
  console.log(
    `\n${PATRONS} patrons (carrel generate, seed ${SEED}, PIN ${GENERATED_PIN}), each request another patron; PostgreSQL; ` +
      `${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per run (medians over the rounds); Node ${process.version}\n`,
  );
  console.table(
    runs.map((run, i) => ({
      run: run.name,
      'req/s': Math.round(of(i, (r) => r.rps)),
      'p50 ms': of(i, (r) => r.p50),
      'p99 ms': of(i, (r) => r.p99),
      'p50 vs REST': ratio(i, baseOf(i), (r) => r.p50).toFixed(2),
      'p99 vs REST': ratio(i, baseOf(i), (r) => r.p99).toFixed(2),
      errors: perRound[i]!.reduce((sum, r) => sum + r.errors, 0),
      'server µs/req': of(i, (r) => r.serverUs),
      'postgres µs/req': of(i, (r) => r.postgresUs),
      'autocannon µs/req': of(i, (r) => r.loadUs),
      'db trips/req': of(i, (r) => r.trips).toFixed(2),
    })),
  );
  for (const [i, run] of runs.entries()) {
    const samples = perRound[i]!.flatMap((r) => r.sampleErrors).slice(0, 3);
    if (samples.length) console.log(`${run.name} errors, e.g. ${JSON.stringify(samples)}`);
  }
  console.log(`server peak RSS ${serverPeak} MB`);
  const roundsOf = (i: number, f: (r: Run) => number) => perRound[i]!.map(f).join(', ');
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  let met = true;
  const stepTable = (what: string, offset: number, steps: typeof stepRounds) => {
    console.log(`\nthe three ${what} calls in step (each connection sends them in turn), ${SECONDS} s a round:`);
    console.table(
      runs.slice(offset, offset + 3).map((run, i) => ({
        run: run.name,
        requests: steps.reduce((sum, r) => sum + r[i]!.requests, 0),
        'p50 ms': median(steps.map((r) => r[i]!.p50)),
        'p99 ms': median(steps.map((r) => r[i]!.p99)),
        'p50 vs REST': median(steps.map((r) => r[i]!.p50 / r[0]!.p50)).toFixed(2),
        'p99 vs REST': median(steps.map((r) => r[i]!.p99 / r[0]!.p99)).toFixed(2),
        errors: steps.reduce((sum, r) => sum + r[i]!.errors, 0),
      })),
    );
  };
  stepTable('validate', 0, stepRounds);
  stepTable('lookup', 3, lookupSteps);
  for (const i of [1, 2]) {
    const rounds = stepRounds.map((r) => r[i]!.p50 / r[0]!.p50);
    const r = median(rounds);
    met &&= r <= 1.5;
    console.log(
      `budget: ${runs[i]!.name} p50 <= 1.5 x REST validate's, in step -> ${r.toFixed(2)} (rounds: ${rounds.map((x) => x.toFixed(2)).join(', ')}; ` +
        `in separate runs ${ratio(i, 0, (x) => x.p50).toFixed(2)}): ${verdict(r <= 1.5)}`,
    );
  }
  for (const i of [4, 5]) {
    const p99 = of(i, (r) => r.p99);
    met &&= p99 <= 20;
    console.log(
      `budget: ${runs[i]!.name} p99 <= 20 ms at ${CONNECTIONS} connections -> ${p99} ms (rounds: ${roundsOf(i, (r) => r.p99)}; REST ${roundsOf(3, (r) => r.p99)}; ` +
        `in step ${median(lookupSteps.map((r) => r[i - 3]!.p99))} ms against REST's ${median(lookupSteps.map((r) => r[0]!.p99))}): ${verdict(p99 <= 20)}`,
    );
  }
  process.exitCode = met ? 0 : 1;
}

await main();
