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
    .option(
      '--all-patrons',
      "act on every patron, not only the institution's (patrons whose home library is a location of a branch the profile gives the institution)",
    )
    .option('--json', 'print {"name", "password"}')
    .action(async (name: string, opts: { institution: string; location?: string; allPatrons?: boolean; json?: boolean }) => {
      const patrons = opts.allPatrons ? 'all' : 'own';
      const { account, homes } = await cli.write(async ({ services }) => ({
        account: await services.sipAccounts.create(name, opts.institution, opts.location, patrons),
        homes: patrons === 'own' ? await services.sipAccounts.homeLibrariesOf(opts.institution) : undefined,
      }));
      if (homes?.length === 0)
        process.stderr.write(
          `no branch of the library profile has institution ${opts.institution}: this kiosk knows no patron until one has ` +
            `(institution: on its branches, carrel profile apply), or until carrel sip accounts scope ${name} all\n`,
        );
      print(
        !!opts.json,
        account,
        [
          `name:     ${account.name}`,
          `password: ${account.password}`,
          `patrons:  ${homes ? `the institution's: home library ${homes.join(', ') || 'none yet'}` : 'every patron'}`,
          '',
          'The password is shown only now.',
        ].join('\n'),
      );
    });
  accounts
    .command('list')
    .description('list the SIP2 logins (never their passwords)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const list = await cli.read(({ services }) => services.sipAccounts.list());
      const rows = [
        ['NAME', 'INSTITUTION', 'LOCATION', 'PATRONS', 'CREATED'],
        ...list.map((a) => [
          a.name,
          a.institution,
          a.location ?? '',
          a.homeLibraries ? `own: ${a.homeLibraries.join(', ') || 'none (no branch has its institution)'}` : 'all',
          a.created,
        ]),
      ];
      print(!!opts.json, list, list.length ? table(rows) : 'no SIP2 logins yet: carrel sip accounts create NAME --institution ID');
    });
  accounts
    .command('scope')
    .description("whose patrons a SIP2 login acts on, from its kiosk's next login: own (its institution's) or all")
    .argument('<name>', 'the login name')
    .argument('<patrons>', 'own or all')
    .option('--json', 'print JSON')
    .action(async (name: string, patrons: string, opts: { json?: boolean }) => {
      await cli.write(({ services }) => services.sipAccounts.scope(name, patrons));
      print(!!opts.json, { name, patrons }, `${name} acts on ${patrons === 'all' ? 'every patron' : "its institution's patrons"}`);
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
