// `carrel keys`: API keys for client applications, through the same service as the token endpoint.
import { type Command, InvalidArgumentError } from 'commander';
import { CliError, print, table } from '../cli/common.ts';
import type { Cli } from '../cli/kit.ts';
import { ROLES } from './roles.ts';

/** --rate-limit: requests per minute, `unlimited`, or `default` (the server's CARREL_RATE_LIMIT). */
function rateLimit(value: string): number | null {
  if (value === 'unlimited') return 0;
  if (value === 'default') return null;
  if (!/^\d{1,9}$/.test(value) || Number(value) === 0) {
    throw new InvalidArgumentError('give requests per minute (a whole number above 0), unlimited, or default');
  }
  return Number(value);
}

const shownLimit = (limit: number | null) => (limit === null ? 'default' : limit === 0 ? 'unlimited' : `${limit}/min`);

function roleList(value: string): string[] {
  const roles = value
    .split(',')
    .map((role) => role.trim())
    .filter(Boolean);
  if (roles.length === 0) throw new InvalidArgumentError('give at least one role');
  return roles;
}

export function keyCommands(program: Command, cli: Cli): void {
  const keys = program.command('keys').description('API keys for client applications');
  keys
    .command('create')
    .description('create a key; prints its secret once (only a slow hash of it is kept)')
    .requiredOption('--name <name>', 'who or what the key is for')
    .requiredOption('--roles <roles>', `comma-separated roles: ${Object.keys(ROLES).join(', ')}`, roleList)
    .option('--rate-limit <n>', "requests per minute per route family, or unlimited (default: the server's CARREL_RATE_LIMIT)", rateLimit)
    .option('--json', 'print JSON')
    .action(async (opts: { name: string; roles: string[]; rateLimit?: number | null; json?: boolean }) => {
      const key = await cli.write(({ services }) => services.auth.createKey(opts.name, opts.roles, opts.rateLimit ?? null));
      print(
        !!opts.json,
        { key: key.key, secret: key.secret, name: key.name, roles: key.roles, rateLimit: key.rateLimit },
        [
          `key:    ${key.key}`,
          `secret: ${key.secret}`,
          `roles:  ${key.roles.join(', ')}`,
          `limit:  ${shownLimit(key.rateLimit)}`,
          '',
          'The secret is shown only now. Get a token with:',
          `  curl -u '${key.key}:${key.secret}' -X POST http://127.0.0.1:${cli.config().port}/v6/token`,
        ].join('\n'),
      );
    });
  keys
    .command('list')
    .description('list keys (never their secrets)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const list = await cli.read(({ services }) => services.auth.listKeys());
      const rows = [['KEY', 'NAME', 'ROLES', 'RATE LIMIT', 'CREATED', 'REVOKED']].concat(
        list.map((k) => [
          k.key,
          k.name,
          k.roles.join(','),
          shownLimit(k.rateLimit),
          k.createdDate.toISOString(),
          k.revokedDate?.toISOString() ?? '',
        ]),
      );
      print(!!opts.json, list, list.length ? table(rows) : 'no keys yet: carrel keys create --name NAME --roles ROLE,…');
    });
  keys
    .command('revoke')
    .description('revoke a key; its tokens stop working at once')
    .argument('<key>', 'the key id')
    .option('--json', 'print JSON')
    .action(async (key: string, opts: { json?: boolean }) => {
      const revoked = await cli.write(({ services }) => services.auth.revokeKey(key));
      if (!revoked) throw new CliError(`no active key ${key}`);
      print(!!opts.json, { key, revoked: true }, `revoked ${key}`);
    });
  keys
    .command('rate-limit')
    .description("set a key's requests per minute per route family (tokens already issued follow at once)")
    .argument('<key>', 'the key id')
    .argument('<limit>', 'requests per minute, unlimited, or default', rateLimit)
    .option('--json', 'print JSON')
    .action(async (key: string, limit: number | null, opts: { json?: boolean }) => {
      const changed = await cli.write(({ services }) => services.auth.setRateLimit(key, limit));
      if (!changed) throw new CliError(`no active key ${key}`);
      print(!!opts.json, { key, rateLimit: limit }, `${key}: ${shownLimit(limit)}`);
    });
  keys
    .command('roles')
    .description('list the roles a key can have and what each permits')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) => {
      const rows = [['ROLE', 'PERMISSIONS'], ...Object.entries(ROLES).map(([role, perms]) => [role, perms.join(', ')])];
      print(!!opts.json, ROLES, table(rows));
    });
}
