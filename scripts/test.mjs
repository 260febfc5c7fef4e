// `npm test`: runs every test/**/*.test.ts with Node's own test runner (Node 20 has no glob
// support in --test). Arguments narrow the run: `npm test -- test/health`. `--unit` (npm run
// test:unit) runs only the files that open no database, server or command: in seconds. `--runtime`
// runs those and the files in RUNTIME: what depends most on the Node that runs it (CI's second Node).
// `--list` prints the files it would run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

function find(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return find(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

// A file opens a database (or a server, or a command, which open one) when it names one of these.
const OPENS_A_DATABASE = /helpers\/(db|app|process)\.ts|src\/db\/(open|pglite|postgres)\.ts|createTestDb|openServerDb/;

/**
 * Beyond the unit files, what a new Node is most likely to change the behaviour of: the embedded
 * engine (WebAssembly in a worker thread, its socket), the README's commands and every port in one
 * process, each door's sockets and time-outs, and the catalogue in a browser. The whole suite runs
 * on CI's first Node on both engines; a second Node runs these, on the embedded engine.
 */
const RUNTIME = [
  'test/db/',
  'test/e2e/npm-start.test.ts',
  'test/e2e/own-library.test.ts',
  'test/e2e/embedded-sharing.test.ts',
  'test/e2e/ports.test.ts',
  'test/http/slow-clients.test.ts',
  'test/http/connection-caps.test.ts',
  'test/sip2/sip2-door.test.ts',
  'test/sftp/sftp-door.test.ts',
  'test/ftp/ftp-door.test.ts',
  'test/soap/patrons.test.ts',
  'test/sql/wire.test.ts',
  'test/catalog/browser.test.ts',
];

const args = process.argv.slice(2);
const unit = args.includes('--unit');
const runtime = args.includes('--runtime');
const list = args.includes('--list');
const filters = args.filter((a) => !['--unit', '--runtime', '--list'].includes(a));
const all = find('test');
for (const wanted of runtime ? RUNTIME : []) {
  if (!all.some((file) => file.startsWith(wanted))) throw new Error(`scripts/test.mjs RUNTIME names ${wanted}, which holds no test file`);
}
const opensNothing = (file) => !OPENS_A_DATABASE.test(fs.readFileSync(file, 'utf8'));
const files = all
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .filter((file) => !unit || opensNothing(file))
  .filter((file) => !runtime || opensNothing(file) || RUNTIME.some((wanted) => file.startsWith(wanted)))
  .sort();
if (files.length === 0) {
  console.error('no test files match');
  process.exit(1);
}
if (list) {
  console.log(files.join('\n'));
  process.exit(0);
}
// A file that hangs fails after 10 minutes instead of holding CI (the time-out counts a whole file,
// each running in a process of its own); a leaked handle cannot keep the run open. A file of some
// thirty commands against the embedded engine (test/acquisitions/edi-transport/sftp.test.ts) took
// over 5 minutes beside two others on a 2-core machine whose every command took ~8 s to start.
// Test files spend most of their time waiting on databases and child processes, so run a few at once.
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=3', '--test-timeout=600000', '--test-force-exit', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
