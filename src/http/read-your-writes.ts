// With read replicas: each request runs in a scope naming its client (a catalogue session here; an
// API key once access control has checked it, src/http/access.ts), and every write route, once its
// answer is ready (after an idempotent write's commit), records the client's last write as the
// primary's WAL position (src/db/read-marks.ts). That client's next reads, on any server
// process, go to a replica only once it has replayed that far (src/db/read-routing.ts).
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ambientScope, setAmbientClient, withAmbientScope } from '../db/ambient.ts';
import type { ReadMarks } from '../db/read-marks.ts';
import { loggable } from '../shared/log.ts';
import { cookie, SESSION_COOKIE } from './cookies.ts';
import type { App } from './types.ts';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A POST that only reads (a JSON query): it records no write for its client. */
    readsOnly?: boolean;
  }
}

const asList = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : ([] as T[]).concat(hooks));

/**
 * Installs the scope on every request and the recording on every write route registered from
 * now on: call before the domains register theirs (and before the idempotency hooks, whose
 * commit must come first: route-level onSend hooks run in the order this leaves them).
 */
export function installReadYourWrites(app: App, marks: ReadMarks): void {
  app.addHook('onRequest', (request, _reply, done) => {
    withAmbientScope(() => {
      const session = cookie(request, SESSION_COOKIE);
      // A hash: the session's cookie is its secret, and the marks table is no place for it.
      if (session) setAmbientClient(`session:${crypto.createHash('sha256').update(session).digest('base64url')}`);
      done();
    });
  });
  const record = async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
    const client = ambientScope()?.client;
    // The write is done whatever happens here: its answer goes out. Unrecorded, the client's next
    // reads may come from a replica that has not replayed it yet, for up to CARREL_REPLICA_MAX_LAG_MS.
    if (client)
      await marks
        .record(client)
        .catch((error: unknown) => request.log.warn({ err: loggable(error) }, "could not record a client's write for read-your-writes"));
    return payload;
  };
  app.addHook('onRoute', (route) => {
    if (route.config?.readsOnly || ![route.method].flat().some((method) => WRITES.has(method))) return;
    route.onSend = [...asList(route.onSend), record];
  });
}
