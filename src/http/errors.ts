// The one error shape of the REST door: {code, specificCode, httpStatus, name, description?}.
// Every failure a client can see is an ApiError made here, or a domain error mapped by
// fromDomainError; codes follow docs/api-contract.md.
import type { DomainError, FailureKind } from '../shared/errors.ts';

export interface ErrorBody {
  code: number;
  specificCode: number;
  httpStatus: number;
  name: string;
  description?: string;
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly httpStatus: number,
    readonly title: string,
    readonly description?: string,
    readonly specificCode = 0,
  ) {
    // A refusal of the client's request is answered, never debugged: capturing its stack cost a
    // 404 a tenth of its CPU. A server error keeps its stack for the log.
    const depth = Error.stackTraceLimit;
    if (httpStatus < 500) Error.stackTraceLimit = 0;
    super(description ? `${title}: ${description}` : title);
    Error.stackTraceLimit = depth;
  }

  body(): ErrorBody {
    const body: ErrorBody = { code: this.code, specificCode: this.specificCode, httpStatus: this.httpStatus, name: this.title };
    if (this.description !== undefined) body.description = this.description;
    return body;
  }
}

/** Each domain failure's code, HTTP status and name on the wire. */
const WIRE: Record<FailureKind, { code: number; httpStatus: number; name: string }> = {
  invalidArgument: { code: 101, httpStatus: 400, name: 'Invalid argument' },
  missingParameter: { code: 105, httpStatus: 400, name: 'Required parameter missing' },
  unknownParameter: { code: 106, httpStatus: 400, name: 'Parameter not recognized' },
  invalidParameter: { code: 108, httpStatus: 400, name: 'Invalid parameter' },
  invalidInput: { code: 126, httpStatus: 400, name: 'Request validation failed' },
  notFound: { code: 107, httpStatus: 404, name: 'Record not found' },
  multipleRecords: { code: 133, httpStatus: 409, name: 'Multiple records found' },
  refused: { code: 132, httpStatus: 400, name: 'Request denied' },
  conflict: { code: 132, httpStatus: 409, name: 'Request denied' },
  // Failed patron PIN validations over the limit (README "Patrons"); the answer carries Retry-After.
  tooManyAttempts: { code: 134, httpStatus: 429, name: 'Too many attempts' },
  unauthenticated: { code: 113, httpStatus: 401, name: 'Unauthorized' },
  forbidden: { code: 116, httpStatus: 403, name: 'Forbidden' },
  invalidToken: { code: 120, httpStatus: 401, name: 'invalid_token' },
  historyOff: { code: 146, httpStatus: 400, name: 'Reading history not activated' },
  queryFailed: { code: 108, httpStatus: 400, name: 'Query failed' },
};

function onTheWire(kind: FailureKind, description?: string, specificCode = 0): ApiError {
  const wire = WIRE[kind];
  return new ApiError(wire.code, wire.httpStatus, wire.name, description, specificCode);
}

export function fromDomainError(error: DomainError): ApiError {
  return onTheWire(error.kind, error.detail, error.specificCode);
}

/** The REST door's own failures, and the domain's kinds where the door finds them itself (parameters, the 404 handler). */
export const errors = {
  invalidArgument: (d: string) => onTheWire('invalidArgument', d),
  missingParameter: (d: string) => onTheWire('missingParameter', d),
  unknownParameter: (d: string) => onTheWire('unknownParameter', d),
  notFound: (d?: string) => onTheWire('notFound', d),
  invalidParameter: (d: string) => onTheWire('invalidParameter', d),
  validationFailed: (d: string) => onTheWire('invalidInput', d),
  unauthorized: (d = 'invalid or missing authorization header') => onTheWire('unauthenticated', d),
  internal: (d?: string) => new ApiError(111, 500, 'Dataservice error', d),
  databaseUnavailable: (d?: string) => new ApiError(112, 503, 'Database access error', d),
  badJson: (d: string) => new ApiError(130, 400, 'Bad JSON syntax', d),
  forbidden: (d: string) => new ApiError(116, 403, 'Forbidden', d),
  apiDisabled: (d: string) => new ApiError(117, 503, 'API disabled', d),
  /** GET /api while the service is not running: the seed's 404. */
  notRunning: (d: string) => new ApiError(117, 404, 'Service not running', d),
  invalidScheme: (d: string) => new ApiError(121, 400, 'Invalid authorization scheme', d),
  unsupportedMediaType: (d: string) => new ApiError(126, 415, 'Request validation failed', d),
  /** An Accept header that allows none of what the route can write. */
  notAcceptable: (d: string) => new ApiError(108, 406, 'Invalid parameter', d),
};
