// Turns every failure into the one error shape. Status codes come from error types and codes,
// never from matching message text.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { DomainError } from '../shared/errors.ts';
import { loggable } from '../shared/log.ts';
import { ApiError, errors, fromDomainError } from './errors.ts';

function parameterName(error: FastifySchemaValidationError): string {
  return error.instancePath.replace(/^\//, '').split('/')[0] ?? '';
}

function fromValidation(context: string | undefined, list: FastifySchemaValidationError[]): ApiError {
  const first = list[0];
  if (!first) return errors.validationFailed('the request is not valid');
  const params = first.params;
  if (context === 'body') {
    const path = first.instancePath.slice(1).replaceAll('/', '.');
    if (first.keyword === 'required')
      return errors.validationFailed(`${path ? `${path} ` : ''}is missing ${String(params.missingProperty)}`);
    if (first.keyword === 'additionalProperties')
      return errors.validationFailed(`${String(params.additionalProperty)} is not a field of this request body`);
    return errors.validationFailed(`${path || 'body'} ${first.message ?? 'is not valid'}`);
  }
  if (first.keyword === 'required') return errors.missingParameter(`${String(params.missingProperty)} is required`);
  if (first.keyword === 'additionalProperties') {
    return errors.unknownParameter(`${String(params.additionalProperty)} is not a parameter of this request`);
  }
  const name = parameterName(first);
  if (first.keyword === 'type' && (params.type === 'integer' || params.type === 'number')) {
    return errors.invalidArgument(`${name} must be a number`);
  }
  return errors.invalidParameter(`${name} ${first.message ?? 'is not valid'}`);
}

/** Maps anything thrown by a route, a hook or Fastify itself to an ApiError. */
export function toApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) return fromDomainError(error);
  const fe = error as Partial<FastifyError>;
  if (fe.validation) return fromValidation(fe.validationContext, fe.validation);
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return errors.badJson('the request body is not valid JSON');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return errors.badJson('the request body is empty but its Content-Type is application/json');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errors.unsupportedMediaType('this Content-Type is not accepted here');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(126, 413, 'Request validation failed', 'the request body is too large');
    case 'FST_ERR_BAD_URL':
      return new ApiError(108, 400, 'Invalid parameter', 'the address could not be read');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError(108, 414, 'Invalid parameter', 'a part of the address is too long');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return errors.validationFailed('the Content-Length does not match the body');
  }
  if (isDatabaseUnavailable(error)) {
    if (error.outcomeUnknown) {
      return errors.databaseUnavailable(
        'the connection to the database was lost while this change was being committed: it may have been made; read it back before trying again',
      );
    }
    if (error.code === 'POOL_TIMEOUT')
      return errors.databaseUnavailable('the database is too busy to take this request now; try again shortly');
    return errors.databaseUnavailable('the database cannot be reached; try again shortly');
  }
  // Other errors Fastify raises for a malformed request carry a 4xx status of their own.
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new ApiError(108, fe.statusCode, 'Invalid parameter', 'the request could not be read');
  }
  return undefined;
}

/** A door's own answer, in its own form, to a request Fastify refused before routing, with the status it gets. */
export type BeforeRouteAnswer = (status: number, reply: FastifyReply) => unknown;

/**
 * What Fastify refuses before a route is found (a malformed or over-long address): the REST API's
 * error body, never the address; or, under a prefix a door has claimed (the catalogue's pages are
 * HTML), that door's own answer. Fastify takes one such handler for the whole server, so doors
 * register here rather than in their own scope.
 */
export class BeforeRouteAnswers {
  private readonly doors: { prefix: string; answer: BeforeRouteAnswer }[] = [];

  /** Answers refusals of addresses under `prefix` (a path such as /catalog) with `answer`. */
  claim(prefix: string, answer: BeforeRouteAnswer): void {
    this.doors.push({ prefix, answer });
  }

  readonly handler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const answer = toApiError(error) ?? errors.validationFailed('the request could not be read');
    // Refused before the request's own hooks ran (a malformed path): they set the id on every other answer.
    void reply.header('x-request-id', request.id);
    const url = request.url;
    const door = this.doors.find(({ prefix }) => url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`));
    if (door) void door.answer(answer.httpStatus, reply);
    else void reply.code(answer.httpStatus).type('application/json; charset=utf-8').send(answer.body());
  };
}

/**
 * What a failure answers, in every door that speaks HTTP (REST, SOAP): its ApiError (an unexpected
 * one logged with its details, the client given the request id to quote), with Retry-After set
 * when the failure says when to try again.
 */
export function answerFor(error: unknown, request: FastifyRequest, reply: FastifyReply, known = toApiError(error)): ApiError {
  let apiError = known;
  if (!apiError) {
    request.log.error({ err: loggable(error) }, 'unexpected error');
    apiError = errors.internal(`an unexpected error occurred (request ${request.id})`);
  } else if (apiError.httpStatus >= 500) {
    request.log.warn({ err: loggable(error) }, apiError.message);
  }
  setRetryAfter(reply, error);
  return apiError;
}

/** Retry-After from a failure that says when to try again (too many attempts), in every door that answers it; none otherwise. */
export function setRetryAfter(reply: FastifyReply, error: unknown): void {
  if (error instanceof DomainError && error.retryAfterSec !== undefined) void reply.header('retry-after', String(error.retryAfterSec));
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = answerFor(error, request, reply);
    return reply.code(apiError.httpStatus).type('application/json; charset=utf-8').send(apiError.body());
  });
  app.setNotFoundHandler((request, reply) => {
    const e = errors.notFound(`no resource at ${request.method} ${request.originalUrl.split('?')[0]}`);
    return reply.code(404).send(e.body());
  });
}
