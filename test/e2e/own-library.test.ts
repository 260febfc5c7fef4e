// The README's "Your own library": its shell lines, run as written (PostgreSQL from zero, or the
// embedded engine), on the shared real MARC files, give a library whose items have locations and
// whose records can be held. The time they took is reported (a test diagnostic), not asserted.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { openClientDb } from '../../src/db/open.ts';
import { ENGINE, PG_URL, uniqueName, adminSql } from '../helpers/db.ts';
import { childEnv } from '../helpers/process.ts';
import { MARC_DIR } from '../helpers/shared-data.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** The shell block the README marks with <!-- own-library:NAME -->. */
function readmeBlock(name: string): string[] {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const match = new RegExp(`<!-- own-library:${name} -->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(readme);
  assert.ok(match, `README has the ${name} block`);
  return match[1]!.trim().split('\n');
}

describe(`the README's own library on ${ENGINE}`, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-own-'));
  const name = uniqueName('ownlib');
  after(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    if (PG_URL) {
      const sql = adminSql();
      await sql.unsafe(`drop database if exists ${name} with (force)`).finally(() => sql.end());
    }
  });

  it('creates the database, applies a profile, imports the shared MARC with its codes and makes a key', async (t) => {
    const marc = fs
      .readdirSync(MARC_DIR)
      .map((f) => JSON.stringify(path.join(MARC_DIR, f)))
      .join(' ');
    const server = PG_URL ? new URL(PG_URL) : undefined;
    const serverUrl = server ? `${server.protocol}//${server.username}${server.password ? `:${server.password}` : ''}@${server.host}` : '';
    const lines = readmeBlock(ENGINE === 'postgres' ? 'postgres' : 'embedded')
      .filter((line) => !line.startsWith('npm start'))
      .map((line) =>
        line
          .replace(/\s+#.*$/, '')
          .replaceAll('mylibrary', name)
          .replaceAll('npx carrel', `node ${JSON.stringify(path.join(ROOT, 'bin/carrel.js'))}`)
          .replaceAll('profiles/starter.yaml', JSON.stringify(path.join(ROOT, 'profiles/starter.yaml')))
          .replaceAll('records/*.mrc', marc)
          .replaceAll('postgres://postgres@127.0.0.1:5432', serverUrl),
      );
    // Each line's exit status after it: an import with records that are not bibliographic exits 1 by design.
    const script = lines.map((line, i) => `${line}\necho "__status ${i} $?"`).join('\n');
    const started = performance.now();
    const { stdout } = await run('bash', ['-c', script], { cwd: dir, env: childEnv({}), timeout: 120_000, maxBuffer: 1 << 24 });
    const seconds = (performance.now() - started) / 1000;
    const statuses = [...stdout.matchAll(/^__status (\d+) (\d+)$/gm)].map((m) => [Number(m[1]), Number(m[2])]);
    assert.equal(statuses.length, lines.length, stdout);
    for (const [i, status] of statuses) {
      const importing = lines[i!]!.includes(' import ');
      assert.ok(status === 0 || (importing && status === 1), `${lines[i!]} exited ${status}:\n${stdout}`);
    }
    assert.match(stdout, /^read \d+ records in/m);
    assert.match(stdout, /^added to the library \(under the first branch/m);
    assert.match(stdout, /secret/i, 'the key is made');
    // Reported, not asserted: how long they take depends on the machine's load, not on Carrel alone.
    t.diagnostic(`the README's lines took ${seconds.toFixed(1)} s on ${ENGINE}`);

    const config = loadConfig(PG_URL ? { DATABASE_URL: `${serverUrl}/${name}` } : { CARREL_DATA_DIR: path.join(dir, `${name}-data`) });
    const db = await openClientDb(config);
    try {
      const [counts] = await db.query<{ located: number; holdable: number; pickup: number }>(
        `select (select count(*)::int from items where location_code is not null) as located,
           (select count(distinct ib.bib_id)::int from items i join item_bibs ib on ib.item_id = i.id
              cross join lateral circulation_rule(0, i.item_type, i.location_code) r
            where i.location_code is not null and i.status in ('-', 'o') and r.holdable) as holdable,
           (select count(*)::int from locations where pickup) as pickup`,
      );
      assert.ok(counts!.located > 50, `items with locations: ${counts!.located}`);
      assert.ok(counts!.holdable > 20, `holdable records: ${counts!.holdable}`);
      assert.ok(counts!.pickup >= 1, 'somewhere to collect holds');
    } finally {
      await db.close();
    }
  });
});
