// `npm test`: runs every test/**/*.test.ts with Node's own test runner (Node 20 has no glob
// support in --test). Arguments narrow the run: `npm test -- test/health`. `--unit` (npm run
// test:unit) runs only the files that open no database, server or command: in seconds.
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

const args = process.argv.slice(2);
const unit = args.includes('--unit');
const filters = args.filter((a) => a !== '--unit');
const files = find('test')
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .filter((file) => !unit || !OPENS_A_DATABASE.test(fs.readFileSync(file, 'utf8')))
  .sort();
if (files.length === 0) {
  console.error('no test files match');
  process.exit(1);
}
// A test that hangs fails after 5 minutes instead of holding CI; a leaked handle cannot keep the run open.
// (A file of several commands against the embedded engine takes 2 minutes alone, more beside two others.)
// Test files spend most of their time waiting on databases and child processes, so run a few at once.
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=3', '--test-timeout=300000', '--test-force-exit', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
