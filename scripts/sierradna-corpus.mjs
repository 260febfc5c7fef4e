// Runs every .sql file of a folder through Carrel's SQL door as a SQL login, and prints how many
// run and how many fail, with each failure's first error line: a library's SierraDNA report SQL,
// collected as published, measured unchanged against Carrel's sierra_view views.
//
//   node scripts/sierradna-corpus.mjs FOLDER [--url URL] [--json]
//
// Without --url it starts a Carrel of its own on a new database (a temporary embedded one, or,
// when DATABASE_URL is set, a new database on that PostgreSQL server, dropped afterwards), with
// the demo catalogue on the embedded engine and a generated catalogue with patrons and holds on
// both, some of those patrons borrowing through the REST API and two owing a charge (reports
// share out loans and blocked patrons), its SQL port on a free port, and a SQL login; then stops it. With --url it uses that SQL
// login's URL (`carrel sql users create NAME --json`) on a Carrel already running.
//
// Each file is sent as one simple-query batch (several statements, temporary tables and all, as a
// client such as psql with -1 sends them), in a transaction of its own; it runs when the door
// answers with no error. A byte-order mark a Windows editor left at a file's start is dropped, as
// the editors and clients libraries paste these files into drop it. A file PostgreSQL's own parser
// cannot read (libpg-query: a typo in the published text) would fail on Sierra's database too: it
// is counted apart, and the percentage is of the files that are SQL. Exit 0 whatever the count:
// the figures are the result.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadModule, parseSync } from 'libpg-query';
import postgres from 'postgres';

const ROOT = path.resolve(import.meta.dirname, '..');
const exec = promisify(execFile);

function usage(message) {
  console.error(`${message}\nusage: node scripts/sierradna-corpus.mjs FOLDER [--url URL] [--json]`);
  process.exit(2);
}

const args = process.argv.slice(2);
const json = args.includes('--json');
const urlAt = args.indexOf('--url');
const loginUrl = urlAt >= 0 ? args[urlAt + 1] : undefined;
if (urlAt >= 0 && !loginUrl) usage('--url needs a value');
const folder = args.filter((a, i) => !a.startsWith('--') && (urlAt < 0 || i !== urlAt + 1))[0];
if (!folder) usage('which folder?');
const files = fs
  .readdirSync(folder)
  .filter((f) => f.toLowerCase().endsWith('.sql'))
  .sort();
if (files.length === 0) usage(`no .sql files in ${folder}`);

await loadModule();
const texts = new Map(files.map((f) => [f, fs.readFileSync(path.join(folder, f), 'utf8').replace(/^\uFEFF/, '')]));
/** The files PostgreSQL's parser refuses, with its message. */
const notSql = files.flatMap((file) => {
  try {
    parseSync(texts.get(file));
    return [];
  } catch (error) {
    return [{ file, error: String(error.message).split('\n')[0] }];
  }
});
const queries = files.filter((f) => !notSql.some((n) => n.file === f));

/** A port nothing listens on now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The environment of Carrel's processes: this one's, with the database chosen here. */
function carrelEnv(database) {
  const env = { ...process.env, LOG_LEVEL: 'warn', ...database };
  if (!database.DATABASE_URL) delete env.DATABASE_URL;
  return env;
}

async function cli(argv, env) {
  const { stdout } = await exec(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...argv], {
    cwd: ROOT,
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** A Carrel of its own: the server, its SQL login's URL, and how to stop it and remove its data. */
async function ownCarrel() {
  const cleanups = [];
  let database;
  const pgUrl = process.env.DATABASE_URL;
  if (pgUrl) {
    const name = `carrel_corpus_${process.pid}`;
    const admin = postgres(pgUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    await admin.end();
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    database = { DATABASE_URL: url.toString() };
    cleanups.push(async () => {
      const sql = postgres(pgUrl, { max: 1, onnotice: () => {} });
      await sql.unsafe(`drop database if exists ${name} with (force)`);
      const reader = (await sql`select 'carrel_reader_' || left(md5(${name}), 12) as r`)[0].r;
      for (const role of await sql`select rolname from pg_roles where pg_has_role(rolname, ${reader}, 'member') and rolname <> ${reader}`)
        await sql.unsafe(`drop role if exists "${role.rolname}"`);
      await sql.unsafe(`drop role if exists "${reader}"`);
      await sql.end();
    });
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-corpus-'));
    database = { CARREL_DATA_DIR: dir };
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  const [port, sqlPort] = [await freePort(), await freePort()];
  const env = carrelEnv({ ...database, CARREL_SQL_PORT: String(sqlPort) });
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', CARREL_DEMO_CATALOGUE: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout.on('data', (chunk) => (output += chunk));
  server.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => server.on('exit', resolve));
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGINT');
      await exited;
    }
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    while (!output.includes('is listening on')) {
      if (server.exitCode !== null) throw new Error(`Carrel did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await cli(['generate', '--bibs', '300', '--patrons', '60', '--holds', '40', '--seed', '7', '--json'], env);
    const login = JSON.parse(await cli(['sql', 'users', 'create', 'corpus', '--json'], env));
    const url = new URL(login.url);
    url.hostname = '127.0.0.1';
    await circulate(
      `http://127.0.0.1:${port}`,
      JSON.parse(await cli(['keys', 'create', '--name', 'corpus', '--roles', 'all', '--json'], env)),
      url,
    );
    return { url: url.toString(), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Twenty loans to the first patrons who may borrow, of items on the shelf, and a charge to two of them, through the REST API. */
async function circulate(base, key, loginUrl) {
  const issued = await fetch(`${base}/v6/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}` },
  });
  const token = (await issued.json()).access_token;
  const send = async (path, body) => {
    const res = await fetch(`${base}/v6${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    // A refusal (an expired patron, a hold) leaves that loan out: the data need not be exact.
    if (!res.ok) console.error(`(data) POST ${path}: ${res.status} ${await res.text()}`);
  };
  const sql = postgres(loginUrl.toString(), { max: 1, onnotice: () => {} });
  try {
    const patrons =
      await sql`select record_num from patron_view where coalesce(expiration_date_gmt > now(), true) and mblock_code = '-' order by record_num limit 10`;
    const items =
      await sql`select record_num from item_view where item_status_code = '-' and barcode is not null order by record_num limit 20`;
    for (const [k, item] of items.entries())
      await send(`/patrons/${patrons[k % patrons.length].record_num}/checkouts`, { itemId: String(item.record_num) });
    for (const patron of patrons.slice(0, 2))
      await send(`/patrons/${patron.record_num}/fines/charge`, { amount: 1500, reason: 'Lost item' });
  } finally {
    await sql.end();
  }
}

const carrel = loginUrl ? { url: loginUrl, stop: async () => {} } : await ownCarrel();
const failures = [];
const connect = () => postgres(carrel.url, { max: 1, onnotice: () => {}, connect_timeout: 30 });
try {
  let sql = connect();
  for (const file of queries) {
    try {
      await sql.unsafe(texts.get(file)).simple();
    } catch (error) {
      failures.push({ file, code: error.code ?? 'connection', error: String(error.message).split('\n')[0] });
      // A statement ended by the time-out on the embedded engine ends the session with it.
      if (error.code === undefined || /^(08|57P)/.test(error.code)) {
        await sql.end({ timeout: 1 });
        sql = connect();
      }
    }
  }
  await sql.end();
} finally {
  await carrel.stop();
}

const ran = queries.length - failures.length;
const percent = ((100 * ran) / queries.length).toFixed(1);
if (json) {
  const summary = {
    files: files.length,
    notSql,
    queries: queries.length,
    ran,
    failed: failures.length,
    percent: Number(percent),
    failures,
  };
  console.log(JSON.stringify(summary, null, 2));
} else {
  for (const n of notSql) console.log(`NOT SQL ${n.file}: ${n.error}`);
  for (const f of failures) console.log(`FAIL ${f.file}: ${f.code} ${f.error}`);
  console.log(`${files.length} files, ${notSql.length} not PostgreSQL (the parser refuses them)`);
  console.log(`${ran} of ${queries.length} queries run (${percent}%), ${failures.length} fail`);
}
