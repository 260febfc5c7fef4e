// `carrel edi send|fetch`: orders out to vendors as EDIFACT, vendors' files in, by hand.
import type { Command } from 'commander';
import { CliError, print } from '../../cli/common.ts';
import type { Cli } from '../../cli/kit.ts';
import type { FetchResult, SendResult } from './service.ts';

function sendLine(r: SendResult): string {
  const resolved = r.resolved?.length ? ` (left by an earlier run, now delivered: ${r.resolved.join(', ')})` : '';
  switch (r.outcome) {
    case 'sent':
      return `${r.vendor}: sent ${r.file} (interchange ${r.controlReference}, ${r.orders!.length} orders)${resolved}`;
    case 'kept':
      return `${r.vendor}: kept ${r.file} in Carrel, no server set (interchange ${r.controlReference}, ${r.orders!.length} orders)`;
    case 'dry-run':
      return `${r.vendor}: would send ${r.orders!.length} orders:\n${r.text}`;
    case 'nothing':
      return `${r.vendor}: no orders to send${resolved}`;
    default:
      return `${r.vendor}: ${r.outcome}: ${r.error}`;
  }
}

function fetchLines(r: FetchResult): string[] {
  if (r.error) return [`${r.vendor}: ${r.outcome}: ${r.error}`];
  if (r.files.length === 0) return [`${r.vendor}: nothing new`];
  return r.files.map(
    (f) => `${r.vendor}: ${f.name}: ${f.error ? `not fetched: ${f.error}` : `fetched as file ${f.fileId} (${f.size} bytes)`}`,
  );
}

export function ediTransportCommands(program: Command, cli: Cli): void {
  const edi = program.command('edi').description('EDIFACT with vendors: send orders, fetch their files');
  edi
    .command('send')
    .description('send each vendor its orders not sent yet, as one EDIFACT ORDERS interchange')
    .option('--vendor <code>', 'this vendor only')
    .option('--dry-run', 'print what would be sent; record and send nothing')
    .option('--json', 'print JSON')
    .action(async (opts: { vendor?: string; dryRun?: boolean; json?: boolean }) => {
      const results = await cli.write(({ services }) => services.ediTransport.send({ vendor: opts.vendor, dryRun: opts.dryRun }));
      print(!!opts.json, results, results.length ? results.map(sendLine).join('\n') : 'no orders to send');
      if (results.some((r) => r.outcome === 'failed' || r.outcome === 'refused')) {
        if (opts.json) process.exitCode = 1;
        else throw new CliError('some orders were not sent (above)');
      }
    });
  edi
    .command('fetch')
    .description('fetch the files each vendor left on its server (responses, invoices, MARC) and process them')
    .option('--vendor <code>', 'this vendor only')
    .option('--json', 'print JSON')
    .action(async (opts: { vendor?: string; json?: boolean }) => {
      const results = await cli.write(({ services }) => services.ediTransport.fetch({ vendor: opts.vendor }));
      print(!!opts.json, results, results.length ? results.flatMap(fetchLines).join('\n') : 'no vendor has a server set');
      if (results.some((r) => r.error || r.files.some((f) => f.error))) {
        if (opts.json) process.exitCode = 1;
        else throw new CliError('some files were not fetched (above)');
      }
    });
}
