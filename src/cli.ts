// The `carrel` command: every domain's commands (app.ts lists the domains), on the same services
// the HTTP API uses.
import { Command } from 'commander';
import { DOMAINS } from './app.ts';
import { CliError } from './cli/common.ts';
import { addCommands } from './cli/kit.ts';
import { VERSION_STRING } from './version.ts';

const program = new Command();
program
  .name('carrel')
  .description('Carrel library services platform: operate the service and its data.')
  .version(VERSION_STRING, '-V, --version')
  .showHelpAfterError()
  // A command's own options are its own: `carrel sql users create NAME --json` is not `carrel sql --json`.
  .enablePositionalOptions()
  .addHelpText(
    'after',
    '\nDatabase: PostgreSQL when DATABASE_URL is set, else the embedded database in CARREL_DATA_DIR (default ./data);\nwith the embedded database the commands work while `npm start` runs.',
  );
addCommands(program, DOMAINS);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`carrel: ${message}\n`);
  if (!(error instanceof CliError)) process.stderr.write(`${error instanceof Error ? (error.stack ?? '') : ''}\n`);
  process.exitCode = 1;
}
