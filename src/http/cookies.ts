import type { FastifyRequest } from 'fastify';

/** The public catalogue's session cookie: it names a patron's session (src/catalog/patron). */
export const SESSION_COOKIE = 'carrel_session';

/** The value of the request's cookie of this name, if any. */
export function cookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
