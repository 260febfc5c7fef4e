// `carrel edi send|fetch`: orders out to vendors as EDIFACT, vendors' files in, by hand.
import type { Command } from 'commander';
import { CliError, print, table } from '../../cli/common.ts';
import type { Cli } from '../../cli/kit.ts';
import type { FetchResult, SendResult } from './service.ts';

function sendLine(r: SendResult): string {
  const resolved = r.resolved?.length ? ` (left by an earlier run, now delivered: ${r.resolved.join(', ')})` : '';
  switch (r.outcome) {
    case 'sent':
      return `${r.vendor}: sent ${r.file} (interchange ${r.controlReference}, ${r.orders!.length} orders)${resolved}`;
    case 'kept':
      return `${r.vendor}: kept ${r.file} in Carrel, no server set (interchange ${r.controlReference}, ${r.orders!.length} orders)`;
    case 'waiting':
      return `${r.vendor}: left ${r.file} in out/ of its SFTP account, for it to collect (interchange ${r.controlReference}, ${r.orders!.length} orders)`;
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
  edi
    .command('sent')
    .description('the interchanges of orders sent (or kept in Carrel for a vendor without a server), newest first')
    .option('--vendor <code>', 'this vendor only')
    .option('--limit <n>', 'at most this many', '50')
    .option('--json', 'print JSON')
    .action(async (opts: { vendor?: string; limit: string; json?: boolean }) => {
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new CliError('--limit: a whole number from 1 to 10000');
      const list = await cli.read(({ services }) => services.ediTransport.interchanges({ vendor: opts.vendor, limit }));
      const rows = [
        ['VENDOR', 'REFERENCE', 'FILE', 'STATUS', 'SENT', 'TO', 'ORDERS'],
        ...list.map((i) => [
          i.vendor,
          i.controlReference,
          i.file,
          i.status,
          i.sentDate ?? '',
          i.deliveredTo ?? (i.status === 'prepared' ? '' : '(kept)'),
          String(i.orders.length),
        ]),
      ];
      print(!!opts.json, list, list.length ? table(rows) : 'no orders sent yet');
    });
  edi
    .command('get')
    .description('write an interchange, as sent, to standard output')
    .argument('<reference>', 'its control reference')
    .action(async (reference: string) => {
      const bytes = await cli.read(({ services }) => services.ediTransport.interchangeBytes(reference));
      process.stdout.write(bytes);
    });
}
