// Per-key rate limits at the REST door (src/auth/rate-limit.ts counts): a request over its key's
// limit for its route family is answered 429 code 134 with Retry-After, before its handler runs.
// Open routes (no key) and PIN attempt limits are not concerned.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimiter } from '../auth/rate-limit.ts';
import { ApiError } from './errors.ts';
import type { App } from './types.ts';

/** The route family: the first segment of the route's path after /v6 (`/v6/patrons/:id/holds` → patrons). */
export function routeFamily(routeUrl: string): string {
  return /^\/v6\/([^/]+)/.exec(routeUrl)?.[1] ?? routeUrl;
}

/**
 * Puts the check on each route registered from now on that takes a token (only those have a
 * principal to count): the status page, the documentation and unknown paths do not pay for it.
 */
export function installRateLimits(app: App, limiter: RateLimiter): void {
  const check = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    const principal = request.principal;
    if (!principal) return done();
    const family = routeFamily(request.routeOptions.url ?? request.url);
    const over = limiter.take(principal.keyRowId, principal.rateLimit, family);
    if (!over) return done();
    void reply.header('retry-after', String(over.retryAfterSec));
    done(overRateLimit(over, `/${family}`));
  };
  app.addHook('onRoute', (route) => {
    const kind = route.config?.access?.kind;
    if (kind !== 'token' && kind !== 'permission' && kind !== 'optionalToken') return;
    // First of the route's own hooks: right after access control, which sets the principal.
    route.onRequest = [check, ...(route.onRequest === undefined ? [] : [route.onRequest].flat())];
  });
}

/** The refusal of a request over its key's rate limit for `where` (its route family, a SOAP service's path). */
export function overRateLimit(over: { perMinute: number; retryAfterSec: number }, where: string): ApiError {
  return new ApiError(
    134,
    429,
    'Too many attempts',
    `this key may make ${over.perMinute} requests a minute to ${where}; try again in ${over.retryAfterSec} s`,
  );
}
