// POST …/token (OAuth 2 client credentials) and GET …/info/token.
import { parseBasic } from '../http/authorization.ts';
import { Type } from 'typebox';
import { access } from '../http/access.ts';
import { fail } from '../shared/errors.ts';
import { errorRef } from '../http/schemas.ts';
import { acceptMultipartForms } from '../http/multipart-form.ts';
import type { App } from '../http/types.ts';
import type { LogSampler } from '../shared/log-sample.ts';
import { addressKey } from '../shared/client-address.ts';
import type { LoginReport } from './logins.ts';
import { permissionsOf, ROLES } from './roles.ts';
import type { AuthService } from './service.ts';

const TokenSchema = Type.Object(
  { access_token: Type.String(), token_type: Type.Literal('bearer'), expires_in: Type.Integer() },
  { additionalProperties: false },
);

const TokenInfoSchema = Type.Object(
  {
    keyId: Type.String(),
    grantType: Type.String(),
    authorizationScheme: Type.String(),
    expiresIn: Type.Integer({ description: 'Seconds until this token expires.' }),
    roles: Type.Array(
      Type.Object(
        { name: Type.String(), tokenLifetime: Type.Integer(), permissions: Type.Array(Type.String()) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/**
 * POST /token: registered at the unversioned root as well as under /v5 and /v6. Failed requests
 * are logged through `sampler`, per client address: past its lines for the minute, a failure
 * writes no line at all (its request line included), and the count held back is told later.
 */
/** Each role's permissions, listed once: GET /info/token lists them on every call. */
const ROLE_PERMISSIONS = new Map(Object.keys(ROLES).map((role) => [role, [...permissionsOf([role])]]));

export function tokenRoute(app: App, auth: AuthService, sampler: LogSampler): void {
  acceptMultipartForms(app);
  app.post(
    '/token',
    {
      config: { access: access.open },
      schema: {
        summary: 'Get an access token',
        description:
          'OAuth 2 client credentials: `Authorization: Basic base64(key:secret)`; the body may be `grant_type=client_credentials` (urlencoded or multipart/form-data), `{"grant_type": "client_credentials"}`, `{}` or empty.',
        tags: ['authorization'],
        response: { 200: TokenSchema, 400: errorRef, 401: errorRef, 429: errorRef, 503: errorRef },
      },
    },
    async (request, reply) => {
      // A form sent as text/plain is read as the form it is.
      const raw = request.body;
      const body = (typeof raw === 'string' ? Object.fromEntries(new URLSearchParams(raw)) : raw) as
        Record<string, unknown> | undefined | null;
      if (body !== undefined && body !== null && typeof body !== 'object')
        throw fail.invalidInput('the body must be a form or a JSON object');
      const grant = body?.grant_type;
      if (grant !== undefined && grant !== 'client_credentials') {
        throw fail.invalidParameter('grant_type must be client_credentials');
      }
      let report: LoginReport | undefined;
      try {
        const token = await auth.issueToken(parseBasic(request.headers.authorization), request.ip, (r) => (report = r));
        reply.header('cache-control', 'no-store');
        return token;
      } catch (error) {
        const sampled = sampler.take(addressKey(request.ip));
        for (const { key, heldBack } of sampled.summaries)
          request.log.info({ remote: key, heldBack }, 'failed token requests not logged in the last minute');
        if (!sampled.write) {
          // Not even the request's own line: warnings and errors still are.
          request.log.level = 'warn';
        } else {
          request.log.info(
            {
              remote: request.ip,
              ...report,
              ...(sampled.heldBack ? { heldBack: sampled.heldBack } : {}),
              ...(sampled.lastThisMinute ? { nextLogged: 'the next minute' } : {}),
            },
            'token request failed',
          );
        }
        throw error;
      }
    },
  );
}

export function tokenInfoRoute(app: App, tokenLifetimeSec: number): void {
  app.get(
    '/info/token',
    {
      config: { access: access.anyToken },
      schema: {
        summary: 'Describe the current access token',
        tags: ['authorization'],
        response: { 200: TokenInfoSchema },
      },
    },
    async (request) => {
      const principal = request.principal!;
      return {
        keyId: principal.keyId,
        grantType: 'client_credentials',
        authorizationScheme: 'Bearer',
        expiresIn: Math.max(0, Math.floor((principal.expiresDate.getTime() - Date.now()) / 1000)),
        roles: principal.roles
          .filter((role) => Object.hasOwn(ROLES, role))
          .map((role) => ({ name: role, tokenLifetime: tokenLifetimeSec, permissions: ROLE_PERMISSIONS.get(role)! })),
      };
    },
  );
}
