// One rule for every route's input, after its schema and before its handler runs a statement: what
// the database cannot take is refused with 400 code 108 naming the member, instead of failing in
// PostgreSQL as a 500. Text must not hold a NUL (PostgreSQL's text cannot) or an unpaired surrogate
// (no UTF-8 for it); a number must be finite and exact in JSON and bigint (at most 2^53 - 1 in size:
// `offset=9223372036854775808` or `limit=1e999` would reach the database as out of range or Infinity).
import type { FastifyInstance } from 'fastify';
import { errors } from './errors.ts';

// A NUL, or half of a surrogate pair without its other half.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The path of the first member that cannot be stored, and why; undefined when all can. */
function firstProblem(value: unknown, path: string, depth = 0): { path: string; why: string } | undefined {
  if (typeof value === 'string') {
    if (UNSTORABLE.test(value)) return { path, why: 'holds a NUL character or an unpaired surrogate, which cannot be stored' };
    return undefined;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER) {
      return { path, why: `is out of range: a number here is at most ${Number.MAX_SAFE_INTEGER} in size` };
    }
    return undefined;
  }
  // Request bodies are parsed JSON (or MARC as a string or bytes): objects nest only so deep.
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value) || depth > 64) return undefined;
  for (const [key, member] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const found = firstProblem(member, path ? `${path}.${key}` : String(key), depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The first problem in one part of the request, named by its member path, or by the part for a member with no name (`?=%00`). */
export function problemIn(part: string, value: unknown): { path: string; why: string } | undefined {
  const found = firstProblem(value, '');
  return found && { ...found, path: found.path || part };
}

export function installInputGuard(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs on every request, and most have nothing to refuse.
  app.addHook('preHandler', (request, _reply, done) => {
    const found =
      problemIn('a path parameter', request.params) ?? problemIn('a query parameter', request.query) ?? problemIn('body', request.body);
    done(found ? errors.invalidParameter(`${found.path} ${found.why}`) : undefined);
  });
}
