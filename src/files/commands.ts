// `carrel files …`: files received through the SFTP door.
import type { Command } from 'commander';
import { print, table } from '../cli/common.ts';
import type { Cli } from '../cli/kit.ts';
import { parseRecordId } from '../shared/filters.ts';

export function fileCommands(program: Command, cli: Cli): void {
  const files = program.command('files').description('files received through the SFTP door, and what became of them');
  files
    .command('list')
    .description('list the files received, newest first')
    .option('--account <name>', 'only the files of this SFTP account')
    .option('--limit <n>', 'at most this many', (v) => Number.parseInt(v, 10), 100)
    .option('--json', 'print JSON')
    .action(async (opts: { account?: string; limit: number; json?: boolean }) => {
      const { entries } = await cli.read(({ services }) => services.files.list({ account: opts.account, limit: opts.limit, offset: 0 }));
      const rows = [
        ['ID', 'ACCOUNT', 'NAME', 'KIND', 'STATUS', 'RECEIVED'],
        ...entries.map((f) => [f.id, f.account, f.name, f.kind, f.status, f.receivedDate]),
      ];
      print(!!opts.json, entries, entries.length ? table(rows) : 'no files received yet');
    });
  files
    .command('retry')
    .description('process a refused or failed file again, now')
    .argument('<id>', 'the file id')
    .option('--json', 'print the file as JSON')
    .action(async (raw: string, opts: { json?: boolean }) => {
      const id = parseRecordId('id', raw);
      const file = await cli.write(async ({ services }) => {
        await services.files.retry(id);
        await services.files.processOne(id);
        return services.files.get(id);
      });
      print(!!opts.json, file, `file ${file.id} (${file.name}): ${file.status}\n${JSON.stringify(file.report, null, 2)}`);
      if (file.status !== 'loaded') process.exitCode = 1;
    });
}
