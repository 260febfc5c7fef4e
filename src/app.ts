// Builds the HTTP application (no listen): used by the server process, the tests and the benchmarks.
import crypto from 'node:crypto';
import type { DestinationStream } from 'pino';
import Fastify, { LogController, type FastifySchema, type HTTPMethods } from 'fastify';
import formbody from '@fastify/formbody';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { auth } from './auth/index.ts';
import { bibs } from './bibs/index.ts';
import { branches } from './branches/index.ts';
import { catalog } from './catalog/index.ts';
import { fines } from './fines/index.ts';
import { query } from './query/index.ts';
import { sql } from './sql/index.ts';
import { savedQueries } from './saved-queries/index.ts';
import { patronApi } from './patron-api/index.ts';
import { sip2 } from './sip2/index.ts';
import { soap } from './soap/index.ts';
import { SOAP_SERVICES } from './soap/services.ts';
import { circulation } from './circulation/index.ts';
import { files } from './files/index.ts';
import { ediIn } from './acquisitions/edi-in/index.ts';
import { ediTransport } from './acquisitions/edi-transport/index.ts';
import { funds } from './acquisitions/funds/index.ts';
import { generate } from './generate/index.ts';
import { health } from './health/index.ts';
import { circLog } from './circ-log/index.ts';
import { holds } from './holds/index.ts';
import { idempotency } from './idempotency/index.ts';
import { invoices } from './acquisitions/invoices/index.ts';
import { orders } from './acquisitions/orders/index.ts';
import { holdings } from './holdings/index.ts';
import { items } from './items/index.ts';
import { library } from './library/index.ts';
import { operations } from './operations/index.ts';
import { patrons } from './patrons/index.ts';
import { patronSessions } from './patron-sessions/index.ts';
import { search } from './search/index.ts';
import { sftp } from './sftp/index.ts';
import { useTax } from './acquisitions/use-tax/index.ts';
import { vendors } from './acquisitions/vendors/index.ts';
import { systemClock, type Clock } from './shared/calendar.ts';
import { buildDeps, type Deps, type Domain } from './domain.ts';
import type { Config } from './config.ts';
import { ambientDb } from './db/ambient.ts';
import { ReadMarks } from './db/read-marks.ts';
import { replicaReads } from './db/read-routing.ts';
import type { ReplicaSet } from './db/replicas.ts';
import type { Db } from './db/types.ts';
import { access, installAccessControl } from './http/access.ts';
import { BeforeRouteAnswers, installErrorHandling } from './http/error-handler.ts';
import { collapseSlashes, installTolerance } from './http/tolerance.ts';
import { installInputGuard } from './http/input-guard.ts';
import { loggedPath } from './http/logged-path.ts';
import { installReadYourWrites } from './http/read-your-writes.ts';
import { accessLogWriter, lazyChildLogger } from './http/request-log.ts';
import { batchedLog } from './http/log-stream.ts';
import { installCommonAnswers } from './http/common-answers.ts';
import { QuickAnswers } from './http/quick-answers.ts';
import { installXmlAnswers, XML_SCHEMA_PATH } from './http/xml-answers.ts';
import { clientErrorHandler, connectionLimits, createHttpServer } from './http/connection.ts';
import { ErrorBodySchema } from './http/schemas.ts';
import type { App } from './http/types.ts';
import { ServiceState } from './operations/state.ts';
import { LogSampler } from './shared/log-sample.ts';
import { VERSION_STRING } from './version.ts';

/**
 * Every domain, one line each, in the order their services are built (a domain may use the services
 * of those above it) and their routes registered. The CLI adds their commands from the same list.
 */
export const DOMAINS: readonly Domain[] = [
  health,
  operations,
  // Before every domain with routes that take a token or write: the rate-limit check and the
  // Idempotency-Key handling attach themselves to the routes registered after them.
  auth,
  idempotency,
  library,
  items,
  holdings,
  bibs,
  search,
  branches,
  useTax,
  funds,
  vendors,
  // Orders before invoices: paying an invoice line releases its order's encumbrance.
  orders,
  invoices,
  circLog,
  // Patrons before holds: holds lock patrons through PatronService; deleting a patron cancels
  // their holds through HoldService, asked for only when a patron is deleted.
  patrons,
  // The public catalogue's sign-in validates PINs through PatronService; a new PIN ends the
  // patron's sessions through a hook PatronService calls (asked for only when a PIN is written),
  // and so does deleting the patron.
  patronSessions,
  holds,
  fines,
  circulation,
  query,
  sql,
  savedQueries,
  patronApi,
  sip2,
  // The SFTP door's accounts before files: a file loads with its account's settings.
  sftp,
  files,
  // After files: registers the processors of vendors' INVOIC and ORDRSP files.
  ediIn,
  // After files and orders: fetched files are kept as files received, sent orders are orders.
  ediTransport,
  catalog,
  generate,
  // Last: its operations call the services of the domains above.
  soap,
];

/**
 * Every REST path is served under /v6, /v5, /iii/sierra-api/v6 and /iii/sierra-api/v5, and the
 * token endpoint also at /token and /iii/sierra-api/token. One set of routes under /v6 serves them
 * all: the other prefixes are rewritten before routing, so each route's validators and
 * serializers are compiled once rather than four times (a third of the server's memory).
 * Handlers that echo the prefix (record links) read request.originalUrl.
 */
export function canonicalUrl(raw: string): string {
  const url = collapseSlashes(raw);
  const api = /^(?:\/iii\/sierra-api)?\/v[56](?=[/?]|$)/.exec(url);
  if (api) return `/v6${url.slice(api[0].length)}`;
  if (/^\/iii\/sierra-api\/token(?=[/?]|$)/.test(url)) return url.slice('/iii/sierra-api'.length);
  return url;
}
const DOCS_PREFIX = '/docs';

/** Answers that refuse a request, and how many of them a client address gets a log line for each minute. */
const REFUSED = new Set([401, 403, 429]);
const REFUSALS_LOGGED_PER_MINUTE = 20;

const IDEMPOTENCY_KEY = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  description: 'Makes the write safe to send again: README, "Idempotent writes".',
};

/** A route as the OpenAPI document shows it: only /v6 (and GET /api); writes with their Idempotency-Key. */
function documented(schema: FastifySchema, url: string, method: HTTPMethods | HTTPMethods[]): FastifySchema {
  const hide = schema?.hide === true || !(url === '/api' || url.startsWith('/v6/'));
  const write = [method].flat().some((m) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(m)) && url !== '/v6/token';
  if (hide || !write) return { ...schema, hide };
  const headers = (schema.headers ?? { type: 'object', properties: {} }) as { properties?: Record<string, unknown> };
  return { ...schema, headers: { ...headers, properties: { ...headers.properties, 'idempotency-key': IDEMPOTENCY_KEY } } };
}

export interface AppOptions {
  config: Config;
  db: Db;
  state?: ServiceState;
  /** Where log lines go (tests capture them). false: no logging. Default: standard output, written
   *  asynchronously so a busy server does not wait on its log; call flushLogs() before exiting. */
  logStream?: DestinationStream | false;
  /** The circulation clock ("today"); tests move it. Default: the system clock (UTC). */
  clock?: Clock;
  /** PostgreSQL read replicas (DATABASE_READ_URLS): reads that tolerate a little lag go to them. */
  replicas?: ReplicaSet;
}

export interface BuiltApp {
  app: App;
  /** Writes out log lines still buffered: call before the process exits. */
  flushLogs: () => void;
  state: ServiceState;
  /** Every domain's services (the server's background jobs and the tests use them). */
  services: Deps['services'];
}

// Never log credentials: the Authorization header carries key secrets and tokens; bodies may carry PINs.
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.pin',
  '*.oldPin',
  '*.newPin',
  '*.newPinAgain',
  '*.secret',
  '*.password',
  '*.access_token',
  'err.params',
  'err.parameters',
  'err.query',
];

function requestId(raw: unknown): string {
  // Honour a caller's X-Request-Id when it is a plain token, so logs can be joined across systems.
  return typeof raw === 'string' && /^[\w.:-]{1,128}$/.test(raw) ? raw : crypto.randomUUID();
}

export async function buildApp(options: AppOptions): Promise<BuiltApp> {
  const { config, db } = options;
  const state = options.state ?? new ServiceState();
  const logStream = options.logStream === false ? undefined : (options.logStream ?? batchedLog());
  const limits = connectionLimits(config);
  const beforeRoute = new BeforeRouteAnswers();
  const quick = new QuickAnswers();
  const app: App = Fastify({
    // The logger exists once Fastify() has returned: refusals, which come later, are logged there.
    serverFactory: (handler) =>
      createHttpServer(limits, quick.listener(handler), { warn: (fields, message) => app.log.warn(fields, message) }),
    clientErrorHandler: clientErrorHandler(limits),
    frameworkErrors: beforeRoute.handler,
    logger: !logStream ? false : { level: config.logLevel, redact: { paths: REDACT, censor: '[redacted]' }, stream: logStream },
    genReqId: (req) => requestId(req.headers['x-request-id']),
    childLoggerFactory: lazyChildLogger,
    rewriteUrl: (req) => canonicalUrl(req.url ?? '/'),
    // One line per request, written when it completes (see the onResponse hook), not two.
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    return503OnClosing: false, // shutdown is answered by the access hook, in the contract's shape
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('beforeRoute', beforeRoute);
  app.decorate('quickAnswers', quick);

  // A write sent with an Idempotency-Key runs in one transaction: its services' statements go into it.
  const primary = ambientDb(db);
  const marks = options.replicas && new ReadMarks(db);
  const reads = options.replicas && marks ? replicaReads(primary, options.replicas, marks) : primary;
  const deps = buildDeps({ config, db: primary, reads, clock: options.clock ?? systemClock }, DOMAINS);
  // Before any route is registered: the domains' write routes get its hook.
  if (marks) installReadYourWrites(app, marks);
  const { services } = deps;

  // Callback hooks, not async ones: every request runs them, and a promise each is not free.
  // The request id is set on the answer as the request arrives (a refusal or a failure keeps it),
  // not as it is sent: an onSend hook for every route would put every answer through a stage that
  // only writes need (src/http/route-hooks.ts).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // Refusals (401, 403, 429) are logged per client address up to a number a minute, then counted:
  // a flood of refused requests must not write a line each.
  const refusals = new LogSampler(REFUSALS_LOGGED_PER_MINUTE);
  const accessLine: ReturnType<typeof accessLogWriter> = logStream ? accessLogWriter(app.log, logStream) : () => {};
  app.addHook('onResponse', (request, reply, done) => {
    let heldBack = 0;
    if (REFUSED.has(reply.statusCode)) {
      const sampled = refusals.take(request.ip);
      for (const summary of sampled.summaries)
        request.log.info({ remote: summary.key, heldBack: summary.heldBack }, 'refused requests not logged in the last minute');
      if (!sampled.write) return done();
      heldBack = sampled.heldBack;
    }
    accessLine(
      {
        requestId: request.id,
        method: request.method,
        url: loggedPath(request.originalUrl),
        statusCode: reply.statusCode,
        responseTimeMs: Math.round(reply.elapsedTime * 10) / 10,
        heldBack,
      },
      request.log.level,
    );
    done();
  });
  quick.start({
    running: () => state.notRunningReason() === undefined,
    requestId,
    accessLine: (line) => accessLine(line, app.log.level),
  });
  // A client that hangs up before its answer gets none, and no onResponse line: this one says so.
  app.addHook('onRequestAbort', async (request) => {
    request.log.info({ method: request.method, url: loggedPath(request.originalUrl) }, 'request aborted by the client');
  });
  installErrorHandling(app);
  installInputGuard(app);
  installTolerance(app);
  installAccessControl(app, { auth: services.auth, state, openPrefixes: [DOCS_PREFIX] });
  installCommonAnswers(app); // after access control, whose hook completes each route's access
  installXmlAnswers(app);
  app.addSchema(ErrorBodySchema);
  await app.register(formbody);
  // MARC in request bodies (POST/PUT /bibs): MARC-in-JSON is JSON; MARCXML arrives as text and
  // ISO 2709 as bytes, for the bib service to read.
  app.addContentTypeParser('application/marc-in-json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  app.addContentTypeParser(['application/marc-xml', 'application/xml', 'text/xml'], { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );
  app.addContentTypeParser('application/marc', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Carrel API',
        version: VERSION_STRING,
        description:
          'Library services platform REST API, compatible with the Sierra REST API (v5 and v6). Every path is also served under /v5 and under the /iii/sierra-api prefix. ' +
          `The record resources also answer XML (Accept: application/xml); its XML Schema is at ${XML_SCHEMA_PATH}.\n\n` +
          `SOAP web services (README, "SOAP web services"): ${SOAP_SERVICES.map((s) => `[/soap/${s.name}?wsdl](/soap/${s.name}?wsdl)`).join(', ')}.`,
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, basic: { type: 'http', scheme: 'basic' } } },
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    // One copy of each route in the document: the /v6 one (plus GET /api), unless the route hides itself (the document's own route).
    transform: ({ schema, url, route }) => ({ schema: documented(schema, url, route.method), url }),
  });

  for (const domain of DOMAINS) await domain.register?.(app, deps);
  app.get('/v6/openapi.json', { config: { access: access.docs }, schema: { hide: true } }, async () => app.swagger());
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX });

  const flushLogs = () => {
    (logStream as { flushSync?: () => void } | undefined)?.flushSync?.();
  };
  return { app, state, services, flushLogs };
}
