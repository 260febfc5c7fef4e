// The README's promise: `npm start` on a fresh checkout serves GET /api Healthy on the embedded
// database (a brand-new data directory: the database is created on the way). No deadline of its own:
// on a loaded machine the start can take long, and the runner's time-out bounds a start that hangs.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { childEnv } from '../helpers/process.ts';
import { freePort } from '../helpers/tcp.ts';

describe('npm start', () => {
  it('serves GET /api Healthy on a new embedded database, and stops on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-start-'));
    const port = await freePort();
    const child = spawn('npm', ['start', '--silent'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: childEnv({ CARREL_DATA_DIR: dataDir, PORT: String(port), CARREL_SHUTDOWN_GRACE_MS: '0' }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group: npm, the shell and node stop together
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      let status = '';
      while (status !== 'Healthy' && child.exitCode === null) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        status = await fetch(`http://127.0.0.1:${port}/api`)
          .then((res) => res.json() as Promise<{ status: string }>)
          .then((body) => body.status)
          .catch(() => '');
      }
      assert.equal(status, 'Healthy', output);
      assert.match(output, /npx carrel keys create/, 'tells how to get an API key');
      assert.match(output, /loaded a demo catalogue of \d+ bibs/);
      assert.ok(fs.existsSync(path.join(dataDir, 'pglite')), 'the embedded database lives in CARREL_DATA_DIR');
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    assert.doesNotMatch(output, /could not start/);
  });
});
