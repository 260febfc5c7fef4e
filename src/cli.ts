// The `carrel` command: operations on the same services the HTTP API uses.
import { Command, InvalidArgumentError } from 'commander';
import { ROLES } from './auth/roles.ts';
import { AuthService } from './auth/service.ts';
import { registerCatalogueCommands } from './cli/catalogue.ts';
import { CliError, getConfig, milliseconds, print, table, withDb } from './cli/common.ts';
import { addAcquisitionCommands } from './acquisitions/invoices/commands.ts';
import { addHoldCommands } from './holds/commands.ts';
import { addPatronCommands } from './patrons/commands.ts';
import { checkStatus } from './operations/status-check.ts';
import { readMaintenance, writeMaintenance } from './operations/repository.ts';
import { VERSION_STRING } from './version.ts';

function roleList(value: string): string[] {
  const roles = value.split(',').map((role) => role.trim()).filter(Boolean);
  if (roles.length === 0) throw new InvalidArgumentError('give at least one role');
  return roles;
}

const program = new Command();
program
  .name('carrel')
  .description('Carrel library services platform: operate the service and its data.')
  .version(VERSION_STRING, '-V, --version')
  .showHelpAfterError()
  .addHelpText(
    'after',
    '\nDatabase: PostgreSQL when DATABASE_URL is set, else the embedded database in CARREL_DATA_DIR (default ./data);\nwith the embedded database the commands work while `npm start` runs.',
  );

program
  .command('status')
  .description('ask a running service for its health: prints "0 <version>" (exit 0) or "-1 <reason>" (exit 1)')
  .option('--url <url>', 'base URL of the service (default http://HOST:PORT from the environment)')
  .option('--timeout <ms>', 'give up after this many milliseconds', milliseconds, 5000)
  .action(async (opts: { url?: string; timeout: number }) => {
    const cfg = getConfig();
    const host = cfg.host === '0.0.0.0' || cfg.host === '::' ? '127.0.0.1' : cfg.host;
    const result = await checkStatus(opts.url ?? `http://${host.includes(':') ? `[${host}]` : host}:${cfg.port}`, opts.timeout);
    process.stdout.write(result.ok ? `0 ${result.version}\n` : `-1 ${result.reason}\n`);
    process.exitCode = result.ok ? 0 : 1;
  });

program
  .command('migrate')
  .description('apply pending database migrations (the server also does this at start-up)')
  .option('--json', 'print JSON')
  .action(async (opts: { json?: boolean }) => {
    const applied = await withDb(async (_db, _config, done) => done);
    const names = applied.map((m) => `${String(m.version).padStart(4, '0')}_${m.name}`);
    print(!!opts.json, { applied: names }, names.length ? `applied ${names.join(', ')}` : 'the database is up to date');
  });

const keys = program.command('keys').description('API keys for client applications');
keys
  .command('create')
  .description('create a key; prints its secret once (only a slow hash of it is kept)')
  .requiredOption('--name <name>', 'who or what the key is for')
  .requiredOption('--roles <roles>', `comma-separated roles: ${Object.keys(ROLES).join(', ')}`, roleList)
  .option('--json', 'print JSON')
  .action(async (opts: { name: string; roles: string[]; json?: boolean }) => {
    const key = await withDb((db, cfg) => new AuthService(db, cfg.tokenLifetimeSec).createKey(opts.name, opts.roles));
    print(
      !!opts.json,
      { key: key.key, secret: key.secret, name: key.name, roles: key.roles },
      [
        `key:    ${key.key}`,
        `secret: ${key.secret}`,
        `roles:  ${key.roles.join(', ')}`,
        '',
        'The secret is shown only now. Get a token with:',
        `  curl -u '${key.key}:${key.secret}' -X POST http://127.0.0.1:${getConfig().port}/v6/token`,
      ].join('\n'),
    );
  });
keys
  .command('list')
  .description('list keys (never their secrets)')
  .option('--json', 'print JSON')
  .action(async (opts: { json?: boolean }) => {
    const list = await withDb((db, cfg) => new AuthService(db, cfg.tokenLifetimeSec).listKeys());
    const rows = [['KEY', 'NAME', 'ROLES', 'CREATED', 'REVOKED']].concat(
      list.map((k) => [k.key, k.name, k.roles.join(','), k.createdDate.toISOString(), k.revokedDate?.toISOString() ?? '']),
    );
    print(!!opts.json, list, list.length ? table(rows) : 'no keys yet: carrel keys create --name NAME --roles ROLE,…');
  });
keys
  .command('revoke')
  .description('revoke a key; its tokens stop working at once')
  .argument('<key>', 'the key id')
  .option('--json', 'print JSON')
  .action(async (key: string, opts: { json?: boolean }) => {
    const revoked = await withDb((db, cfg) => new AuthService(db, cfg.tokenLifetimeSec).revokeKey(key));
    if (!revoked) throw new CliError(`no active key ${key}`);
    print(!!opts.json, { key, revoked: true }, `revoked ${key}`);
  });
keys
  .command('roles')
  .description('list the roles a key can have and what each permits')
  .option('--json', 'print JSON')
  .action((opts: { json?: boolean }) => {
    const rows = [['ROLE', 'PERMISSIONS'], ...Object.entries(ROLES).map(([role, perms]) => [role, perms.join(', ')])];
    print(!!opts.json, ROLES, table(rows));
  });

registerCatalogueCommands(program);

program
  .command('maintenance')
  .description('switch the service off (GET /api answers 404, other calls 503) or back on, for every server process')
  .argument('<state>', 'on | off | status')
  .option('--json', 'print JSON')
  .action(async (wanted: string, opts: { json?: boolean }) => {
    if (!['on', 'off', 'status'].includes(wanted)) throw new CliError('maintenance takes on, off or status');
    const on = await withDb(async (db) => {
      if (wanted !== 'status') await writeMaintenance(db, wanted === 'on');
      return readMaintenance(db);
    });
    const poll = getConfig().statePollMs;
    const text = on
      ? `maintenance is on: the service answers 404 on GET /api (servers notice within ${poll} ms)`
      : 'maintenance is off: the service is serving';
    print(!!opts.json, { maintenance: on }, text);
  });

addAcquisitionCommands(program, { withDb, print, table });
addPatronCommands(program);
addHoldCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`carrel: ${message}\n`);
  if (!(error instanceof CliError)) process.stderr.write(`${error instanceof Error ? (error.stack ?? '') : ''}\n`);
  process.exitCode = 1;
}
