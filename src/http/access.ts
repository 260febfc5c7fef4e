// Who may call a route. Every route declares its access in config.access; one hook enforces it,
// together with the operator's switch and shutdown. A route that declares nothing is refused at
// start-up, so a forgotten declaration can never leave an endpoint open.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setAmbientClient } from '../db/ambient.ts';
import type { Permission } from '../auth/roles.ts';
import type { AuthService, Principal } from '../auth/service.ts';
import type { ServiceState } from '../operations/state.ts';
import { parseBearer } from './authorization.ts';
import { errors } from './errors.ts';

export type Access =
  | { kind: 'status' } // GET /api: answers even while the database is down
  | { kind: 'open'; database: boolean } // no token: docs, the public catalogue, the token endpoint
  | { kind: 'token' } // any valid bearer token
  | { kind: 'optionalToken' } // a token if one is given (checked, then request.principal); the handler decides
  | { kind: 'permission'; permission: Permission };

export const access = {
  status: { kind: 'status' } as Access,
  docs: { kind: 'open', database: false } as Access,
  open: { kind: 'open', database: true } as Access,
  anyToken: { kind: 'token' } as Access,
  /** For what some callers may do without a token (a public saved query's results). */
  optionalToken: { kind: 'optionalToken' } as Access,
  need: (permission: Permission): Access => ({ kind: 'permission', permission }),
};

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}

export interface AccessOptions {
  auth: AuthService;
  state: ServiceState;
  /** Route prefixes whose routes come from third-party plugins that are documentation (open). */
  openPrefixes: string[];
}

export function installAccessControl(app: FastifyInstance, { auth, state, openPrefixes }: AccessOptions): void {
  app.addHook('onRoute', (route) => {
    if (route.config?.access) return;
    if (openPrefixes.some((prefix) => route.url.startsWith(prefix))) {
      route.config = { ...route.config, access: access.docs };
      return;
    }
    throw new Error(`route ${String(route.method)} ${route.url} declares no access`);
  });

  // A callback hook, not an async one: most requests are decided without waiting (a route that
  // needs no token, a token in the cache), and those pay no promise.
  app.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    const declared = request.routeOptions.config.access;
    const notRunning = state.notRunningReason();
    if (notRunning) return done(declared?.kind === 'status' ? errors.notRunning(notRunning) : errors.apiDisabled(notRunning));
    if (!declared || declared.kind === 'status') return done(); // unknown routes fall through to the 404 handler
    if (declared.kind === 'open' && !declared.database) return done();
    if (!state.schemaReady) return done(errors.databaseUnavailable('the database cannot be reached yet; try again shortly'));
    if (declared.kind === 'open') return done();
    if (declared.kind === 'optionalToken' && request.headers.authorization === undefined) return done();
    let token: string;
    try {
      token = parseBearer(request.headers.authorization);
    } catch (error) {
      return done(error as Error);
    }
    const cached = auth.cached(token);
    if (cached) return done(admit(request, declared, cached));
    auth.authenticate(token).then(
      (principal) => done(admit(request, declared, principal)),
      (error: unknown) => done(error as Error),
    );
  });
}

/** Sets the request's principal when its key may call the route; else the refusal. */
function admit(request: FastifyRequest, declared: Access, principal: Principal): Error | undefined {
  if (declared.kind === 'permission' && !principal.permissions.has(declared.permission)) {
    return errors.forbidden(`this API key does not have the ${declared.permission} permission`);
  }
  request.principal = principal;
  setAmbientClient(`key:${principal.keyId}`);
  return undefined;
}
