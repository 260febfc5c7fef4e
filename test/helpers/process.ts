// Runs the real server and the real `carrel` command as child processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** The environment of a child: this one without database settings, plus env. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  delete base.DATABASE_URL;
  delete base.TEST_DATABASE_URL;
  delete base.CARREL_DATA_DIR;
  return { ...base, LOG_LEVEL: 'info', ...env };
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/**
 * One worker unless env asks for more: on PostgreSQL the server would start one per core, each a
 * process the machine running the tests must start and feed (test/e2e/workers.test.ts asks for two).
 */
export async function startServer(env: Record<string, string>, port: number): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: childEnv({ CARREL_WORKERS: '1', ...env, PORT: String(port), HOST: '127.0.0.1' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  // No deadline of its own: a loaded machine starts slowly, and the runner's time-out ends a hang.
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    if (output.includes('is listening on')) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    url,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGINT');
        await exited;
      }
    },
  };
}

let bundled: Promise<string> | undefined;

/**
 * The `carrel` command bundled as `npm start` bundles the server (scripts/bundle.mjs), once per test
 * file: it starts in a third of the time bin/carrel.js takes to load the TypeScript through tsx, and
 * the tests start it dozens of times. test/e2e/own-library.test.ts runs bin/carrel.js itself.
 */
function bundledCli(): Promise<string> {
  bundled ??= (async () => {
    const parent = path.join(ROOT, 'node_modules/.cache');
    fs.mkdirSync(parent, { recursive: true });
    const dir = fs.mkdtempSync(path.join(parent, 'carrel-test-'));
    process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    const bundler = await import('../../scripts/bundle.mjs');
    await bundler.bundle(dir);
    return path.join(dir, 'cli.js');
  })();
  return bundled;
}

/** `input`: written to the command's standard input (a secret given with `--…-stdin`). */
export async function carrel(
  args: string[],
  env: Record<string, string>,
  input?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const cli = await bundledCli();
  try {
    const running = run(process.execPath, [cli, ...args], { cwd: ROOT, env: childEnv(env), timeout: 60_000 });
    if (input !== undefined) running.child.stdin?.end(input);
    const { stdout, stderr } = await running;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/**
 * A bearer token from a running server, for a key the `carrel` command makes with these roles
 * (env: the server's database settings).
 */
export async function serverBearer(server: ServerProcess, env: Record<string, string>, roles: string[]): Promise<string> {
  const created = await carrel(['keys', 'create', '--name', 'test', '--roles', roles.join(','), '--json'], env);
  if (created.code !== 0) throw new Error(`carrel keys create failed: ${created.stderr}`);
  const key = JSON.parse(created.stdout) as { key: string; secret: string };
  const res = await fetch(`${server.url}/v6/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}` },
  });
  if (res.status !== 200) throw new Error(`the token endpoint answered ${res.status}: ${await res.text()}`);
  return `Bearer ${((await res.json()) as { access_token: string }).access_token}`;
}
