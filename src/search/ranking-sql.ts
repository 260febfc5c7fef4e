// Pieces of SQL that the ranking statements share (ranking-repository.ts):
// parameters, the title's boost, the phrase checks, a query's terms as arrays.
import type { SqlClause } from './types.ts';

/** The parameters of one statement: add() keeps a value and answers its placeholder. */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** An exact title beats a leading one, which beats the words found anywhere in it in order. */
export function titleBoost(title: string, p: SqlParams, column = 'd.title'): string {
  return `(case when ${column} = ${p.add(title)} then 60 when ${column} like ${p.add(`${title}%`)} then 25
                when ${column} like ${p.add(`%${title}%`)} then 10 else 0 end)`;
}

/** Conditions that the doc's words (d.words) contain each phrase, or (not) none of them. */
export function phraseConditions(phrases: string[], p: SqlParams, not = false): string[] {
  return phrases.map((phrase) => `d.words ${not ? 'not ' : ''}like ${p.add(`%${phrase}%`)}`);
}

/** The clauses' terms and boosts as parallel arrays, with each term's clause (by index). */
export function termArrays(clauses: SqlClause[]): { terms: number[]; boosts: number[]; clauses: number[] } {
  const out = { terms: [] as number[], boosts: [] as number[], clauses: [] as number[] };
  clauses.forEach((c, i) =>
    c.termIds.forEach((id, j) => {
      out.terms.push(id);
      out.boosts.push(c.boosts[j]!);
      out.clauses.push(i);
    }),
  );
  return out;
}
