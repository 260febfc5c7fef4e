// Where Sierra is tolerant of what its clients send, so is Carrel (issue 19): published clients
// double a slash when their base URL ends in one, send DELETE with a JSON Content-Type and no body,
// spell booleans True/False, ask for limit=10000 and expect a capped page, and repeat a list
// parameter (bibIds=1&bibIds=2) where others join it with commas. Each rule is applied once, here,
// before a route's schema sees the request; what is still wrong is refused by the schema as before.
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { MAX_LIMIT } from '../shared/filters.ts';

/** The path with runs of slashes made one (the query string is left as it is). */
export function collapseSlashes(url: string): string {
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  if (!path.includes('//')) return url;
  return path.replace(/\/{2,}/g, '/') + (query < 0 ? '' : url.slice(query));
}

interface QueryShape {
  booleans: string[];
  strings: string[];
  limit: boolean;
}

/** What the route's query schema says of each parameter that the rules below touch. */
function queryShape(route: RouteOptions): QueryShape | undefined {
  const schema = route.schema?.querystring as { properties?: Record<string, { type?: unknown }> } | undefined;
  if (!schema?.properties) return undefined;
  const shape: QueryShape = { booleans: [], strings: [], limit: false };
  for (const [name, property] of Object.entries(schema.properties)) {
    if (property.type === 'boolean') shape.booleans.push(name);
    else if (property.type === 'string') shape.strings.push(name);
    else if (name === 'limit' && property.type === 'integer') shape.limit = true;
  }
  return shape.booleans.length || shape.strings.length || shape.limit ? shape : undefined;
}

function normalizeQuery(query: Record<string, unknown>, shape: QueryShape): void {
  for (const name of shape.booleans) {
    const value = query[name];
    if (typeof value === 'string' && /^(true|false)$/i.test(value)) query[name] = value.toLowerCase();
  }
  // bibIds=1&bibIds=2 is the list 1,2, as bibIds=1,2 is.
  for (const name of shape.strings) {
    const value = query[name];
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) query[name] = value.join(',');
  }
  // Sierra serves at most MAX_LIMIT a page whatever limit asks for; clients send limit=10000 for "all".
  if (shape.limit) {
    const limit = query.limit;
    if (typeof limit === 'string' && /^\d+$/.test(limit) && (limit.length > 9 || Number(limit) > MAX_LIMIT))
      query.limit = String(MAX_LIMIT);
  }
}

/** Installs the rules: call before any route is registered. */
export function installTolerance(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const shape = queryShape(route);
    if (!shape) return;
    const normalize = (request: FastifyRequest, _reply: unknown, done: () => void) => {
      if (request.query && typeof request.query === 'object') normalizeQuery(request.query as Record<string, unknown>, shape);
      done();
    };
    route.preValidation = [normalize, ...(route.preValidation ? [route.preValidation].flat() : [])];
  });
  // An empty body is no body, whatever its Content-Type says (a DELETE sent with
  // Content-Type: application/json and nothing after it).
  const json = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') done(null, undefined);
    else void json(request, text, done);
  });
  // Some clients send their JSON as text/plain (fetch with a string body); text that is not JSON stays text.
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') done(null, undefined);
    else if (/^\s*[[{]/.test(text)) void json(request, text, done);
    else done(null, text);
  });
}
