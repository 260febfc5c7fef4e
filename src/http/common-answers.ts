// The error answers a REST route can give whatever its handler does, and how it is called (its
// OpenAPI `security`), declared once here from what the route itself declares (its access, its
// method, its path parameters) rather than repeated in every route's schema. The OpenAPI document is generated from the route schemas, so it then lists
// every status a client can meet; answers particular to a route (404 for a record it cannot find,
// 409 for a conflict) stay in the route's own schema.
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { Access } from './access.ts';
import { errorRef } from './schemas.ts';

// Methods whose body Fastify reads: an unreadable, oversized or unknown kind of body is refused before the handler.
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const WRITE_METHODS = BODY_METHODS;

/** The REST door: the versioned API, the status page and the unversioned token endpoint (not the catalogue's pages or /docs). */
function isRest(url: string): boolean {
  return url === '/api' || url === '/token' || url.startsWith('/v6/');
}

/** The statuses every route with this access, method and path can answer, each in the error body. */
export function commonAnswers(access: Access | undefined, methods: readonly string[], url: string): number[] {
  // 400: the input guard (input-guard.ts) reads every route's parameters and body, declared or not.
  const statuses = [400];
  // While the service is switched off or shutting down: 404 for the status page, 503 for the rest (access.ts).
  statuses.push(access?.kind === 'status' ? 404 : 503);
  const tokens = access?.kind === 'token' || access?.kind === 'permission' || access?.kind === 'optionalToken';
  if (tokens) statuses.push(401);
  if (access?.kind === 'permission' || access?.kind === 'optionalToken') statuses.push(403);
  // A key past its rate limit (rate-limit.ts); a caller without a token past its address's.
  if (tokens) statuses.push(429);
  // A write's Idempotency-Key used for another request, or done with no answer kept (idempotency.ts).
  if (access?.kind === 'permission' && methods.some((m) => WRITE_METHODS.has(m))) statuses.push(409, 422);
  if (url.includes(':')) statuses.push(414); // a path parameter past the router's maxParamLength
  if (methods.some((m) => BODY_METHODS.has(m))) statuses.push(413, 415); // body too large; Content-Type not accepted
  return statuses;
}

/** How a route with this access is called, as OpenAPI's `security`: a bearer token, optionally, or nothing. */
export function securityOf(access: Access | undefined): Record<string, string[]>[] | undefined {
  switch (access?.kind) {
    case 'token':
    case 'permission':
      return [{ bearer: [] }];
    case 'optionalToken':
      return [{ bearer: [] }, {}];
    default:
      return undefined;
  }
}

/**
 * Adds the common answers to each REST route's response schema, and its `security` from its
 * access, before the route is compiled and documented.
 */
export function installCommonAnswers(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!isRest(route.url)) return;
    const methods = ([] as string[]).concat(route.method);
    const declared = route.schema?.response as Record<string, unknown> | undefined;
    // A route that declares no answers is documented as answering 200 with anything; it still does.
    const response: Record<string, unknown> = declared ? { ...declared } : { 200: {} };
    for (const status of commonAnswers(route.config?.access, methods, route.url)) response[status] ??= errorRef;
    const security = securityOf(route.config?.access);
    route.schema = { ...route.schema, response, ...(security ? { security } : {}) };
  });
}
