// What the hooks put on routes as they are registered (onRoute) share: which methods write, and a
// route option's hooks as a list.
import type { RouteOptions } from 'fastify';

/** The methods that change something: idempotency and read-your-writes hook onto these. */
export const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether a route answers a writing method. */
export const isWriteRoute = (route: Pick<RouteOptions, 'method'>): boolean => [route.method].flat().some((method) => WRITES.has(method));

/** A route option's hooks (absent, one, or several) as a list, to add to. */
export const asList = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : ([] as T[]).concat(hooks));
