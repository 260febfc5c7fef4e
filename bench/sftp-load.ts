// `npm run bench:sftp`: a MARC file of N generated records dropped on the SFTP door by OpenSSH's
// `sftp`, timed from the client's start until GET /v6/files says the file is loaded, against
// `carrel import` of the same file (the baseline) in the same run. Runs alternate (import, SFTP,
// import, SFTP …) so that the machine's noise falls on both; each goes into a fresh copy of one
// prepared database (migrated, the starter profile applied by a first server start, an SFTP
// account with a public key, an API key with Files_Read), so both load into the same state.
// The baseline runs with no server, as `carrel import` is timed by bench:import; the SFTP runs
// start the server first (not timed).
// Options: --records N (default 100000), --rounds N (default 2), --embedded (the embedded engine
// instead of PostgreSQL), --database-url URL.
import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { sftpBatch } from '../test/helpers/sftp.ts';
import { freePort } from '../test/helpers/tcp.ts';
import { dbUrl, peakRssMb, ROOT, runImport, startChild, stop, writeRecords } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '2' },
    embedded: { type: 'boolean', default: false },
    'database-url': { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const RECORDS = Number(args.records);
const ROUNDS = Number(args.rounds);
const EMBEDDED = args.embedded;
const TEMPLATE = 'carrel_bench_sftp_template';
const RUN_DB = 'carrel_bench_sftp';
/** The SFTP door's own default cap on a file, and its highest setting (src/config.ts). */
const DOOR_DEFAULT_MB = 64;
const DOOR_MAX_MB = 200;
/** How often the entry's status is read while the file is processed. */
const POLL_MS = 50;
const ACCOUNT = 'bench';

const cli = (env: Record<string, string>, cliArgs: string[]): string =>
  execFileSync(process.execPath, ['dist/cli.js', ...cliArgs], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' });

/** Where each run's database lives: a PostgreSQL database made from a template, or a copied data directory. */
interface Engine {
  /** The environment of the prepared database, to set it up. */
  template: Record<string, string>;
  /** A fresh copy of the prepared database, and its environment. */
  fresh(): Promise<Record<string, string>>;
  close(): Promise<void>;
}

async function postgresEngine(): Promise<Engine> {
  const admin = postgres(args['database-url'], { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${RUN_DB} with (force)`);
  await admin.unsafe(`drop database if exists ${TEMPLATE} with (force)`);
  await admin.unsafe(`create database ${TEMPLATE}`);
  return {
    template: { DATABASE_URL: dbUrl(args['database-url'], TEMPLATE) },
    async fresh() {
      await admin.unsafe(`drop database if exists ${RUN_DB} with (force)`);
      await admin.unsafe(`create database ${RUN_DB} template ${TEMPLATE}`);
      return { DATABASE_URL: dbUrl(args['database-url'], RUN_DB) };
    },
    async close() {
      await admin.unsafe(`drop database if exists ${RUN_DB} with (force)`);
      await admin.unsafe(`drop database if exists ${TEMPLATE} with (force)`);
      await admin.end();
    },
  };
}

function embeddedEngine(dir: string): Engine {
  const template = path.join(dir, 'template-data');
  const run = path.join(dir, 'run-data');
  return {
    template: { CARREL_DATA_DIR: template },
    async fresh() {
      fs.rmSync(run, { recursive: true, force: true });
      fs.cpSync(template, run, { recursive: true });
      return { CARREL_DATA_DIR: run };
    },
    async close() {},
  };
}

interface Server {
  child: ChildProcess;
  http: string;
  sftpPort: number;
}

async function startServer(env: Record<string, string>, log: string): Promise<Server> {
  const [port, sftpPort] = [await freePort(), await freePort()];
  const child = await startChild(
    ['dist/server.js'],
    { ...env, PORT: String(port), HOST: '127.0.0.1', CARREL_SFTP_PORT: String(sftpPort), CARREL_WORKERS: '1' },
    /is listening on/,
    log,
  );
  return { child, http: `http://127.0.0.1:${port}`, sftpPort };
}

async function token(server: Server, key: { key: string; secret: string }): Promise<string> {
  const response = await fetch(`${server.http}/v6/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}` },
  });
  if (!response.ok) throw new Error(`no token: ${response.status} ${await response.text()}`);
  return `Bearer ${((await response.json()) as { access_token: string }).access_token}`;
}

interface FileEntry {
  name: string;
  status: string;
  receivedDate: string;
  processedDate: string | null;
  report: { created?: number; items?: { created: number }; reason?: string } | null;
}

/**
 * The newest file's entry, from GET /v6/files. A poll whose connection was reset (a kept-alive
 * socket the server closed as it was reused, on a loaded machine) is sent again, a few times.
 */
async function newestFile(server: Server, auth: string, tries = 5): Promise<FileEntry | undefined> {
  const response = await fetch(`${server.http}/v6/files?limit=1`, { headers: { authorization: auth } }).catch((error: unknown) => {
    if (tries <= 1) throw error;
    return undefined;
  });
  if (!response) return newestFile(server, auth, tries - 1);
  if (!response.ok) throw new Error(`GET /v6/files: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { entries: FileEntry[] }).entries[0];
}

interface SftpRun {
  seconds: number;
  /** Until the client exited: the upload, and the file kept by the server (the client waits for its close to be answered). */
  uploadSeconds: number;
  /** From the file's entry: received (stored) to processed (its outcome recorded). */
  processSeconds: number;
  peakRssMb: number;
  created: number;
}

async function sftpRun(
  env: Record<string, string>,
  keyFile: string,
  apiKey: { key: string; secret: string },
  file: string,
  log: string,
): Promise<SftpRun> {
  const server = await startServer(env, log);
  try {
    const auth = await token(server, apiKey);
    const started = performance.now();
    const put = await sftpBatch(server.sftpPort, ACCOUNT, { keyFile }, [`put ${file} in/${path.basename(file)}`], path.dirname(file));
    if (put.code !== 0) throw new Error(`sftp exited ${put.code}: ${put.stderr}`);
    const uploadSeconds = (performance.now() - started) / 1000;
    for (;;) {
      const entry = await newestFile(server, auth);
      if (entry && entry.status !== 'received' && entry.status !== 'processing') {
        const seconds = (performance.now() - started) / 1000;
        if (entry.status !== 'loaded') throw new Error(`the file was ${entry.status}: ${JSON.stringify(entry.report).slice(0, 2000)}`);
        const processSeconds = (Date.parse(entry.processedDate!) - Date.parse(entry.receivedDate)) / 1000;
        return { seconds, uploadSeconds, processSeconds, peakRssMb: peakRssMb(server.child.pid!), created: entry.report?.created ?? 0 };
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    await stop(server.child);
  }
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-bench-sftp-'));
  const engine = EMBEDDED ? embeddedEngine(dir) : await postgresEngine();
  try {
    const file = path.join(dir, 'generated.mrc');
    await writeRecords(file, RECORDS);
    const size = fs.statSync(file).size;
    const sizeMb = size / 1024 / 1024;
    // The door refuses a file past CARREL_SFTP_MAX_FILE_MB: raised to fit this one when it is larger.
    const capMb = Math.max(DOOR_DEFAULT_MB, Math.ceil(sizeMb));
    if (capMb > DOOR_MAX_MB) throw new Error(`${sizeMb.toFixed(1)} MB is past the door's highest cap (${DOOR_MAX_MB} MB): fewer --records`);
    const common = { LOG_LEVEL: 'warn', CARREL_DEMO_CATALOGUE: 'false', CARREL_SFTP_MAX_FILE_MB: String(capMb) };

    // The prepared database: a first server start (migrations, starter profile, the door's host key), then the logins.
    const keyFile = path.join(dir, 'id_ed25519');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', keyFile]);
    const template = { ...common, ...engine.template };
    await stop((await startServer(template, path.join(ROOT, 'bench/results/sftp-template-server.log'))).child);
    cli(template, ['sftp', 'accounts', 'create', ACCOUNT, '--public-key', `${keyFile}.pub`, '--json']);
    const apiKey = JSON.parse(
      cli(template, ['keys', 'create', '--name', 'bench-sftp', '--roles', 'Files_Read', '--rate-limit', 'unlimited', '--json']),
    ) as { key: string; secret: string };

    const imports: Awaited<ReturnType<typeof runImport>>[] = [];
    const uploads: SftpRun[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const imported = await runImport(file, { ...common, ...(await engine.fresh()) });
      if (imported.summary.created !== RECORDS) throw new Error(`carrel import created ${imported.summary.created} of ${RECORDS}`);
      imports.push(imported);
      const uploaded = await sftpRun(
        { ...common, ...(await engine.fresh()) },
        keyFile,
        apiKey,
        file,
        path.join(ROOT, `bench/results/sftp-server-${round}.log`),
      );
      if (uploaded.created !== RECORDS) throw new Error(`the SFTP file created ${uploaded.created} of ${RECORDS}`);
      uploads.push(uploaded);
      console.log(
        `round ${round}: carrel import ${imported.seconds.toFixed(1)} s, SFTP ${uploaded.seconds.toFixed(1)} s (client done at ${uploaded.uploadSeconds.toFixed(1)} s, processed in ${uploaded.processSeconds.toFixed(1)} s)`,
      );
    }

    const rate = (seconds: number) => Math.round(RECORDS / seconds);
    const fmt = (n: number) => n.toLocaleString('en');
    console.log(
      `\n${fmt(RECORDS)} generated records, ${sizeMb.toFixed(1)} MB of ISO 2709 (CARREL_SFTP_MAX_FILE_MB=${capMb}); ` +
        `${EMBEDDED ? 'embedded engine' : 'PostgreSQL'}; Node ${process.version}; ${os.cpus().length} cores\n`,
    );
    console.log(
      '| round | carrel import records/s | SFTP to loaded records/s | client s | process s | SFTP / import | import RSS MB | server RSS MB |',
    );
    console.log(
      '| ----- | ----------------------- | ------------------------ | -------- | --------- | ------------- | ------------- | ------------- |',
    );
    const ratios: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const [imp, up] = [imports[i]!, uploads[i]!];
      ratios.push(imp.seconds / up.seconds);
      console.log(
        `| ${i + 1} | ${fmt(rate(imp.seconds))} | ${fmt(rate(up.seconds))} | ${up.uploadSeconds.toFixed(1)} | ${up.processSeconds.toFixed(1)} | ${ratios[i]!.toFixed(2)} | ${imp.peakRssMb} | ${up.peakRssMb} |`,
      );
    }
    const worst = Math.min(...ratios);
    console.log(
      `\nbudget: SFTP upload to loaded >= 80% of carrel import's rate -> ${ratios.map((r) => `${Math.round(100 * r)}%`).join(', ')} ${worst >= 0.8 ? 'met' : 'NOT met'}`,
    );
    if (worst < 0.8) process.exitCode = 1;
  } finally {
    await engine.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
