// A request's path as the request log shows it. Every request's raw path comes here, so it is read
// once, segment by segment, with no pattern that could try each start against each end.

/** Its percent-escapes read as the router reads them (a malformed one kept as it is), in lower case. */
function decodedSegment(segment: string): string {
  if (!segment.includes('%')) return segment.toLowerCase();
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return segment.replace(/%[0-9a-f]{2}/gi, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16))).toLowerCase();
  }
}

/**
 * A request's path as logged: no query string (it may one day carry a barcode or a name), and no
 * Patron API PIN. A pintest is recognised as the router sees it, whatever the spelling (escapes,
 * case, doubled slashes, `/%50ATRONAPI/1/%31234/pintest`): every segment between the patron's id
 * and `pintest` is replaced by `[redacted]`.
 */
export function loggedPath(url: string): string {
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  const segments = path.split('/');
  // The segments the router sees (empty ones are doubled slashes, made one before routing).
  const named: number[] = [];
  for (let i = 0; i < segments.length; i++) if (segments[i] !== '') named.push(i);
  if (named.length < 3 || decodedSegment(segments[named[0]!]!) !== 'patronapi') return path;
  let pintest = -1;
  for (let k = named.length - 1; k >= 2 && pintest < 0; k--) if (decodedSegment(segments[named[k]!]!).startsWith('pintest')) pintest = k;
  if (pintest < 0) return path;
  // /PATRONAPI/{id}/{pin}/pintest: the id is kept when a PIN follows it; with nothing between, the one segment may hold both.
  for (let k = pintest > 2 ? 2 : 1; k < pintest; k++) segments[named[k]!] = '[redacted]';
  return segments.join('/');
}
