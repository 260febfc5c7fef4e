// Which of the representations a route can write the client asked for, by its Accept header
// (RFC 9110 §12.5.1): media ranges with q values, wildcards, parameters. Each representation takes
// the q of the most specific range that matches it; the highest q wins, and between equal q the
// range written earlier in the header, then the representation the route lists first (so a bare
// wildcard gets the route's default). q=0 says "not this one".

export interface MediaRange {
  type: string;
  subtype: string;
  q: number;
  /** Its place in the header, for ties. */
  index: number;
}

// A qvalue as RFC 9110 writes it: 0 to 1, at most three decimals.
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;
// A token (RFC 9110 §5.6.2): what type, subtype and parameter names are made of.
const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/** The header's parts split at commas and semicolons outside quoted strings, in one pass. */
function splitRanges(header: string): string[][] {
  const ranges: string[][] = [];
  let parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < header.length; i++) {
    const c = header[i]!;
    if (quoted) {
      current += c;
      if (c === '\\' && i + 1 < header.length) current += header[++i]!;
      else if (c === '"') quoted = false;
    } else if (c === '"') {
      quoted = true;
      current += c;
    } else if (c === ';' || c === ',') {
      parts.push(current.trim());
      current = '';
      if (c === ',') {
        ranges.push(parts);
        parts = [];
      }
    } else current += c;
  }
  parts.push(current.trim());
  ranges.push(parts);
  return ranges;
}

/**
 * The media ranges of an Accept header. A range that cannot be read (no subtype, a wildcard type
 * with a named subtype, a q that is not a qvalue) is left out, as if the client had not written it.
 * Parameters other than q are read past and do not narrow the range.
 */
export function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const [range = '', ...params] of splitRanges(header)) {
    const slash = range.indexOf('/');
    if (slash < 0) continue;
    const type = range.slice(0, slash).trim().toLowerCase();
    const subtype = range
      .slice(slash + 1)
      .trim()
      .toLowerCase();
    if (!TOKEN.test(type) || !TOKEN.test(subtype) || (type === '*' && subtype !== '*')) continue;
    let q = 1;
    let readable = true;
    for (const param of params) {
      const equals = param.indexOf('=');
      if (equals < 0 || param.slice(0, equals).trim().toLowerCase() !== 'q') continue;
      const value = param.slice(equals + 1).trim();
      if (!QVALUE.test(value)) readable = false;
      else q = Number(value);
      break; // parameters after q are accept-extensions
    }
    if (readable) ranges.push({ type, subtype, q, index: ranges.length });
  }
  return ranges;
}

/** How closely a range names a type: exactly 2, by its type 1, any 0; -1 when it does not match. */
function specificity(range: MediaRange, type: string, subtype: string): number {
  if (range.type === '*') return 0;
  if (range.type !== type) return -1;
  if (range.subtype === '*') return 1;
  return range.subtype === subtype ? 2 : -1;
}

/**
 * The one of candidates (media types, the route's default first) the client prefers, or undefined
 * when it accepts none of them (answer 406). No Accept header, or one with no readable range, accepts the default.
 */
export function negotiate(accept: string | undefined, candidates: readonly string[]): string | undefined {
  const ranges = accept === undefined ? [] : parseAccept(accept);
  // A header with nothing readable in it says nothing: as if it were not sent.
  if (ranges.length === 0) return candidates[0];
  let best: { candidate: string; q: number; index: number } | undefined;
  for (const candidate of candidates) {
    const [type = '', subtype = ''] = candidate.toLowerCase().split('/');
    let match: MediaRange | undefined;
    let matchSpecificity = -1;
    for (const range of ranges) {
      const s = specificity(range, type, subtype);
      if (s > matchSpecificity) {
        match = range;
        matchSpecificity = s;
      }
    }
    if (!match || match.q === 0) continue;
    // Candidates come in the route's order: a later one wins only with a higher q or an earlier range.
    if (!best || match.q > best.q || (match.q === best.q && match.index < best.index)) {
      best = { candidate, q: match.q, index: match.index };
    }
  }
  return best?.candidate;
}
