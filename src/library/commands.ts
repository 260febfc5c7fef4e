// `carrel profile apply|export|schema`: the library profile from and to a file, through the same
// service as PUT /v6/library/profile.
import fs from 'node:fs';
import { Command } from 'commander';
import { CliError, print } from '../cli/common.ts';
import type { Cli } from '../cli/kit.ts';
import { formatProfile, parseProfile, ProfileSchema } from './profile.ts';
import { describePlan } from './service.ts';

function readFile(file: string): string {
  try {
    return file === '-' ? fs.readFileSync(0, 'utf8') : fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    );
  }
}

export function profileCommands(program: Command, cli: Cli): void {
  const profile = program
    .command('profile')
    .description("the library's profile: branches, locations, item and patron types, circulation rules, holds, blocks, time zone");
  profile
    .command('apply')
    .description('make the library what the file says, in one transaction, printing each change (README, "Your own library")')
    .argument('<file>', 'a profile in YAML or JSON (- reads standard input)')
    .option('--dry-run', 'print what would change, change nothing')
    .option('--json', 'print JSON')
    .action(async (file: string, opts: { dryRun?: boolean; json?: boolean }) => {
      const wanted = parseProfile(readFile(file), file);
      const result = await cli.write(({ services }) => services.library.apply(wanted, { dryRun: opts.dryRun }));
      print(!!opts.json, { dryRun: !!opts.dryRun, ...result }, describePlan(result, !!opts.dryRun));
    });
  profile
    .command('export')
    .description("write the library's profile as it is now (YAML; JSON when the file name ends .json or with --json)")
    .option('--output <file>', 'write to this file (default: standard output)')
    .option('--json', 'write JSON')
    .action(async (opts: { output?: string; json?: boolean }) => {
      const current = await cli.read(({ services }) => services.library.profile());
      const text = formatProfile(current, opts.json || opts.output?.endsWith('.json') ? 'json' : 'yaml');
      if (opts.output) {
        fs.writeFileSync(opts.output, text);
        process.stderr.write(`wrote ${opts.output}\n`);
      } else process.stdout.write(text);
    });
  profile
    .command('schema')
    .description('print the JSON Schema a profile is checked against (for an editor)')
    .action(() => print(true, ProfileSchema, ''));
}
