// Named parameters in a library's statement: `:name` where a value goes, as psql and most report
// tools write them. Each becomes a numbered parameter ($1 …) cast to its declared type, found by
// PostgreSQL's own scanner, so a `:name` inside a string, a quoted name or a comment is left alone
// and `::type` casts are not mistaken for one.
import { scanSync } from 'libpg-query';
import { fail } from '../shared/errors.ts';
import { loadParser } from './statement-check.ts';

export interface Declared {
  name: string;
  /** The PostgreSQL type its value is cast to. */
  pgType: string;
}

/**
 * The statement with each `:name` of a declared parameter replaced by `$n::type` (n its place in
 * the declared list, from 1). A numbered parameter written in the statement, or a declared one it
 * never uses, is refused.
 */
export async function bindNames(statement: string, declared: readonly Declared[]): Promise<string> {
  await loadParser();
  let tokens;
  try {
    tokens = scanSync(statement).tokens;
  } catch (error) {
    throw fail.queryFailed(error instanceof Error ? error.message : String(error));
  }
  // The scanner's positions count UTF-8 bytes.
  const bytes = Buffer.from(statement, 'utf8');
  const index = new Map(declared.map((d, i) => [d.name, i]));
  const used = new Set<string>();
  let out = '';
  let from = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.tokenName === 'PARAM')
      throw fail.invalidInput(`sql: write parameters by name (:name), not ${token.text}: they are bound by name`);
    const next = tokens[i + 1];
    if (token.text !== ':' || !next || next.start !== token.end) continue;
    const at = index.get(next.text);
    if (at === undefined) continue;
    used.add(next.text);
    out += `${bytes.toString('utf8', from, token.start)}$${at + 1}::${declared[at]!.pgType}`;
    from = next.end;
    i++;
  }
  const unused = declared.find((d) => !used.has(d.name));
  if (unused) throw fail.invalidInput(`parameters: ${unused.name} is declared but the statement never uses :${unused.name}`);
  return out + bytes.toString('utf8', from);
}
