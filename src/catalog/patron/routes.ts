// The patron's door in the public catalogue: sign-in and sign-out, the account page, cancelling a
// hold and placing one from a record's page. Forms and redirects only (303 after every successful
// POST), so it all works without script. Each POST is refused (403) unless it carries the session's
// CSRF token; the session lives in the patron-sessions service, the cookie only names it. Before
// signing in there is no session: the sign-in form repeats a token its own cookie carries.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { access } from '../../http/access.ts';
import type { App } from '../../http/types.ts';
import type { PatronSessionService, Session } from '../../patron-sessions/index.ts';
import { DomainError } from '../../shared/errors.ts';
import type { Html } from '../html.ts';
import type { PatronAccount } from './account.ts';
import { accountMain, CSRF_FIELD, forbiddenMain, holdPanel, signInMain, type Message } from './pages.ts';
import { holdRefusal, TEXT } from './texts.ts';

export const SESSION_COOKIE = 'carrel_session';
/** The sign-in form's token before there is a session (PatronSessionService.visitorMatches). */
export const SIGNIN_COOKIE = 'carrel_signin';
const COOKIE_PATH = '/catalog';
const SIGNIN = '/catalog/signin';
const ACCOUNT = '/catalog/account';

export type Send = (reply: FastifyReply, status: number, title: string, main: Html) => FastifyReply;

export interface PatronDoorDeps {
  sessions: PatronSessionService;
  account: PatronAccount;
  send: Send;
  /** The catalogue is served over HTTPS (CARREL_PUBLIC_URL says so): cookies are Secure even when a proxy speaks plain HTTP to Carrel. */
  httpsBase: boolean;
}

type Form = Record<string, string | string[] | undefined>;

const route = { config: { access: access.open }, schema: { hide: true } } as const;

/** A form field as one string (a repeated field is not one the form sends: ''). */
const field = (form: Form | undefined, name: string) => {
  const v = form?.[name];
  return typeof v === 'string' ? v : '';
};

/** The value of the request's cookie of this name, if any. */
function cookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Where to go after signing in: a catalogue page of this site only (an absolute path under
 * /catalog/, no scheme, no host, no "//" or backslash a browser could read as another host), else
 * the account page.
 */
export function safeNext(next: string): string {
  const safe = /^\/catalog\/[\w\-./]{0,200}$/.test(next) && !next.includes('//') && !next.includes('..');
  // Back to the sign-in page would only loop.
  return safe && !/^\/catalog\/sign(?:in|out)\b/.test(next) ? next : ACCOUNT;
}

export function patronDoor(deps: PatronDoorDeps) {
  const { sessions, account, send } = deps;

  const setCookie = (request: FastifyRequest, reply: FastifyReply, value: string, clear = false) => {
    const secure = deps.httpsBase || request.protocol === 'https';
    reply.header(
      'set-cookie',
      `${SESSION_COOKIE}=${value}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}${clear ? '; Max-Age=0' : ''}`,
    );
  };
  /** The visitor's sign-in token: its cookie's, or a new one set in a cookie sent back with this site's requests only. */
  const visitorToken = (request: FastifyRequest, reply: FastifyReply): string => {
    const given = cookie(request, SIGNIN_COOKIE);
    if (given !== undefined && sessions.visitorMatches(given, given)) return given;
    const token = sessions.visitorToken();
    const secure = deps.httpsBase || request.protocol === 'https';
    reply.header('set-cookie', `${SIGNIN_COOKIE}=${token}; Path=${SIGNIN}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`);
    return token;
  };
  const readSession = (request: FastifyRequest) => sessions.read(cookie(request, SESSION_COOKIE));
  const see = (reply: FastifyReply, location: string) => reply.code(303).header('location', location).send();
  const forbidden = (reply: FastifyReply) => send(reply, 403, TEXT.forbiddenTitle, forbiddenMain());
  const toSignIn = (reply: FastifyReply, next: string) => see(reply, `${SIGNIN}?next=${encodeURIComponent(next)}`);

  /**
   * The session of a POST whose form carries its CSRF token; undefined once answered: a 403 for
   * a wrong token, or to sign in again (then back to `back`) when there is no live session.
   */
  async function postedSession(request: FastifyRequest, reply: FastifyReply, back: string): Promise<Session | undefined> {
    const session = await readSession(request);
    if (!session) await toSignIn(reply, back);
    else if (sessions.csrfMatches(session, field(request.body as Form, CSRF_FIELD))) return session;
    else await forbidden(reply);
    return undefined;
  }

  return {
    /** The hold form a record's page shows (or the way to sign in), with a refusal when one was just given. */
    async holdPanel(request: FastifyRequest, bibId: string, refusal?: string): Promise<Html> {
      const session = await readSession(request);
      if (!session) return holdPanel(bibId, undefined);
      return holdPanel(bibId, { csrf: session.csrfToken, locations: await account.pickupLocations(session.patronId) }, refusal);
    },

    /** POST /catalog/record/{id}/hold: undefined once answered (a redirect or a 403), else the refusal to show on the record's page. */
    async placeHold(request: FastifyRequest, reply: FastifyReply, bibId: string): Promise<string | undefined> {
      const session = await postedSession(request, reply, `/catalog/record/${bibId}`);
      if (!session) return undefined;
      try {
        await account.placeHold(session.patronId, bibId, field(request.body as Form, 'pickup'));
      } catch (error) {
        if (error instanceof DomainError && (error.kind === 'refused' || error.kind === 'conflict')) return holdRefusal(error.specificCode);
        throw error;
      }
      await see(reply, `${ACCOUNT}?done=placed`);
      return undefined;
    },

    register(app: App): void {
      app.get('/signin', route, async (request, reply) => {
        const next = safeNext(field(request.query as Form, 'next'));
        if (await readSession(request)) return see(reply, next);
        const csrf = visitorToken(request, reply);
        const message: Message | undefined =
          field(request.query as Form, 'done') === 'signedout' ? { kind: 'status', text: TEXT.signedOut } : undefined;
        return send(reply, 200, TEXT.signInTitle, signInMain({ csrf, barcode: '', next: next === ACCOUNT ? undefined : next, message }));
      });

      app.post('/signin', route, async (request, reply) => {
        const form = request.body as Form;
        const token = field(form, CSRF_FIELD);
        // Signed in already (signing in as someone else), the session's token; else the visitor's.
        const previous = await readSession(request);
        const csrf = previous ? previous.csrfToken : token;
        if (previous ? !sessions.csrfMatches(previous, token) : !sessions.visitorMatches(cookie(request, SIGNIN_COOKIE), token)) {
          return forbidden(reply);
        }
        const barcode = field(form, 'barcode').slice(0, 64);
        const next = safeNext(field(form, 'next'));
        try {
          const session = await sessions.signIn(previous, barcode, field(form, 'pin'), `catalog:${request.ip}`);
          setCookie(request, reply, session.id);
          return see(reply, next);
        } catch (error) {
          if (!(error instanceof DomainError) || (error.kind !== 'invalidParameter' && error.kind !== 'tooManyAttempts')) throw error;
          const locked = error.kind === 'tooManyAttempts';
          const text = locked ? TEXT.tooManyAttempts(Math.max(1, Math.ceil((error.retryAfterSec ?? 60) / 60))) : TEXT.wrongBarcodeOrPin;
          const main = signInMain({
            csrf,
            barcode,
            next: next === ACCOUNT ? undefined : next,
            message: { kind: 'alert', text },
          });
          return send(reply, locked ? 429 : 400, TEXT.signInTitle, main);
        }
      });

      app.post('/signout', route, async (request, reply) => {
        const session = await postedSession(request, reply, ACCOUNT);
        if (!session) return reply;
        await sessions.signOut(session);
        setCookie(request, reply, '', true);
        return see(reply, `${SIGNIN}?done=signedout`);
      });

      app.get('/account', route, async (request, reply) => {
        const session = await readSession(request);
        if (!session) return toSignIn(reply, ACCOUNT);
        const done = field(request.query as Form, 'done');
        const message: Message | undefined =
          done === 'placed'
            ? { kind: 'status', text: TEXT.holdPlaced }
            : done === 'cancelled'
              ? { kind: 'status', text: TEXT.holdCancelled }
              : undefined;
        return send(reply, 200, TEXT.accountTitle, accountMain(await account.account(session.patronId), session.csrfToken, message));
      });

      app.post('/account/holds/cancel', route, async (request, reply) => {
        const session = await postedSession(request, reply, ACCOUNT);
        if (!session) return reply;
        const holdId = field(request.body as Form, 'hold');
        try {
          if (!/^\d{1,18}$/.test(holdId)) throw new DomainError('notFound');
          await account.cancelHold(session.patronId, holdId);
        } catch (error) {
          if (!(error instanceof DomainError) || error.kind !== 'notFound') throw error;
          const main = accountMain(await account.account(session.patronId), session.csrfToken, { kind: 'alert', text: TEXT.holdNotFound });
          return send(reply, 404, TEXT.accountTitle, main);
        }
        return see(reply, `${ACCOUNT}?done=cancelled`);
      });
    },
  };
}

export type PatronDoor = ReturnType<typeof patronDoor>;
