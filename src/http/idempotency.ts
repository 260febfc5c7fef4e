// The Idempotency-Key header on POST, PUT, PATCH and DELETE (IETF draft-ietf-httpapi-idempotency-key-header):
// the request runs in one transaction with its claim on the key and the answer kept for retries
// (src/idempotency/service.ts). A retry with the same key and request gets the first answer again,
// marked `Idempotent-Replayed: true`; the same key with another request is refused 422. Answers of
// 500 and above are not kept (their transaction is rolled back), so a retry runs the write afresh.
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { setAmbientTransaction, withAmbientScope } from '../db/ambient.ts';
import type { OpenTransaction } from '../db/ambient.ts';
import type { IdempotencyService } from '../idempotency/service.ts';
import { loggable } from '../shared/log.ts';
import { ApiError, errors } from './errors.ts';
import { toApiError } from './error-handler.ts';
import { asList, isWriteRoute, WRITES } from './route-hooks.ts';
import type { App } from './types.ts';

const KEY = /^[\x21-\x7e]{1,255}$/;
/** Answers up to this size are kept; a larger one is not, and a retry is told the write was done. */
const KEEP_BYTES = 1024 * 1024;

interface Pending {
  open: OpenTransaction;
  keyId: string;
  key: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotent?: Pending;
  }
}

function fingerprint(request: FastifyRequest): string {
  const body = request.body;
  const hash = crypto.createHash('sha256').update(`${request.method} ${request.url}\n`);
  if (Buffer.isBuffer(body) || typeof body === 'string') hash.update(body);
  else if (body !== undefined) hash.update(JSON.stringify(body));
  return hash.digest('hex');
}

function headerKey(request: FastifyRequest): string | undefined {
  const raw = request.headers['idempotency-key'];
  return WRITES.has(request.method) && raw !== undefined ? (Array.isArray(raw) ? raw.join(',') : raw) : undefined;
}

/** The body to keep for a replay: null when there is none, undefined when it cannot be kept (a stream, or past KEEP_BYTES). */
function keptBody(payload: unknown): string | null | undefined {
  if (payload === null || payload === undefined) return null;
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
  return text !== undefined && Buffer.byteLength(text) <= KEEP_BYTES ? text : undefined;
}

async function settle(request: FastifyRequest, reply: FastifyReply, payload: unknown, service: IdempotencyService): Promise<unknown> {
  const pending = request.idempotent;
  if (!pending) return payload;
  request.idempotent = undefined;
  setAmbientTransaction(undefined);
  if (reply.statusCode >= 500) {
    await pending.open.rollback().catch(() => {});
    return payload;
  }
  const body = keptBody(payload);
  const contentType = reply.getHeader('content-type');
  const answer =
    body === undefined
      ? undefined
      : { statusCode: reply.statusCode, contentType: typeof contentType === 'string' ? contentType : null, body };
  try {
    await service.finish(pending.open, pending.keyId, pending.key, answer);
    return payload;
  } catch (error) {
    // A statement of the request failed and its refusal (4xx) was answered: the transaction can
    // keep nothing, and holds no write. The refusal goes out as it is, not kept.
    if ((error as { code?: unknown }).code === '25P02') return payload;
    const failure = toApiError(error) ?? errors.internal(`an unexpected error occurred (request ${request.id})`);
    if (failure.httpStatus >= 500) request.log.warn({ err: loggable(error) }, 'an idempotent write could not be committed');
    void reply.code(failure.httpStatus).type('application/json; charset=utf-8');
    return JSON.stringify(failure.body());
  }
}

/**
 * Puts the hooks on each write route (POST, PUT, PATCH, DELETE) registered from now on: reads,
 * the most of what a server answers, never carry the header and do not pay for them. Call before
 * any write route is registered.
 */
export function installIdempotency(app: App, service: IdempotencyService): void {
  // Only a write carrying the header gets a scope for its transaction: the rest pay nothing.
  const scope = (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    if (headerKey(request) === undefined) return done();
    withAmbientScope(done);
  };
  const claim = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = headerKey(request);
    if (key === undefined || !request.principal) return;
    if (!KEY.test(key)) throw errors.invalidParameter('Idempotency-Key must be 1 to 255 visible ASCII characters');
    const keyId = request.principal.keyId;
    const start = await service.start(keyId, key, fingerprint(request));
    switch (start.kind) {
      case 'claimed':
        request.idempotent = { open: start.open, keyId, key };
        setAmbientTransaction(start.open.tx);
        return;
      case 'mismatch':
        throw new ApiError(132, 422, 'Request denied', 'this Idempotency-Key was already used for a different request');
      case 'doneUnanswered':
        throw new ApiError(132, 409, 'Request denied', 'a request with this Idempotency-Key was already done; its answer was not kept');
      case 'replay': {
        const { answer } = start;
        reply.code(answer.statusCode).header('idempotent-replayed', 'true');
        if (answer.contentType) reply.type(answer.contentType);
        return reply.send(answer.body ?? undefined);
      }
    }
  };
  const keep = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => settle(request, reply, payload, service);
  // A client gone before its answer: its write is not kept (a retry with the key runs it).
  const abandon = async (request: FastifyRequest) => {
    const pending = request.idempotent;
    if (!pending) return;
    request.idempotent = undefined;
    await pending.open.rollback().catch(() => {});
  };
  app.addHook('onRoute', (route) => {
    if (!isWriteRoute(route)) return;
    // Before the route's own hooks, where the server-wide ones ran: the claim comes before any
    // check of the route's, and the answer is kept before the route's onSend rewrites it (XML).
    route.onRequest = [scope, ...asList(route.onRequest)];
    route.preHandler = [claim, ...asList(route.preHandler)];
    route.onSend = [keep, ...asList(route.onSend)];
    route.onRequestAbort = [abandon, ...asList(route.onRequestAbort)];
    route.onResponse = [abandon, ...asList(route.onResponse)];
  });
}
