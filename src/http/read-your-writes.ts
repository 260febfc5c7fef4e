// With read replicas: each request runs in a scope naming its client (an API key once access
// control has checked it, src/http/access.ts; a catalogue session, named by its cookie for a read,
// and for a write once the patron door has found the session live and its form's CSRF token
// right), and every write route whose answer is not a refusal, once that answer is ready (after an
// idempotent write's commit), records the client's last write as the primary's WAL position
// (src/db/read-marks.ts). That client's next reads, on any server process, go to a replica only
// once it has replayed that far (src/db/read-routing.ts). Only clients checked so are recorded: a
// flood of writes with made-up cookies writes nothing on the primary.
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ambientScope, setAmbientClient, withAmbientScope } from '../db/ambient.ts';
import type { ReadMarks } from '../db/read-marks.ts';
import { loggable } from '../shared/log.ts';
import { cookie, SESSION_COOKIE } from './cookies.ts';
import { asList, isWriteRoute, WRITES } from './route-hooks.ts';
import type { App } from './types.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A POST that only reads (a JSON query): it records no write for its client. */
    readsOnly?: boolean;
  }
}

/** A catalogue session as a client: a hash, since the session's cookie is its secret and the marks table no place for it. */
export function sessionClient(cookieValue: string): string {
  return `session:${crypto.createHash('sha256').update(cookieValue).digest('base64url')}`;
}

/**
 * Installs the scope on every request and the recording on every write route registered from
 * now on: call before the domains register theirs (and before the idempotency hooks, whose
 * commit must come first: route-level onSend hooks run in the order this leaves them).
 */
export function installReadYourWrites(app: App, marks: ReadMarks): void {
  app.addHook('onRequest', (request, _reply, done) => {
    withAmbientScope(() => {
      const session = WRITES.has(request.method) ? undefined : cookie(request, SESSION_COOKIE);
      if (session) setAmbientClient(sessionClient(session));
      done();
    });
  });
  const record = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const client = reply.statusCode < 400 ? ambientScope()?.client : undefined;
    // The write is done whatever happens here: its answer goes out. Unrecorded, the client's next
    // reads may come from a replica that has not replayed it yet, for up to CARREL_REPLICA_MAX_LAG_MS.
    if (client)
      await marks
        .record(client)
        .catch((error: unknown) => request.log.warn({ err: loggable(error) }, "could not record a client's write for read-your-writes"));
    return payload;
  };
  app.addHook('onRoute', (route) => {
    if (route.config?.readsOnly || !isWriteRoute(route)) return;
    route.onSend = [...asList(route.onSend), record];
  });
}
