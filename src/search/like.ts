// PostgreSQL's LIKE, in Node, for the title's boost (evaluate.ts): it must score as the ranking
// statement the tests hold the evaluator to (test/helpers/ranking-statement.ts), which compares a
// doc's title with the query's words by LIKE on a parameter it builds ('%' || words || '%').
// Nothing escapes the words, so a '%' or '_' in them is a wildcard and a backslash escapes the
// character after it: the pattern is read here as PostgreSQL reads it. (A doc's phrases are
// tested by PostgreSQL's LIKE itself, doc-repository.ts.)

/** A piece of a pattern between its '%'s: characters, each one given or any one ('_': null). */
type Segment = (string | null)[];

/** A LIKE pattern read as PostgreSQL reads it (escape character '\'). */
export interface LikePattern {
  /** The pieces between the '%'s, in order. */
  segments: Segment[];
  /** Whether any piece has a '_': the text is then compared character by character, not as a string. */
  anyChar: boolean;
}

export function likePattern(pattern: string): LikePattern {
  const chars = Array.from(pattern);
  const segments: Segment[] = [[]];
  let anyChar = false;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '\\') {
      // PostgreSQL refuses a pattern that ends with its escape character (once its match gets that
      // far: refused here at once). The evaluator's patterns end in '%', so never end so.
      if (i + 1 === chars.length) throw new Error('LIKE pattern must not end with escape character');
      segments[segments.length - 1]!.push(chars[++i]!);
    } else if (c === '%') segments.push([]);
    else if (c === '_') {
      anyChar = true;
      segments[segments.length - 1]!.push(null);
    } else segments[segments.length - 1]!.push(c);
  }
  return { segments, anyChar };
}

/** Whether `text` is LIKE `p` (case and every character compared as they are: the collation is deterministic). */
export function like(text: string, p: LikePattern): boolean {
  if (!p.anyChar)
    return likeString(
      text,
      p.segments.map((s) => s.join('')),
    );
  return likeChars(Array.from(text), p.segments);
}

/**
 * Without '_', pieces are plain strings: the first must start the text and the last end it (unless
 * the pattern opens there with '%'), and the ones between are found leftmost in turn, which finds a
 * match whenever there is one. (A string found in UTF-16 starts on a character: a valid string's
 * surrogates never stand where a character's first unit does.)
 */
function likeString(text: string, pieces: string[]): boolean {
  if (pieces.length === 1) return text === pieces[0];
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (!text.startsWith(first)) return false;
  let at = first.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const found = text.indexOf(pieces[i]!, at);
    if (found < 0) return false;
    at = found + pieces[i]!.length;
  }
  return text.length - at >= last.length && text.endsWith(last);
}

/** As likeString, character by character, where '_' takes any one character. */
function likeChars(text: string[], segments: Segment[]): boolean {
  const fits = (seg: Segment, at: number) => at + seg.length <= text.length && seg.every((c, j) => c === null || c === text[at + j]);
  if (segments.length === 1) return segments[0]!.length === text.length && fits(segments[0]!, 0);
  const first = segments[0]!;
  const last = segments[segments.length - 1]!;
  if (!fits(first, 0)) return false;
  let at = first.length;
  for (let i = 1; i < segments.length - 1; i++) {
    const seg = segments[i]!;
    let found = at;
    while (found + seg.length <= text.length && !fits(seg, found)) found++;
    if (found + seg.length > text.length) return false;
    at = found + seg.length;
  }
  return text.length - at >= last.length && fits(last, text.length - last.length);
}
