// The public catalogue (docs/api-contract.md, "Search and the public catalogue"): server-rendered pages at /catalog, open to
// everyone, outside the API and its OpenAPI document. Everything a reader can do is a link or a
// form, so the pages work without script. Failures are pages in the catalogue's own look, never
// the API's JSON errors: a reader who mistypes an address should still see somewhere to go.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { access } from '../http/access.ts';
import { cookie, SESSION_COOKIE } from '../http/cookies.ts';
import { toApiError } from '../http/error-handler.ts';
import { loggable } from '../shared/log.ts';
import type { App } from '../http/types.ts';
import { html, type Html } from './html.ts';
import { frame } from './layout.ts';
import { BadQuery, parseCatalogQuery, type CatalogQuery } from './query.ts';
import { noticeMain, recordMain } from './record-page.ts';
import { resultsMain, startMain } from './results-page.ts';
import type { CatalogService } from './service.ts';
import { CSS, CSS_PATH } from './style.ts';
import { patronDoor, SIGNIN, type PatronDoorDeps } from './patron/routes.ts';

type Query = Record<string, string | string[] | undefined>;

// No script runs on these pages and nothing is framed; forms only ever submit back here.
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

const route = { config: { access: access.open }, schema: { hide: true } } as const;

/**
 * A page for a browser with a catalogue session, or the sign-in form with its token, is not kept
 * by the browser at all: on a shared computer, Back after signing out must not show the patron's
 * page from the cache (no-cache lets a browser keep it, only not use it unasked). Other pages are
 * kept and checked again before use.
 */
const cacheControl = (request: FastifyRequest) =>
  cookie(request, SESSION_COOKIE) !== undefined || request.url.startsWith(SIGNIN) ? 'private, no-store' : 'no-cache';

export function catalogRoutes(app: App, catalog: CatalogService, libraryName: string, patronDeps: Omit<PatronDoorDeps, 'send'>): void {
  const send = (reply: FastifyReply, status: number, title: string, main: Html, query?: CatalogQuery, hero = false) =>
    reply
      .code(status)
      .headers(SECURITY_HEADERS)
      .header('cache-control', cacheControl(reply.request))
      .type('text/html; charset=utf-8')
      .send(frame({ libraryName, title, main, query, hero }).text);
  const notice = (reply: FastifyReply, status: number, title: string, message: string | Html) =>
    send(reply, status, title, noticeMain(title, message));
  const unreadable = (reply: FastifyReply, status: number) =>
    notice(reply, status, 'That page could not be shown', 'The catalogue could not read that address or form.');
  // An address Fastify cannot read (a bad percent-encoding, a part too long) is a page here too.
  app.beforeRoute.claim('/catalog', (status, reply) => unreadable(reply, status));

  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof BadQuery) return notice(reply, 400, 'That search could not be read', error.message);
    const known = toApiError(error);
    if (known && known.httpStatus === 503) {
      return notice(reply, 503, 'The catalogue is resting', 'The catalogue is not available just now. Please try again in a few minutes.');
    }
    if (known && known.httpStatus < 500) return unreadable(reply, known.httpStatus);
    request.log.error({ err: loggable(error) }, 'unexpected error');
    return notice(
      reply,
      500,
      'Something went wrong',
      html`The catalogue could not show this page. Please try again; if it keeps happening, tell the library this reference: ${request.id}.`,
    );
  });
  app.setNotFoundHandler((_request, reply) =>
    notice(
      reply,
      404,
      'Page not found',
      html`There is no catalogue page at this address. You can <a href="/catalog">search the catalogue</a> instead.`,
    ),
  );

  app.get('/', route, async (request, reply) => {
    const q = parseCatalogQuery(request.query as Query);
    if (!q.text) return send(reply, 200, 'Library catalogue', startMain(), undefined, true);
    const results = await catalog.results(q);
    return send(reply, 200, `${q.text} – search results${q.page > 1 ? `, page ${q.page}` : ''}`, resultsMain(q, results), q);
  });

  const patron = patronDoor({ ...patronDeps, send: (reply, status, title, main) => send(reply, status, title, main) });
  patron.register(app);

  const showRecord = async (request: FastifyRequest, reply: FastifyReply, refusal?: string) => {
    const { id } = request.params as { id: string };
    const record = /^[1-9]\d{0,17}$/.test(id) ? await catalog.record(id) : undefined;
    if (!record) {
      return notice(
        reply,
        404,
        'Record not found',
        html`The catalogue has no record ${id}. It may have been withdrawn. <a href="/catalog">Search the catalogue</a> for something like it.`,
      );
    }
    let back: CatalogQuery | undefined;
    try {
      back = parseCatalogQuery(request.query as Query);
    } catch {
      back = undefined; // a mangled "back to results" address only loses the way back
    }
    const panel = await patron.holdPanel(request, id, refusal);
    return send(reply, refusal ? 409 : 200, record.description.title, recordMain(record, back, panel), back?.text ? back : undefined);
  };
  app.get('/record/:id', route, (request, reply) => showRecord(request, reply));
  app.post('/record/:id/hold', route, async (request, reply) => {
    const { id } = request.params as { id: string };
    if (!/^[1-9]\d{0,17}$/.test(id)) return showRecord(request, reply);
    const refusal = await patron.placeHold(request, reply, id);
    return refusal === undefined ? reply : showRecord(request, reply, refusal);
  });

  // The stylesheet's address carries its hash: it can be kept for a year.
  app.get(CSS_PATH.slice('/catalog'.length), { ...route, config: { access: access.docs } }, async (_request, reply) =>
    reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .type('text/css; charset=utf-8')
      .send(CSS),
  );
}
