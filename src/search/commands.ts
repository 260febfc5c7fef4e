// `carrel search reindex`: the whole search index built again beside the one in use, then swapped in.
import type { Command } from 'commander';
import { CliError, print, progressBar } from '../cli/common.ts';
import type { Cli } from '../cli/kit.ts';
import { inRoomyHeap } from '../cli/roomy-heap.ts';
import { countSearchable, rebuildIndex, RebuildRunningError } from './rebuild.ts';

export function searchCommands(program: Command, cli: Cli): void {
  const search = program.command('search').description('the search index behind GET /v6/bibs/search');
  search
    .command('reindex')
    .description(
      'build the whole index again, beside the one in use, and swap it in (a running server indexes new writes by itself, within a second)',
    )
    .option('--json', 'print the summary as JSON')
    .action(async (opts: { json?: boolean }) => {
      await inRoomyHeap();
      const started = performance.now();
      const bar = progressBar('indexing |{bar}| {percentage}% | {value}/{total} bibs', opts.json);
      const indexed = await cli
        .write(async ({ db, services }) => {
          await services.bibs.analyze();
          bar?.start(await countSearchable(db), 0);
          return rebuildIndex(db, (progress) => {
            if (progress.phase === 'documents') bar?.update(progress.done);
            else if (bar) {
              bar.stop();
              process.stderr.write(`building the index: ${progress.step}\n`);
            }
          }).catch((error: unknown) => {
            throw error instanceof RebuildRunningError ? new CliError(error.message) : error;
          });
        })
        .finally(() => bar?.stop());
      const seconds = (performance.now() - started) / 1000;
      // This process's most resident memory (the rebuild runs here: inRoomyHeap), in MB.
      const peakMemoryMb = Math.round(process.resourceUsage().maxRSS / 1024);
      print(
        !!opts.json,
        { indexed, seconds: Math.round(seconds * 10) / 10, peakMemoryMb },
        `indexed ${indexed} bibs in ${seconds.toFixed(1)} s (peak memory ${peakMemoryMb} MB)`,
      );
    });
}
