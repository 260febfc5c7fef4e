// GET routes answered before Fastify's request pipeline: the status report (GET /api), which load
// balancers and monitors poll many times a second from every app server.
//
// Fastify's pipeline (routing, the hooks every request runs, the reply's serializer, the request's
// logger) costs more than the report itself: `npm run bench:overhead` measured GET /api at 0.066
// ms of CPU a request against 0.026 for a bare route answering the same body. A quick answer does
// what that pipeline would do for this one request shape, and nothing else: the request id header,
// the route's headers, the body, the access line. Anything else (another method, a query string,
// a body, the service not running, a route with no answer at hand) goes on to Fastify untouched,
// so every refusal keeps its one form. The route is also registered with Fastify as usual: it is
// documented there and answers every request the quick path passes on.
import type http from 'node:http';
import type { AccessLine } from './request-log.ts';

export interface QuickRoute {
  /** The answer's headers besides Content-Type and Content-Length, as name, value, name, value…. */
  headers: readonly string[];
  /**
   * The body as JSON text, or undefined to pass the request on to Fastify. Synchronous: the quick
   * path is for answers already at hand; one that has to wait (a database check) is the route's.
   */
  body: () => string | undefined;
}

export interface QuickAnswersOptions {
  /** Whether the service answers requests at all (else Fastify answers in the contract's form). */
  running: () => boolean;
  /** The request id, from the client's X-Request-Id header when it is a plain token. */
  requestId: (header: unknown) => string;
  accessLine: (line: AccessLine) => void;
}

export class QuickAnswers {
  private readonly routes = new Map<string, QuickRoute>();
  private options: QuickAnswersOptions | undefined;

  /** Called once the app's state and log exist; until then every request goes to Fastify. */
  start(options: QuickAnswersOptions): void {
    this.options = options;
  }

  /** path: exactly as requests spell it; other spellings (a trailing slash, escapes) reach the Fastify route. */
  add(path: string, route: QuickRoute): void {
    this.routes.set(path, route);
  }

  /** The server's request listener: quick answers first, everything else to next. */
  listener(next: http.RequestListener): http.RequestListener {
    return (request, response) => {
      const url = request.url ?? '';
      const route = request.method === 'GET' ? this.routes.get(url) : undefined;
      const options = this.options;
      if (!route || !options || !options.running() || hasBody(request)) return next(request, response);
      const started = performance.now();
      const body = route.body();
      if (body === undefined) return next(request, response);
      const requestId = options.requestId(request.headers['x-request-id']);
      // A flat list of headers, not an object: one built with spread and new keys each time cost
      // a tenth of the answer in V8's property stores.
      response.writeHead(200, [
        'x-request-id',
        requestId,
        ...route.headers,
        'content-type',
        'application/json; charset=utf-8',
        'content-length',
        String(Buffer.byteLength(body)),
      ]);
      response.end(body);
      const responseTimeMs = Math.round((performance.now() - started) * 10) / 10;
      options.accessLine({ requestId, method: 'GET', url, statusCode: 200, responseTimeMs });
    };
  }
}

function hasBody(request: http.IncomingMessage): boolean {
  return request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined;
}
