// `carrel sql "select …"`: one read-only statement over the sierra_view views, printed as a table,
// JSON or CSV.
import type { Command } from 'commander';
import { CliError, print, table } from '../cli/common.ts';
import type { Cli } from '../cli/kit.ts';
import { csvText, jsonRows, textCell } from './present.ts';

export function sqlCommands(program: Command, cli: Cli): void {
  const sql = program
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
  loginCommands(sql, cli);
}

function loginCommands(sql: Command, cli: Cli): void {
  const users = sql
    .command('users')
    .description('SQL logins: user names and passwords for psql, Metabase or a script to read the sierra_view views, and nothing else');
  users
    .command('create')
    .description('create a login; prints its password once (the database keeps only its SCRAM verifier) and a postgres:// URL')
    .argument('<name>', 'the user name: lower-case letters, digits and underscores')
    .option('--json', 'print {"user", "password", "url"}')
    .action(async (name: string, opts: { json?: boolean }) => {
      const login = await cli.write(({ services }) => services.sqlLogins.create(name));
      const where = login.url
        ? ['', 'Connect with:', `  psql '${login.url}'`]
        : ['', 'On the embedded database, logins connect through Carrel: set CARREL_SQL_PORT (e.g. 5433) and start the server.'];
      print(
        !!opts.json,
        login,
        [`user:     ${login.user}`, `password: ${login.password}`, ...where, '', 'The password is shown only now.'].join('\n'),
      );
    });
  users
    .command('list')
    .description('list the logins (never their passwords) and how many sessions each has open')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const list = await cli.read(({ services }) => services.sqlLogins.list());
      const rows = [['USER', 'CREATED', 'SESSIONS'], ...list.map((l) => [l.user, l.created ?? '', String(l.sessions)])];
      print(!!opts.json, list, list.length ? table(rows) : 'no SQL logins yet: carrel sql users create NAME');
    });
  users
    .command('revoke')
    .description('revoke a login: its sessions end at once and its role is dropped')
    .argument('<name>', 'the user name')
    .option('--json', 'print JSON')
    .action(async (name: string, opts: { json?: boolean }) => {
      await cli.write(({ services }) => services.sqlLogins.revoke(name));
      print(!!opts.json, { user: name, revoked: true }, `revoked ${name}`);
    });
}
