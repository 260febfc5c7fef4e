// The one error shape of the API: {code, specificCode, httpStatus, name, description?}.
// Every failure a client can see is an ApiError made here; codes follow DESIGN.md section 3.
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
    super(description ? `${title}: ${description}` : title);
  }

  body(): ErrorBody {
    const body: ErrorBody = { code: this.code, specificCode: this.specificCode, httpStatus: this.httpStatus, name: this.title };
    if (this.description !== undefined) body.description = this.description;
    return body;
  }
}

export const errors = {
  invalidArgument: (d: string) => new ApiError(101, 400, 'Invalid argument', d),
  missingParameter: (d: string) => new ApiError(105, 400, 'Required parameter missing', d),
  unknownParameter: (d: string) => new ApiError(106, 400, 'Parameter not recognized', d),
  notFound: (d?: string) => new ApiError(107, 404, 'Record not found', d),
  invalidParameter: (d: string) => new ApiError(108, 400, 'Invalid parameter', d),
  internal: (d?: string) => new ApiError(111, 500, 'Dataservice error', d),
  databaseUnavailable: (d?: string) => new ApiError(112, 503, 'Database access error', d),
  unauthorized: (d = 'invalid or missing authorization header') => new ApiError(113, 401, 'Unauthorized', d),
  badJson: (d: string) => new ApiError(130, 400, 'Bad JSON syntax', d),
  forbidden: (d: string) => new ApiError(116, 403, 'Forbidden', d),
  apiDisabled: (d: string) => new ApiError(117, 503, 'API disabled', d),
  /** GET /api while the service is not running: the seed's 404. */
  notRunning: (d: string) => new ApiError(117, 404, 'Service not running', d),
  invalidToken: (d: string) => new ApiError(120, 401, 'invalid_token', d),
  invalidScheme: (d: string) => new ApiError(121, 400, 'Invalid authorization scheme', d),
  validationFailed: (d: string) => new ApiError(126, 400, 'Request validation failed', d),
  unsupportedMediaType: (d: string) => new ApiError(126, 415, 'Request validation failed', d),
  requestDenied: (specificCode: number, d: string, httpStatus = 400) => new ApiError(132, httpStatus, 'Request denied', d, specificCode),
  // 134 429 Too many attempts: failed patron PIN validations over the limit (src/patrons/refusals.ts, README "Patrons").
  multipleRecords: (d: string) => new ApiError(133, 409, 'Multiple records found', d),
};
