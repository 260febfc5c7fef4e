// Tells a database that cannot be reached (503: try again later) from a failed statement (500).
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENOENT',
  'EPIPE',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
]);

// SQLSTATE classes: 08 connection exception, 28 invalid authorization, 53 insufficient resources,
// 57P01-57P03 server shutting down or starting, 3D000 database does not exist.
const UNAVAILABLE_SQLSTATE = /^(08|28|53|57P0[1-3]$|3D000$)/;

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  return CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code);
}

/** The failure's own text, as the server or the network stack gave it. */
export function describeDbError(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}
