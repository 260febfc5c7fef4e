// `npm run bench:account`: the public catalogue's account page (GET /catalog/account) of patrons
// with 50 holds and 50 loans each, against the catalogue's search page (GET /catalog?text=) in the
// same run, on PostgreSQL (issue 39). The patrons are signed in through the real sign-in form (the
// visitor's cookie and its form token, then the session cookie), and each request is another
// patron's page: a stream through all their sessions. Every answer is read: an account page that
// does not list exactly that patron's holds and loans (a signed-out or someone else's page) counts
// as an error, as does a search page that is not a results page with hits. The two runs take turns,
// round after round, and the ratio compares runs of the same round, since on a shared machine
// absolute figures wander from minute to minute. Besides rate and latency, each run reports the
// CPU time per request of the server, of its PostgreSQL backends and of the load generator
// (autocannon, in this process), the database round trips per request and the bytes of an answer.
// The catalogue and patrons come from `carrel generate` (seed 1, PIN 1234, no holds); the bench
// patrons' holds and loans are placed through the REST API (POST /patrons/{id}/checkouts and
// /patrons/{id}/holds/requests), so the rows are the ones Carrel writes. All of it is kept in the
// database carrel_bench_account and reused while it holds the same catalogue (--fresh to rebuild).
// Options: --bibs N (default 10000), --patrons N signed in (default 200), --holds N and --loans N
// each (default 50), --seconds N per run (default 5), --rounds N (default 3), --connections N
// (default 32), --fresh, --database-url URL, --cpu-prof DIR (the server's CPU profile, node
// --cpu-prof, written there when it stops: warm-up and every run).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { GENERATED_PIN } from '../src/generate/patrons.ts';
import { HOLDABLE_STATUSES } from '../src/holds/repository.ts';
import { ACTIVE_STATES } from '../src/holds/states.ts';
import { STOP_WORDS } from '../src/search/text.ts';
import { benchDatabase, byHash, costPer, peakRssMb, ROOT, startChild, stop } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    bibs: { type: 'string', default: '10000' },
    patrons: { type: 'string', default: '200' },
    holds: { type: 'string', default: '50' },
    loans: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    fresh: { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
    'database-url': { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const BIBS = Number(args.bibs);
const PATRONS = Number(args.patrons);
const HOLDS = Number(args.holds);
const LOANS = Number(args.loans);
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const CONNECTIONS = Number(args.connections);
/** Generated patrons: enough that the bench patrons (current cards, no block) are found among them. */
const GENERATED_PATRONS = Math.max(Math.round(BIBS / 10), PATRONS * 4);
const SEED = 1;
const DB = 'carrel_bench_account';
const RESULTS = path.join(ROOT, 'bench/results');
const PORT = 3943;
/** The pause before each measured run, for the database's counts of the last one to come in. */
const SETTLE_MS = 10_500;
const BASE = `http://127.0.0.1:${PORT}`;
/** Requests placing holds and loans at once while the bench patrons are filled. */
const FILL_WORKERS = 8;
/** The account page's budget (issue 39). */
const P99_BUDGET_MS = 50;

interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
  /** Bytes read per answer, headers included, in KB. */
  kb: number;
  sampleErrors: string[];
  serverUs?: number;
  postgresUs?: number;
  loadUs?: number;
  trips?: number;
}

/** A signed-in bench patron: the session cookie's value and the ids its page must list. */
interface Signed {
  patronId: string;
  barcode: string;
  session: string;
  holds: Set<string>;
  loans: Set<string>;
  csrf: string;
}

const contentWord = (w: string) => w.length > 2 && !STOP_WORDS.has(w) && /^\p{L}+$/u.test(w);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The value of a Set-Cookie header's cookie of this name. */
function setCookie(response: Response, name: string): string | undefined {
  for (const header of response.headers.getSetCookie()) {
    const [pair] = header.split(';');
    const eq = pair!.indexOf('=');
    if (pair!.slice(0, eq).trim() === name) return pair!.slice(eq + 1).trim();
  }
  return undefined;
}

/** Why an account page is not the patron's own with all its holds and loans; undefined when it is. */
function wrongAccount(patron: Signed, status: number, body: string): string | undefined {
  if (status !== 200) return `status ${status}`;
  let holds = 0;
  let loans = 0;
  for (const m of body.matchAll(/data-(hold|loan)-id="(\d+)"/g)) {
    const own = m[1] === 'hold' ? patron.holds : patron.loans;
    if (!own.has(m[2]!)) return `${m[1]} ${m[2]} is not patron ${patron.patronId}'s`;
    if (m[1] === 'hold') holds++;
    else loans++;
  }
  if (holds !== patron.holds.size || loans !== patron.loans.size)
    return `${holds} holds and ${loans} loans listed, patron ${patron.patronId} has ${patron.holds.size} and ${patron.loans.size}`;
  return undefined;
}

/** Why a search page is not a results page with hits; undefined when it is. */
function wrongSearch(status: number, body: string): string | undefined {
  if (status !== 200) return `status ${status}`;
  const total = /data-total="(\d+)"/.exec(body)?.[1];
  if (total === undefined) return 'no result count';
  return Number(total) > 0 ? undefined : 'no hits';
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const admin = postgres(args['database-url'], { max: 1, onnotice: () => {} });
  const { env, cli, sql } = benchDatabase(args['database-url'], DB);
  const exists = (await admin`select 1 from pg_database where datname = ${DB}`).length > 0;
  const have =
    exists && !args.fresh
      ? await sql(async (db) => {
          const [row] = await db`select (select count(*)::int from bibs) as bibs, (select count(*)::int from patrons) as patrons`;
          return `${row!.bibs}/${row!.patrons}`;
        })
      : undefined;
  if (have !== `${BIBS}/${GENERATED_PATRONS}`) {
    await admin.unsafe(`drop database if exists ${DB} with (force)`);
    await admin.unsafe(`create database ${DB}`);
    process.stderr.write(`carrel generate --bibs ${BIBS} --patrons ${GENERATED_PATRONS} --holds 0…\n`);
    cli(['generate', '--bibs', String(BIBS), '--patrons', String(GENERATED_PATRONS), '--holds', '0', '--seed', String(SEED), '--json']);
  } else process.stderr.write(`reusing ${DB}: ${BIBS} bibs, ${GENERATED_PATRONS} patrons (--fresh to rebuild)\n`);
  cli(['migrate']);
  if (((await sql(async (db) => (await db`select count(*)::int as n from search_queue`)[0]!.n as number)) ?? 0) > 0) {
    process.stderr.write('carrel search reindex…\n');
    cli(['search', 'reindex']);
  }

  const key = JSON.parse(cli(['keys', 'create', '--name', 'bench account', '--roles', 'all', '--rate-limit', 'unlimited', '--json'])) as {
    key: string;
    secret: string;
  };
  const profile = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args['cpu-prof'])}`] : [];
  const server = await startChild(
    [...profile, 'dist/server.js'],
    { ...env, PORT: String(PORT), HOST: '127.0.0.1', CARREL_WORKERS: '1' },
    /is listening on/,
    path.join(RESULTS, 'account-carrel.log'),
  );
  // A failure midway leaves no server behind to hold the port.
  process.on('exit', () => server.exitCode === null && server.kill('SIGINT'));
  const basic = `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}`;
  const token = (await (await fetch(`${BASE}/v6/token`, { method: 'POST', headers: { authorization: basic } })).json()) as {
    access_token: string;
  };
  const api = async (method: string, apiPath: string, body?: unknown) => {
    const response = await fetch(`${BASE}/v6${apiPath}`, {
      method,
      headers: { authorization: `Bearer ${token.access_token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, text: await response.text() };
  };

  // The bench patrons: current cards (a year left), no block, nothing owed, in id order. Those that
  // already have their holds and loans (a kept database) are reused; the next ones get theirs.
  const patrons = await loadPatrons(sql);
  const ready = patrons.filter((p) => p.holds === HOLDS && p.loans === LOANS);
  const fresh = patrons.filter((p) => p.holds === 0 && p.loans === 0);
  const toFill = fresh.slice(0, Math.max(0, PATRONS - ready.length));
  if (ready.length + toFill.length < PATRONS)
    throw new Error(`only ${ready.length + fresh.length} patrons can be bench patrons; --fresh, or more --bibs`);
  if (toFill.length) {
    const started = performance.now();
    process.stderr.write(`placing ${LOANS} loans and ${HOLDS} holds for each of ${toFill.length} patrons through the REST API…\n`);
    await fill(sql, api, toFill, patrons);
    const seconds = (performance.now() - started) / 1000;
    process.stderr.write(`  ${toFill.length * (LOANS + HOLDS)} requests in ${seconds.toFixed(1)} s\n`);
    await sql((db) => db`vacuum analyze`);
  }
  const bench = [...ready, ...toFill].sort((a, b) => Number(a.id) - Number(b.id)).slice(0, PATRONS);

  // Each bench patron signed in through the form, as a browser does it.
  process.stderr.write(`signing ${bench.length} patrons in through /catalog/signin…\n`);
  const owned = await ownIds(
    sql,
    bench.map((p) => p.id),
  );
  const signed: Signed[] = [];
  for (const p of bench) signed.push(await signIn(p, owned));
  const streamOrder = byHash(signed, (s) => s.barcode);
  let accountCursor = 0;

  // The search stream: the catalogue's own words and pairs of words of one record, each once, shuffled.
  const queries = await searchQueries(sql);
  let searchCursor = 0;

  type Kind = 'account' | 'search';
  async function load(kind: Kind, seconds = SECONDS): Promise<Run> {
    let bad = 0;
    const sampleErrors: string[] = [];
    const miss = (why: string) => {
      bad++;
      if (sampleErrors.length < 3) sampleErrors.push(why);
    };
    const request: autocannon.Request =
      kind === 'account'
        ? {
            method: 'GET',
            setupRequest: (req: autocannon.Request, context: object) => {
              const s = streamOrder[accountCursor++ % streamOrder.length]!;
              (context as { patron?: Signed }).patron = s;
              return { ...req, path: '/catalog/account', headers: { ...req.headers, cookie: `carrel_session=${s.session}` } };
            },
            onResponse: (status: number, body: string, context: object) => {
              const why = wrongAccount((context as { patron: Signed }).patron, status, body);
              if (why) miss(why);
            },
          }
        : {
            method: 'GET',
            setupRequest: (req: autocannon.Request) => ({
              ...req,
              path: `/catalog?text=${encodeURIComponent(queries[searchCursor++ % queries.length]!)}`,
            }),
            onResponse: (status: number, body: string) => {
              const why = wrongSearch(status, body);
              if (why) miss(why);
            },
          };
    const result = await autocannon({ url: BASE, connections: CONNECTIONS, duration: seconds, requests: [request] });
    return {
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts + bad,
      requests: result.requests.total,
      kb: result.throughput.total / Math.max(1, result.requests.total) / 1024,
      sampleErrors,
    };
  }

  async function measured(kind: Kind): Promise<Run> {
    // PostgreSQL's backends report their commits at most once a second while busy, and an idle
    // one only after 10 s: without the pause the last run's round trips would be counted in this one's.
    await sleep(SETTLE_MS);
    const { result, cost } = await costPer(
      admin,
      DB,
      server.pid!,
      () => load(kind),
      (run) => run.requests,
    );
    return { ...result, serverUs: cost.serverUs, postgresUs: cost.postgresUs, loadUs: cost.selfUs, trips: cost.trips };
  }

  // Warmed before anything is measured: the pool opens, statements are prepared, both pages compiled.
  process.stderr.write('warming up…\n');
  await load('account', 2);
  await load('search', 2);

  const runs: { name: string; kind: Kind }[] = [
    { name: 'GET /catalog?text= (search page, baseline)', kind: 'search' },
    { name: `GET /catalog/account (${HOLDS} holds, ${LOANS} loans)`, kind: 'account' },
  ];
  const perRound: Run[][] = runs.map(() => []);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [i, run] of runs.entries()) {
      process.stderr.write(`round ${round}/${ROUNDS}: ${run.name}…\n`);
      perRound[i]!.push(await measured(run.kind));
    }
  }
  const serverPeak = peakRssMb(server.pid!);

  // Signed out as a reader would, so the kept database does not gather live sessions.
  for (const s of signed) {
    await fetch(`${BASE}/catalog/signout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: `carrel_session=${s.session}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: s.csrf }).toString(),
    });
  }
  await stop(server);
  cli(['keys', 'revoke', key.key]);
  await admin.end();

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  const of = (i: number, f: (r: Run) => number | undefined) => median(perRound[i]!.map((r) => f(r) ?? NaN));
  /** Run i against the search page, round by round: the median of the rounds' ratios. */
  const ratio = (i: number, f: (r: Run) => number) => median(perRound[i]!.map((r, round) => f(r) / f(perRound[0]![round]!)));
  const searchWrapped = searchCursor > queries.length;
  console.log(
    `\n${BIBS} generated bibs (seed ${SEED}); ${signed.length} patrons signed in through /catalog/signin, each with ${HOLDS} holds and ${LOANS} loans ` +
      `placed through the REST API, each request another patron's page; search: ${queries.length} distinct queries of the catalogue's words` +
      `${searchWrapped ? ` (${searchCursor} sent: some twice)` : `, ${searchCursor} sent, none twice`}; PostgreSQL; ${CONNECTIONS} connections, ` +
      `${ROUNDS} rounds of ${SECONDS} s per run (medians over the rounds); Node ${process.version}\n`,
  );
  const rows = runs.map((run, i) => ({
    run: run.name,
    'req/s': Math.round(of(i, (r) => r.rps)),
    'p50 ms': of(i, (r) => r.p50),
    'p99 ms': of(i, (r) => r.p99),
    'p50 vs search': ratio(i, (r) => r.p50).toFixed(2),
    'p99 vs search': ratio(i, (r) => r.p99).toFixed(2),
    'req/s vs search': ratio(i, (r) => r.rps).toFixed(2),
    errors: perRound[i]!.reduce((sum, r) => sum + r.errors, 0),
    'KB/answer': of(i, (r) => r.kb).toFixed(1),
    'server µs/req': of(i, (r) => r.serverUs),
    'postgres µs/req': of(i, (r) => r.postgresUs),
    'autocannon µs/req': of(i, (r) => r.loadUs),
    'db trips/req': of(i, (r) => r.trips).toFixed(2),
  }));
  console.table(rows);
  for (const [i, run] of runs.entries()) {
    const samples = perRound[i]!.flatMap((r) => r.sampleErrors).slice(0, 3);
    if (samples.length) console.log(`${run.name} errors, e.g. ${JSON.stringify(samples)}`);
  }
  const roundsOf = (i: number, f: (r: Run) => number) => perRound[i]!.map(f).join(', ');
  console.log(`rounds, p99 ms: search ${roundsOf(0, (r) => r.p99)}; account ${roundsOf(1, (r) => r.p99)}`);
  console.log(`server peak RSS ${serverPeak} MB`);
  const p99 = of(1, (r) => r.p99);
  const errors = perRound[1]!.reduce((sum, r) => sum + r.errors, 0);
  const met = p99 <= P99_BUDGET_MS && errors === 0;
  console.log(
    `budget: account page p99 <= ${P99_BUDGET_MS} ms at ${CONNECTIONS} connections, no wrong page -> ${p99} ms ` +
      `(${ratio(1, (r) => r.p99).toFixed(2)} x the search page's ${of(0, (r) => r.p99)} ms), ${errors} errors: ${met ? 'met' : 'NOT met'}`,
  );
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(
    path.join(RESULTS, `account-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
    JSON.stringify({ bibs: BIBS, patrons: signed.length, holds: HOLDS, loans: LOANS, connections: CONNECTIONS, rows, perRound }, null, 2),
  );
  process.exitCode = met ? 0 : 1;

  /** A bench patron signed in through the form: the visitor's cookie and token, then the session cookie. */
  async function signIn(p: Candidate, own: Map<string, { holds: Set<string>; loans: Set<string> }>): Promise<Signed> {
    const form = await fetch(`${BASE}/catalog/signin`);
    const visitor = setCookie(form, 'carrel_signin');
    const token = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1];
    if (!visitor || token !== visitor) throw new Error(`the sign-in form gave no visitor cookie and token (${form.status})`);
    const posted = await fetch(`${BASE}/catalog/signin`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: `carrel_signin=${visitor}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: token, barcode: p.barcode, pin: GENERATED_PIN }).toString(),
    });
    const session = setCookie(posted, 'carrel_session');
    if (posted.status !== 303 || !session)
      throw new Error(`signing ${p.barcode} in: ${posted.status} ${(await posted.text()).slice(0, 400)}`);
    const ids = own.get(p.id) ?? { holds: new Set<string>(), loans: new Set<string>() };
    const signed = { patronId: p.id, barcode: p.barcode, session, ...ids, csrf: '' };
    // The page once by fetch: a wrong page fails here, not as a run of errors; its form token signs out at the end.
    const page = await fetch(`${BASE}/catalog/account`, { redirect: 'manual', headers: { cookie: `carrel_session=${session}` } });
    const body = await page.text();
    const why = wrongAccount(signed, page.status, body);
    if (why) throw new Error(`the account page of ${p.barcode}: ${why}`);
    signed.csrf = /name="csrf" value="([^"]+)"/.exec(body)?.[1] ?? '';
    return signed;
  }
}

interface Candidate {
  id: string;
  barcode: string;
  pickup: string;
  holds: number;
  loans: number;
}

type Sql = ReturnType<typeof benchDatabase>['sql'];
type Api = (method: string, apiPath: string, body?: unknown) => Promise<{ status: number; text: string }>;

/** The patrons who may be bench patrons, with their active holds and open loans so far. */
async function loadPatrons(sql: Sql): Promise<Candidate[]> {
  const rows = await sql(
    (db) => db<Candidate[]>`
      select p.id::text as id,
        (select barcode from patron_barcodes b where b.patron_id = p.id order by position limit 1) as barcode,
        coalesce((select code from locations where pickup and code = p.home_library_code),
                 (select min(code) from locations where pickup)) as pickup,
        (select count(*)::int from holds h where h.patron_id = p.id and h.state = any(${ACTIVE_STATES as string[]})) as holds,
        (select count(*)::int from checkouts c where c.patron_id = p.id and c.returned_date is null) as loans
      from patrons p
      where p.block_code = '-' and p.money_owed = 0 and not p.suppressed and p.expiration_date >= current_date + 365
      order by p.id`,
  );
  if (!rows) throw new Error(`could not read the patrons of ${DB}`);
  return rows.filter((r) => r.barcode !== null);
}

/**
 * Gives each patron LOANS loans and HOLDS holds through the REST API, FILL_WORKERS patrons at a
 * time. Loans take available items in a fixed shuffled order; holds take bibs with a copy that can
 * fill one, patron k from the k×13th on, so that several bench patrons queue for most of them (the
 * page shows each hold's place in its queue). A refusal (an item already out, a bib no copy of which
 * can fill a hold) moves on to the next.
 */
async function fill(sql: Sql, api: Api, toFill: Candidate[], all: Candidate[]): Promise<void> {
  const items = byHash(
    (await sql(
      (db) => db<{ id: string }[]>`
        select i.id::text as id from items i
        where i.status = '-' and not i.suppressed and i.deleted_date is null
          and not exists (select 1 from checkouts c where c.item_id = i.id and c.returned_date is null)`,
    )) ?? [],
    (r) => r.id,
  ).map((r) => r.id);
  const bibs = byHash(
    (await sql(
      (db) => db<{ id: string }[]>`
        select distinct ib.bib_id::text as id from item_bibs ib join items i on i.id = ib.item_id
        where i.status = any(${HOLDABLE_STATUSES}) and not i.suppressed and i.deleted_date is null`,
    )) ?? [],
    (r) => r.id,
  ).map((r) => r.id);
  if (items.length < toFill.length * LOANS) throw new Error(`${items.length} items to lend, ${toFill.length * LOANS} needed: more --bibs`);
  if (bibs.length < HOLDS * 2) throw new Error(`${bibs.length} bibs to hold: more --bibs`);
  let itemCursor = 0;
  const refused = (r: { status: number }) => r.status === 409 || r.status === 400;

  async function one(p: Candidate): Promise<void> {
    for (let n = 0; n < LOANS;) {
      if (itemCursor >= items.length) throw new Error('ran out of items to lend: more --bibs');
      const r = await api('POST', `/patrons/${p.id}/checkouts`, { itemId: items[itemCursor++] });
      if (r.status === 200) n++;
      else if (!refused(r)) throw new Error(`checkout for patron ${p.id}: ${r.status} ${r.text}`);
    }
    const k = all.indexOf(p);
    for (let n = 0, j = 0; n < HOLDS; j++) {
      if (j >= bibs.length) throw new Error(`patron ${p.id} could place only ${n} holds`);
      const bib = bibs[(k * 13 + j) % bibs.length]!;
      const r = await api('POST', `/patrons/${p.id}/holds/requests`, { recordType: 'b', recordNumber: bib, pickupLocation: p.pickup });
      if (r.status === 204) n++;
      else if (!refused(r)) throw new Error(`hold for patron ${p.id}: ${r.status} ${r.text}`);
    }
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: FILL_WORKERS }, async () => {
      while (next < toFill.length) await one(toFill[next++]!);
    }),
  );
}

/** Each patron's active hold ids and open loan (checkout) ids: what their page must list. */
async function ownIds(sql: Sql, ids: string[]): Promise<Map<string, { holds: Set<string>; loans: Set<string> }>> {
  const own = new Map(ids.map((id) => [id, { holds: new Set<string>(), loans: new Set<string>() }]));
  const rows = await sql(
    (db) => db<{ patron: string; kind: 'hold' | 'loan'; id: string }[]>`
      select patron_id::text as patron, 'hold' as kind, id::text from holds
        where patron_id = any(${ids}::bigint[]) and state = any(${ACTIVE_STATES as string[]})
      union all
      select patron_id::text, 'loan', id::text from checkouts where patron_id = any(${ids}::bigint[]) and returned_date is null`,
  );
  for (const r of rows ?? []) own.get(r.patron)![r.kind === 'hold' ? 'holds' : 'loans'].add(r.id);
  return own;
}

/** The catalogue's words and pairs of words of one record, each once, in a fixed shuffled order. */
async function searchQueries(sql: Sql): Promise<string[]> {
  const docs = (await sql((db) => db<{ words: string }[]>`select words from search_docs order by bib_id`)) ?? [];
  const queries = new Set<string>();
  for (const d of docs) {
    const ws = [...new Set(d.words.trim().split(' ').filter(contentWord))];
    for (const w of ws) queries.add(w);
    for (let i = 0; i + 1 < ws.length; i += 2) queries.add(`${ws[i]} ${ws[i + 1]}`);
  }
  if (queries.size === 0) throw new Error(`${DB} has no search index`);
  return byHash([...queries], (q) => q);
}

await main();
