// `carrel sip accounts …`: the logins of self-check kiosks and other SIP2 clients.
import type { Command } from 'commander';
import { print, table } from '../cli/common.ts';
import type { Cli } from '../cli/kit.ts';

export function sipCommands(program: Command, cli: Cli): void {
  const accounts = program
    .command('sip')
    .description('the SIP2 door (self-check kiosks, PC reservation, sorters)')
    .command('accounts')
    .description('SIP2 logins (93: CN and CO)');
  accounts
    .command('create')
    .description('create a SIP2 login for a kiosk; prints its password once (only a slow hash of it is kept)')
    .argument('<name>', 'the login name (CN): letters, digits, _ . -')
    .requiredOption('--institution <id>', 'the institution id (AO) its messages carry')
    .option('--location <code>', 'the location code of the kiosk (CP)')
    .option('--json', 'print {"name", "password"}')
    .action(async (name: string, opts: { institution: string; location?: string; json?: boolean }) => {
      const account = await cli.write(({ services }) => services.sipAccounts.create(name, opts.institution, opts.location));
      print(
        !!opts.json,
        account,
        [`name:     ${account.name}`, `password: ${account.password}`, '', 'The password is shown only now.'].join('\n'),
      );
    });
  accounts
    .command('list')
    .description('list the SIP2 logins (never their passwords)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const list = await cli.read(({ services }) => services.sipAccounts.list());
      const rows = [
        ['NAME', 'INSTITUTION', 'LOCATION', 'CREATED'],
        ...list.map((a) => [a.name, a.institution, a.location ?? '', a.created]),
      ];
      print(!!opts.json, list, list.length ? table(rows) : 'no SIP2 logins yet: carrel sip accounts create NAME --institution ID');
    });
  accounts
    .command('revoke')
    .description('revoke a SIP2 login: its next login is refused')
    .argument('<name>', 'the login name')
    .option('--json', 'print JSON')
    .action(async (name: string, opts: { json?: boolean }) => {
      await cli.write(({ services }) => services.sipAccounts.revoke(name));
      print(!!opts.json, { name, revoked: true }, `revoked ${name}`);
    });
}
