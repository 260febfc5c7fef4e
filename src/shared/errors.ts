// What a rule says when it refuses: a plain value every door maps to its own wire form: the REST
// error body (src/http/errors.ts), a SIP2 answer's screen message (src/sip2/circulation-messages.ts),
// a Patron API page's ERRNUM and ERRMSG (src/patron-api/), a `carrel` command's error (src/cli/kit.ts).
// Nothing here knows of HTTP statuses or of Sierra's REST error codes.

export type FailureKind =
  /** A number or record id that does not parse. */
  | 'invalidArgument'
  | 'missingParameter'
  | 'unknownParameter'
  /** A parameter that parses but cannot be used. */
  | 'invalidParameter'
  /** A body that breaks the rules of its fields. */
  | 'invalidInput'
  | 'notFound'
  | 'multipleRecords'
  /** A rule refuses: the request names something that does not exist or cannot serve (specificCode says which rule). */
  | 'refused'
  /** A rule refuses: the state of the records forbids it (specificCode says which rule). */
  | 'conflict'
  /** Too many failed attempts: try again after retryAfterSec. */
  | 'tooManyAttempts'
  /** No credentials, or credentials that do not match. */
  | 'unauthenticated'
  /** Credentials that are good but lack what this needs. */
  | 'forbidden'
  /** A token that is invalid, expired or revoked. */
  | 'invalidToken'
  /** The patron keeps no reading history: it was never turned on, or was turned off. */
  | 'historyOff'
  /** A library's own SQL statement failed: the detail is PostgreSQL's message. */
  | 'queryFailed';

export class DomainError extends Error {
  constructor(
    readonly kind: FailureKind,
    /** What a person reads: names the field or record and says what is wrong. */
    readonly detail?: string,
    /** Which rule refused (refused, conflict); 0 otherwise. */
    readonly specificCode = 0,
    readonly retryAfterSec?: number,
  ) {
    super(detail ?? kind);
  }
}

export const fail = {
  invalidArgument: (d: string) => new DomainError('invalidArgument', d),
  missingParameter: (d: string) => new DomainError('missingParameter', d),
  unknownParameter: (d: string) => new DomainError('unknownParameter', d),
  invalidParameter: (d: string) => new DomainError('invalidParameter', d),
  invalidInput: (d: string) => new DomainError('invalidInput', d),
  notFound: (d?: string) => new DomainError('notFound', d),
  multipleRecords: (d: string) => new DomainError('multipleRecords', d),
  refused: (specificCode: number, d: string) => new DomainError('refused', d, specificCode),
  conflict: (specificCode: number, d: string) => new DomainError('conflict', d, specificCode),
  tooManyAttempts: (retryAfterSec: number, d: string) => new DomainError('tooManyAttempts', d, 0, retryAfterSec),
  unauthenticated: (d: string) => new DomainError('unauthenticated', d),
  forbidden: (d: string) => new DomainError('forbidden', d),
  invalidToken: (d: string) => new DomainError('invalidToken', d),
  historyOff: (d: string) => new DomainError('historyOff', d),
  queryFailed: (d: string) => new DomainError('queryFailed', d),
};
