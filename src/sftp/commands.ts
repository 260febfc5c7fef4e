// `carrel sftp accounts …`: the logins of vendors and libraries that drop files on the SFTP door.
import fs from 'node:fs';
import type { Command } from 'commander';
import { CliError, print, table } from '../cli/common.ts';
import type { Cli } from '../cli/kit.ts';

export function sftpCommands(program: Command, cli: Cli): void {
  const accounts = program
    .command('sftp')
    .description('the SFTP door (vendors and libraries drop MARC and EDIFACT files)')
    .command('accounts')
    .description('SFTP logins');
  accounts
    .command('create')
    .description('create an SFTP login; prints its password once (only a slow hash of it is kept)')
    .argument('<name>', 'the login name: letters, digits, _ . -')
    .option('--vendor <code>', 'the vendor whose files it drops')
    .option('--public-key <file>', 'an OpenSSH public key file (ssh-ed25519 or ssh-rsa …): the login may use it instead of the password')
    .option('--no-items', 'load its MARC files as bibs only, ignoring item fields')
    .option('--create-missing', 'add the location and item type codes its items name that the library lacks')
    .option('--json', 'print {"name", "password"}')
    .action(
      async (name: string, opts: { vendor?: string; publicKey?: string; items: boolean; createMissing?: boolean; json?: boolean }) => {
        let publicKey: string | undefined;
        if (opts.publicKey !== undefined) {
          try {
            publicKey = fs.readFileSync(opts.publicKey, 'utf8');
          } catch (error) {
            throw new CliError(`--public-key: cannot read ${opts.publicKey} (${error instanceof Error ? error.message : String(error)})`);
          }
        }
        const account = await cli.write(({ services }) =>
          services.sftpAccounts.create(name, { vendor: opts.vendor, publicKey, items: opts.items, createMissing: !!opts.createMissing }),
        );
        print(
          !!opts.json,
          account,
          [`name:     ${account.name}`, `password: ${account.password}`, '', 'The password is shown only now.'].join('\n'),
        );
      },
    );
  accounts
    .command('list')
    .description('list the SFTP logins (never their passwords)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const list = await cli.read(({ services }) => services.sftpAccounts.list());
      const rows = [
        ['NAME', 'VENDOR', 'KEY', 'ITEMS', 'CREATE MISSING', 'CREATED', 'REVOKED'],
        ...list.map((a) => [
          a.name,
          a.vendor ?? '',
          a.publicKey ? 'yes' : 'no',
          a.items ? 'yes' : 'no',
          a.createMissing ? 'yes' : 'no',
          a.created,
          a.revoked ?? '',
        ]),
      ];
      print(!!opts.json, list, list.length ? table(rows) : 'no SFTP logins yet: carrel sftp accounts create NAME');
    });
  accounts
    .command('revoke')
    .description('revoke an SFTP login: its logins are refused and its open sessions end')
    .argument('<name>', 'the login name')
    .option('--json', 'print JSON')
    .action(async (name: string, opts: { json?: boolean }) => {
      await cli.write(({ services }) => services.sftpAccounts.revoke(name));
      print(!!opts.json, { name, revoked: true }, `revoked ${name}`);
    });
}
