// What a library's statement may call when Carrel runs it (carrel sql, saved queries): the
// statement runs as the reader role inside one of Carrel's own sessions, and PostgreSQL lets a
// session's role be changed back from inside a query (set_config('role', …)) or a query's text be
// run where the statement cannot be seen (query_to_xml, ts_stat). Such calls are refused before
// the statement runs; a SQL login's own session (its own role, nothing to change back to) needs
// no such check.
import { loadModule, parseSync, type ParseResult } from 'libpg-query';
import { fail } from '../shared/errors.ts';

const REFUSED = new Set([
  // Changes the role, the session's authorization or the search path mid-statement.
  'set_config',
  // Run a text as SQL.
  'query_to_xml',
  'query_to_xmlschema',
  'query_to_xml_and_xmlschema',
  'ts_stat',
  'ts_rewrite',
  // Session locks outlive the statement on a pooled session; notifications reach Carrel's listeners.
  'pg_advisory_lock',
  'pg_advisory_lock_shared',
  'pg_try_advisory_lock',
  'pg_try_advisory_lock_shared',
  'pg_advisory_xact_lock',
  'pg_advisory_xact_lock_shared',
  'pg_try_advisory_xact_lock',
  'pg_try_advisory_xact_lock_shared',
  'pg_notify',
]);

let loaded: Promise<void> | undefined;

/** The parser's WebAssembly, loaded once, on first use. */
export function loadParser(): Promise<void> {
  loaded ??= loadModule();
  return loaded;
}

/** Every function a parse tree calls, by its last name part. */
function* calls(node: unknown): Generator<string> {
  if (Array.isArray(node)) {
    for (const child of node) yield* calls(child);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'FuncCall') {
      const name = (value as { funcname?: { String?: { sval?: string } }[] }).funcname?.at(-1)?.String?.sval;
      if (name) yield name;
    }
    yield* calls(value);
  }
}

/**
 * Refuses a statement that is not one query, or that calls a function Carrel's sessions cannot
 * offer. A statement the parser cannot read is refused with the parser's (PostgreSQL's) message.
 */
export async function checkStatement(statement: string): Promise<void> {
  await loadParser();
  let tree: ParseResult;
  try {
    tree = parseSync(statement);
  } catch (error) {
    throw fail.queryFailed(error instanceof Error ? error.message : String(error));
  }
  const statements = tree.stmts ?? [];
  if (statements.length !== 1) throw fail.queryFailed(`give one statement, not ${statements.length}`);
  const kind = Object.keys(statements[0]!.stmt ?? {})[0];
  if (kind !== 'SelectStmt')
    throw fail.queryFailed(`only a query (SELECT, VALUES or WITH … SELECT) can run here, not ${kind ?? 'nothing'}`);
  const refused = refusedCall(statements[0]);
  if (refused) throw fail.queryFailed(`the function ${refused} is not available to SQL readers`);
  // A WITH clause may write (pg_settings' rule even passes a read-only transaction's check).
  if ((writtenRelations(statements[0]) ?? ['']).length > 0) throw fail.queryFailed('a query here writes nothing (a WITH clause writes)');
}

interface RangeVar {
  catalogname?: string;
  schemaname?: string;
  relname?: string;
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** A relation's name as written, quoted part by part; undefined for a name that names another database. */
function relationName(parts: string[]): string | undefined {
  if (parts.length === 0 || parts.length > 2) return undefined;
  return parts.map(quoteIdent).join('.');
}

function rangeVarParts(range: RangeVar): string[] {
  if (range.catalogname) return ['', '', ''];
  return [range.schemaname, range.relname].filter((part): part is string => part !== undefined);
}

/**
 * Every relation a statement writes, wherever it is in the tree (a WITH clause, EXPLAIN ANALYZE,
 * a rule-bearing view such as pg_settings): INSERT, UPDATE, DELETE, MERGE, TRUNCATE, CREATE INDEX
 * and DROP name their targets. Answers undefined when a name cannot be one of the login's own
 * tables (one that names a database).
 */
export function writtenRelations(tree: unknown): string[] | undefined {
  const out: string[] = [];
  let foreign = false;
  const add = (parts: string[]) => {
    const name = relationName(parts);
    if (name) out.push(name);
    else foreign = true;
  };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      const inner = value as Record<string, unknown>;
      if (['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt', 'IndexStmt'].includes(key) && inner.relation)
        add(rangeVarParts(inner.relation));
      if (key === 'TruncateStmt')
        for (const r of (inner.relations ?? []) as { RangeVar?: RangeVar }[]) add(rangeVarParts(r.RangeVar ?? {}));
      if (key === 'DropStmt' && ['OBJECT_TABLE', 'OBJECT_INDEX'].includes(String(inner.removeType)))
        for (const o of (inner.objects ?? []) as { List?: { items?: { String?: { sval?: string } }[] } }[])
          add((o.List?.items ?? []).map((item) => item.String?.sval ?? ''));
      visit(value);
    }
  };
  visit(tree);
  return foreign ? undefined : out;
}

/** The first function a parse tree calls that Carrel's sessions cannot offer, if any. */
export function refusedCall(tree: unknown): string | undefined {
  for (const name of calls(tree)) if (REFUSED.has(name)) return name;
  return undefined;
}
