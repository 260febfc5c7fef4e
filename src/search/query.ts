// A search box's text as a query: words (all required, stop words optional unless they are all
// there is), "quoted phrases" (in order, adjacent), -excluded words or phrases, and OR between two
// words or phrases (either will do). Parsing never fails: whatever cannot be understood is read
// as words, so any text a person types gives a query.
import { STOP_WORDS, words } from './text.ts';

/** One required part of a query: any of its alternatives must match; an alternative is a run of adjacent words. */
export interface Clause {
  alternatives: string[][];
  /** A stop word alone: it ranks, but does not restrict. */
  optional: boolean;
}

export interface Query {
  clauses: Clause[];
  /** Words or phrases none of the results may contain. */
  excluded: string[][];
}

interface Token {
  words: string[];
  phrase: boolean;
  excluded: boolean;
  or: boolean;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /(-?)"([^"]*)"?|(\S+)/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match[2] !== undefined) {
      const found = words(match[2]);
      if (found.length) tokens.push({ words: found, phrase: true, excluded: match[1] === '-', or: false });
      continue;
    }
    const raw = match[3]!;
    if (raw === 'OR') {
      tokens.push({ words: [], phrase: false, excluded: false, or: true });
      continue;
    }
    const excluded = raw.startsWith('-') && raw.length > 1;
    // A hyphen inside a word joins its parts as a phrase ("Jean-Paul", "978-0-14-143951-8").
    const found = words(excluded ? raw.slice(1) : raw);
    if (found.length === 1) tokens.push({ words: found, phrase: false, excluded, or: false });
    else if (found.length > 1) tokens.push({ words: found, phrase: true, excluded, or: false });
  }
  return tokens;
}

export function parseQuery(text: string): Query {
  const tokens = tokenize(text);
  const clauses: Clause[] = [];
  const excluded: string[][] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.or) continue;
    if (token.excluded) {
      excluded.push(token.words);
      continue;
    }
    const previous = clauses[clauses.length - 1];
    if (tokens[i - 1]?.or && previous && i >= 2 && !tokens[i - 2]!.excluded) {
      previous.alternatives.push(token.words);
      previous.optional = false;
      continue;
    }
    clauses.push({ alternatives: [token.words], optional: !token.phrase && STOP_WORDS.has(token.words[0]!) });
  }
  // "the who", "to be or not to be": when every clause is a stop word, they all count.
  if (clauses.length && clauses.every((c) => c.optional)) for (const c of clauses) c.optional = false;
  return { clauses, excluded };
}
