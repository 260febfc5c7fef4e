// What the SQL door's wire protocol runs of a login's statement, decided on PostgreSQL's own parse
// tree. The embedded engine has one session, shared with Carrel itself, whose user is a superuser:
// each login's statements run in a transaction of their own as its role, so a statement that
// could change the session (its role, its settings, its transaction) or run code the parser cannot
// see is refused, and the statements clients send to manage a session are answered by the door.
import { parseSync, scanSync } from 'libpg-query';
import { loadParser, refusedCall, writtenRelations } from '../statement-check.ts';

export type Statement =
  /**
   * Run as it is, in the login's transaction. writes: the relations it writes, as quoted names
   * (resolved on the session, under the login's search path, before it runs: each must be a
   * temporary table of the login's own).
   */
  | { kind: 'run'; text: string; writes: string[] }
  /** BEGIN, COMMIT, ROLLBACK: the door keeps the client's transaction state. */
  | { kind: 'transaction'; op: 'begin' | 'commit' | 'rollback'; tag: string }
  /** SET or RESET of a setting a login may change: run SET LOCAL in each of its transactions. */
  | { kind: 'set'; name: string; local: string | null; tag: string }
  | { kind: 'refused'; code: string; why: string }
  | { kind: 'empty' };

/** Settings clients and report tools set; others (role, session_authorization, …) are refused. */
const SETTINGS = new Set([
  'application_name',
  'extra_float_digits',
  'datestyle',
  'timezone',
  'intervalstyle',
  'client_min_messages',
  'bytea_output',
  'lock_timeout',
  'search_path',
  'work_mem',
  'jit',
  'enable_seqscan',
  'enable_nestloop',
  'enable_hashjoin',
  'enable_mergejoin',
]);

/** Statements that read, or write only what the login itself owns (its temporary tables): its role's privileges decide. */
const RUN = new Set([
  'SelectStmt',
  'ExplainStmt',
  'VariableShowStmt',
  'InsertStmt',
  'UpdateStmt',
  'DeleteStmt',
  'MergeStmt',
  'DropStmt',
  'IndexStmt',
  'TruncateStmt',
]);

const refuse = (why: string, code = '42501'): Statement => ({ kind: 'refused', code, why });

function isTemporary(relation: unknown): boolean {
  return (relation as { relpersistence?: string } | undefined)?.relpersistence === 't';
}

type Node = Record<string, unknown>;

/** Column and table constraints a login's temporary table may have: none runs an expression. */
const PLAIN_CONSTRAINTS = new Set(['CONSTR_NULL', 'CONSTR_NOTNULL', 'CONSTR_PRIMARY', 'CONSTR_UNIQUE']);

/**
 * Why a temporary table's definition is refused, if it is: a default, a generated or identity
 * column, a check, or a table it copies or inherits from would be an expression that runs when
 * someone writes to the table, and on the embedded engine that someone shares the login's session.
 */
function unplainTable(create: Node): string | undefined {
  if (create.inhRelations || create.partbound || create.partspec || create.ofTypename)
    return 'a temporary table of a SQL login is made of its own columns (no INHERITS, PARTITION or OF)';
  for (const element of (create.tableElts ?? []) as Node[]) {
    const [kind, body] = Object.entries(element)[0] ?? ['', {}];
    const node = body as Node;
    if (kind === 'TableLikeClause') return 'a temporary table of a SQL login cannot copy another (LIKE)';
    const constraints =
      kind === 'ColumnDef'
        ? ((node.constraints ?? []) as { Constraint?: Node }[]).map((c) => c.Constraint ?? {})
        : kind === 'Constraint'
          ? [node]
          : [];
    if (kind === 'ColumnDef' && (node.raw_default || node.cooked_default || node.identity || node.generated))
      return 'a temporary table of a SQL login has no defaults or generated columns';
    for (const constraint of constraints)
      if (!PLAIN_CONSTRAINTS.has(String(constraint.contype)))
        return `a temporary table of a SQL login has no ${String(constraint.contype).replace('CONSTR_', '').toLowerCase()} constraints (NOT NULL, PRIMARY KEY and UNIQUE only)`;
  }
  return undefined;
}

function classifyOne(kind: string, node: Node, text: string): Statement {
  const called = refusedCall(node);
  if (called) return refuse(`the function ${called} is not available to SQL logins`);
  const writes = writtenRelations({ [kind]: node });
  if (!writes) return refuse('SQL logins write only their own temporary tables, in this database');
  const run: Statement = { kind: 'run', text, writes };
  if (kind === 'TransactionStmt') {
    const op = (node as { kind?: string }).kind;
    if (op === 'TRANS_STMT_BEGIN' || op === 'TRANS_STMT_START') return { kind: 'transaction', op: 'begin', tag: 'BEGIN' };
    if (op === 'TRANS_STMT_COMMIT') return { kind: 'transaction', op: 'commit', tag: 'COMMIT' };
    if (op === 'TRANS_STMT_ROLLBACK') return { kind: 'transaction', op: 'rollback', tag: 'ROLLBACK' };
    return refuse('savepoints and prepared transactions are not available to SQL logins', '0A000');
  }
  if (kind === 'VariableSetStmt') {
    const set = node as { kind?: string; name?: string; is_local?: boolean };
    const name = (set.name ?? '').toLowerCase();
    if (set.kind === 'VAR_RESET_ALL') return { kind: 'set', name: '', local: null, tag: 'RESET' };
    if (name === 'statement_timeout') return refuse('the statement time-out is Carrel’s (CARREL_SQL_TIMEOUT_MS), not the login’s');
    // These change how the server reads a statement's strings: the check here reads them as UTF-8
    // with standard strings, and the server must read them the same.
    if (['client_encoding', 'standard_conforming_strings', 'backslash_quote', 'escape_string_warning'].includes(name))
      return refuse(`the setting ${set.name ?? '?'} is fixed for SQL logins (UTF8, standard strings)`);
    if (!SETTINGS.has(name)) return refuse(`the setting ${set.name ?? '?'} cannot be changed by SQL logins`);
    if (set.kind === 'VAR_RESET') return { kind: 'set', name, local: null, tag: 'RESET' };
    return { kind: 'set', name, local: asLocal(text), tag: 'SET' };
  }
  if (kind === 'SelectStmt' && (node as { intoClause?: { rel?: unknown } }).intoClause) {
    return isTemporary((node as { intoClause: { rel?: unknown } }).intoClause.rel)
      ? run
      : refuse('SQL logins create temporary tables only (SELECT … INTO TEMP)');
  }
  if (kind === 'CreateStmt') {
    if (!isTemporary((node as { relation?: unknown }).relation)) return refuse('SQL logins create temporary tables only');
    const why = unplainTable(node);
    return why ? refuse(why) : run;
  }
  if (kind === 'CreateTableAsStmt') {
    const as = node as { objtype?: string; into?: { rel?: unknown } };
    return as.objtype === 'OBJECT_TABLE' && isTemporary(as.into?.rel)
      ? run
      : refuse('SQL logins create temporary tables only (CREATE TEMP TABLE … AS)');
  }
  if (kind === 'IndexStmt' && ((node.indexParams ?? []) as { IndexElem?: Node }[]).some((p) => p.IndexElem?.expr || node.whereClause))
    return refuse('an index of a SQL login is on plain columns (no expressions, no WHERE)');
  if (kind === 'DropStmt' && !['OBJECT_TABLE', 'OBJECT_INDEX'].includes(String(node.removeType)))
    return refuse('SQL logins drop only their own temporary tables and indexes');
  if (kind === 'VacuumStmt')
    return (node as { is_vacuumcmd?: boolean }).is_vacuumcmd ? refuse('VACUUM is not available to SQL logins') : run;
  // EXPLAIN runs a query, never another session's prepared statement (EXECUTE).
  if (kind === 'ExplainStmt' && Object.keys((node as { query?: object }).query ?? {})[0] === 'ExecuteStmt')
    return refuse('EXPLAIN of EXECUTE is not available to SQL logins');
  if (RUN.has(kind)) return run;
  return refuse(
    `${kind
      .replace(/Stmt$/, '')
      .replace(/(?<=.)(?=[A-Z])/g, ' ')
      .toUpperCase()} statements are not available to SQL logins`,
  );
}

/** `SET [SESSION] name …` as `SET LOCAL name …`: what the client set lasts for its own transactions only. */
function asLocal(text: string): string {
  const tokens = scanSync(text).tokens.filter((t) => !/COMMENT$/.test(t.tokenName));
  const bytes = Buffer.from(text, 'utf8');
  const first = tokens[0]!;
  const second = tokens[1];
  const from = second && /^(session|local)$/i.test(second.text) ? second.end : first.end;
  return `SET LOCAL${bytes.toString('utf8', from)}`;
}

/** The statements of a text, each with what the door does with it; a text that does not parse is one refusal. */
export async function classify(text: string): Promise<Statement[]> {
  await loadParser();
  let tree;
  try {
    tree = parseSync(text);
  } catch (error) {
    return [refuse(error instanceof Error ? error.message : String(error), '42601')];
  }
  const bytes = Buffer.from(text, 'utf8');
  const statements = tree.stmts ?? [];
  if (statements.length === 0) return [{ kind: 'empty' }];
  return statements.map((raw) => {
    const start = raw.stmt_location ?? 0;
    const slice = bytes.toString('utf8', start, raw.stmt_len ? start + raw.stmt_len : bytes.length);
    const [kind, node] = Object.entries(raw.stmt ?? {})[0] ?? ['', {}];
    return classifyOne(kind, node as Node, slice.trim());
  });
}
