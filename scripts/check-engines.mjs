// `node scripts/check-engines.mjs [node-version …]`: every package in package-lock.json (production
// and development) must accept every Node version that Carrel's own `engines.node` accepts, so that
// `npm ci` on any Node Carrel claims to run on prints no EBADENGINE warning. Each version given (as
// `node --version` prints it) must also be within Carrel's range: CI passes the Nodes it tests on.
import fs from 'node:fs';
import semver from 'semver';

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
const ours = pkg.engines?.node;
if (!ours || !semver.validRange(ours)) {
  console.error(`package.json: engines.node is missing or not a range: ${ours}`);
  process.exit(1);
}

const problems = [];
for (const version of process.argv.slice(2)) {
  if (!semver.satisfies(version, ours)) problems.push(`Node ${version} is outside Carrel's engines.node ${ours}`);
}
let checked = 0;
for (const [where, entry] of Object.entries(lock.packages ?? {})) {
  const theirs = entry.engines?.node;
  if (where === '' || !theirs) continue;
  checked++;
  const name = where.replace(/^.*node_modules\//, '');
  const kind = entry.dev ? 'dev' : 'prod';
  if (!semver.validRange(theirs)) {
    problems.push(`${name}@${entry.version} (${kind}) declares engines.node ${JSON.stringify(theirs)}, not a range`);
  } else if (!semver.subset(ours, theirs)) {
    problems.push(`${name}@${entry.version} (${kind}) needs Node ${theirs}; Carrel's ${ours} does not meet it`);
  }
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error('Pin a version that accepts Carrel\'s range (package.json "overrides"), change the dependent, or narrow engines.node.');
  process.exit(1);
}
console.log(`engines: ${checked} packages accept Node ${ours}`);
