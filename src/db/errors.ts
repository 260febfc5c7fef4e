// Tells a database that cannot be reached (503: try again later) from a failed statement (500).
// Only errors the database layer raised count: a client that hangs up mid-request fails with the
// same network codes (ECONNRESET), and must not be reported as the database being away.

/** The database could not be reached, or the connection was lost: the request may be retried. */
export class DatabaseUnavailableError extends Error {
  readonly code: string;
  /**
   * The connection was lost while a transaction was committing: the change may or may not have
   * been made, and only reading it back can tell.
   */
  readonly outcomeUnknown: boolean;

  constructor(message: string, code: string, options: { cause?: unknown; outcomeUnknown?: boolean } = {}) {
    super(message, { cause: options.cause });
    this.name = 'DatabaseUnavailableError';
    this.code = code;
    this.outcomeUnknown = options.outcomeUnknown ?? false;
  }
}

// Network and driver codes: the connection could not be made, or was lost.
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
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

// Of those, the ones that say the server cannot be reached at all (rather than one connection
// lost): while they hold, asking again at once only adds load (see reachability.ts).
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOENT', 'CONNECT_TIMEOUT']);
const UNREACHABLE_SQLSTATE = /^(28|53300$|57P03$|3D000$)/;

function codeOf(error: unknown): string | undefined {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** Whether a driver's error means the database is away (true) or a statement failed (false). */
export function isConnectionFailure(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code));
}

/** Whether a driver's error means no connection can be made now (so others should not try at once). */
export function isUnreachable(error: unknown): boolean {
  const code = codeOf(error);
  if (code === undefined) return false;
  // A connection attempt that timed out (our socket's timer says "connect ETIMEDOUT").
  if (code === 'ETIMEDOUT') return error instanceof Error && error.message.startsWith('connect ');
  return UNREACHABLE_CODES.has(code) || UNREACHABLE_SQLSTATE.test(code);
}

/**
 * A statement a read replica cancelled because replaying the primary's changes needed what it held
 * (a lock, rows vacuumed away; after max_standby_streaming_delay): SQLSTATE 40001, or 40P01 for a
 * buffer pin deadlock. A hot standby raises neither for any other reason: it refuses serializable
 * transactions, and its read-only statements wait on no one else's locks.
 */
export function isRecoveryConflict(error: unknown): boolean {
  const code = codeOf(error);
  return code === '40001' || code === '40P01';
}

/** A driver's error as the database layer throws it: DatabaseUnavailableError when the database is away. */
export function fromDriver(error: unknown, outcomeUnknown = false): unknown {
  if (error instanceof DatabaseUnavailableError || !isConnectionFailure(error)) return error;
  return new DatabaseUnavailableError(describeDbError(error), codeOf(error)!, { cause: error, outcomeUnknown });
}

export function isDatabaseUnavailable(error: unknown): error is DatabaseUnavailableError {
  return error instanceof DatabaseUnavailableError;
}

/** The failure's own text, as the server or the network stack gave it. */
export function describeDbError(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}
