// `carrel sql "select …"`: one read-only statement over the sierra_view views, printed as a table,
// JSON or CSV.
import type { Command } from 'commander';
import { CliError, table } from '../cli/common.ts';
import type { Cli } from '../cli/kit.ts';
import { csvText, jsonRows, textCell } from './present.ts';

export function sqlCommands(program: Command, cli: Cli): void {
  program
    .command('sql')
    .description(
      'run one read-only SQL statement over the Sierra-compatible views (schema sierra_view), with the time-out and row cap of CARREL_SQL_TIMEOUT_MS and CARREL_SQL_ROW_CAP',
    )
    .argument('<statement>', 'a SELECT (or WITH … SELECT) statement, e.g. "select count(*) from bib_record"')
    .option('--json', 'print {"columns", "rows", "truncated"}, each row an object')
    .option('--csv', 'print CSV (RFC 4180), a header line first')
    .action(async (statement: string, opts: { json?: boolean; csv?: boolean }) => {
      if (opts.json && opts.csv) throw new CliError('choose --json or --csv, not both');
      const answer = await cli.read(({ services }) => services.sql.run(statement));
      if (opts.json)
        process.stdout.write(
          `${JSON.stringify({ columns: answer.columns, rows: jsonRows(answer), truncated: answer.truncated }, null, 2)}\n`,
        );
      else if (opts.csv) process.stdout.write(csvText(answer));
      else {
        process.stdout.write(`${table([answer.columns, ...answer.rows.map((row) => row.map(textCell))])}\n`);
        process.stderr.write(
          `(${answer.rows.length} row${answer.rows.length === 1 ? '' : 's'}${answer.truncated ? ', cut at the row cap' : ''})\n`,
        );
      }
    });
}
