// The patron's door in the public catalogue: sign-in and sign-out, the account page, cancelling,
// freezing and moving a hold (the move from the hold's own small page), renewing loans, changing
// email, phone and PIN, switching the reading history, and placing a hold from a record's page.
// Forms and redirects only (303 after every successful POST), so it all works without script. Every action is on the session's own patron:
// no form names a patron. Each POST is refused (403) unless it carries the session's
// CSRF token; the session lives in the patron-sessions service, the cookie only names it. Before
// signing in there is no session: the sign-in form repeats a token its own cookie carries.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { access } from '../../http/access.ts';
import { setRetryAfter } from '../../http/error-handler.ts';
import { cookie, SESSION_COOKIE } from '../../http/cookies.ts';
import { sessionClient } from '../../http/read-your-writes.ts';
import { setAmbientClient } from '../../db/ambient.ts';
import type { App } from '../../http/types.ts';
import type { PatronSessionService, Session } from '../../patron-sessions/index.ts';
import { STANDING_CODES } from '../../holds/refusals.ts';
import { addressKey } from '../../shared/client-address.ts';
import { DomainError } from '../../shared/errors.ts';
import type { Html } from '../html.ts';
import type { Account, PatronAccount } from './account.ts';
import {
  accountMain,
  CSRF_FIELD,
  forbiddenMain,
  HOLD_BUTTONS,
  holdPanel,
  HOLDS_FORM,
  LOANS_FORM,
  pickupMain,
  RENEW_ALL,
  RENEW_BUTTON,
  signInMain,
  type HoldButton,
  type Message,
  type RefusedForm,
} from './pages.ts';
import { PIN_LENGTH } from '../../patrons/input.ts';
import { holdChangeRefusal, holdRefusal, renewalRefusal, TEXT } from './texts.ts';

/** The sign-in form's token before there is a session (PatronSessionService.visitorMatches). */
export const SIGNIN_COOKIE = 'carrel_signin';
const COOKIE_PATH = '/catalog';
/** The sign-in form's address. */
export const SIGNIN = '/catalog/signin';
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

/** A hold's or a loan's id as a form or a redirect names it. */
const ID = /^\d{1,18}$/;
const CODE = /^\d{1,4}$/;

/**
 * The button of the holds' form that was pressed, and the hold it names (its value). A browser
 * sends only the pressed one; a form naming none, or more than one, names no hold ('').
 */
export function pressedHoldButton(form: Form | undefined): { button: HoldButton; id: string } {
  const pressed = HOLD_BUTTONS.filter((name) => form?.[name] !== undefined);
  const [button = 'cancel'] = pressed;
  return { button, id: pressed.length === 1 ? field(form, button) : '' };
}

/**
 * What the account page says after a form of it: the redirect's query names what was done (and the
 * hold or loan), or the rules' specific code refusing it. Only the patron's own holds and loans are
 * looked up, so a made-up address shows nothing of anyone else's.
 */
export function accountMessage(query: Form | undefined, mine: Account): Message | undefined {
  const loan = (id: string) => mine.loans.find((l) => l.id === id);
  const titleOf = (l: { title: string }) => l.title || TEXT.untitled;
  const refused = field(query, 'refused');
  if (CODE.test(refused)) {
    const code = Number(refused);
    if (ID.test(field(query, 'hold'))) return { kind: 'alert', text: holdChangeRefusal(code) };
    const l = loan(field(query, 'loan'));
    if (l) return { kind: 'alert', text: TEXT.notRenewed(titleOf(l), renewalRefusal(code)) };
    return undefined;
  }
  switch (field(query, 'done')) {
    case 'placed':
      return { kind: 'status', text: TEXT.holdPlaced };
    case 'details':
      return { kind: 'status', text: TEXT.detailsSaved };
    case 'pin':
      return { kind: 'status', text: TEXT.pinChanged };
    case 'historyon':
      return { kind: 'status', text: TEXT.historyOnDone };
    case 'historyoff':
      return { kind: 'status', text: TEXT.historyOffDone };
    case 'cancelled':
      return { kind: 'status', text: TEXT.holdCancelled };
    case 'frozen':
      return { kind: 'status', text: TEXT.holdFrozenDone };
    case 'unfrozen':
      return { kind: 'status', text: TEXT.holdUnfrozenDone };
    case 'moved': {
      const h = mine.holds.find((x) => x.id === field(query, 'hold'));
      return h ? { kind: 'status', text: TEXT.pickupChanged(h.pickupName) } : undefined;
    }
    case 'renewed': {
      const l = loan(field(query, 'loan'));
      return l ? { kind: 'status', text: TEXT.renewed(titleOf(l), l.due) } : undefined;
    }
    case 'renewedall': {
      const renewed = field(query, 'renewed')
        .split(',')
        .filter((id) => loan(id));
      const refused = field(query, 'notrenewed')
        .split(',')
        .flatMap((pair) => {
          const [id = '', code = ''] = pair.split('.');
          const l = loan(id);
          return l && CODE.test(code) ? [{ title: titleOf(l), code: Number(code) }] : [];
        });
      // A refusal for the patron's standing refuses every loan alike: said once, not once a loan.
      const standing = new Set(refused.flatMap((r) => (STANDING_CODES.has(r.code) ? [renewalRefusal(r.code)] : [])));
      const ofLoans = refused.flatMap((r) => (STANDING_CODES.has(r.code) ? [] : [TEXT.notRenewed(r.title, renewalRefusal(r.code))]));
      return {
        kind: 'status',
        text: [TEXT.renewedAll(renewed.length, renewed.length + refused.length), ...standing, ...ofLoans].join(' '),
      };
    }
    default:
      return undefined;
  }
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
   * Failed PINs count per client address (and as an API key counts its own); an IPv6 client by its
   * /64 network, as the other doors count them, since one host usually holds a whole /64.
   */
  const client = (request: FastifyRequest) => `catalog:${addressKey(request.ip)}`;

  /** Minutes until a paused card may try a PIN again, as the refusals say it (at least one). */
  const pausedMinutes = (error: DomainError) => Math.max(1, Math.ceil((error.retryAfterSec ?? 60) / 60));

  /** The account page answered at once (not redirected to): after a refusal, with what was refused. */
  async function showAccount(reply: FastifyReply, status: number, session: Session, message: Message, refused?: RefusedForm) {
    const mine = await account.account(session.patronId);
    return send(reply, status, TEXT.accountTitle, accountMain(mine, session.csrfToken, message, refused));
  }

  /**
   * The session of a POST whose form carries its CSRF token; undefined once answered: a 403 for
   * a wrong token, or to sign in again (then back to `back`) when there is no live session.
   */
  async function postedSession(request: FastifyRequest, reply: FastifyReply, back: string): Promise<Session | undefined> {
    const session = await readSession(request);
    if (!session) await toSignIn(reply, back);
    else if (sessions.csrfMatches(session, field(request.body as Form, CSRF_FIELD))) {
      // A live session's write: its reads from now on see it (read replicas).
      setAmbientClient(sessionClient(cookie(request, SESSION_COOKIE)!));
      return session;
    } else await forbidden(reply);
    return undefined;
  }

  /**
   * A POST of the account page acting on one of the patron's own holds or loans (`id`, as the form
   * named it): 303 back to the account page with what `act` says was done, or with the rules'
   * refusal; an id that is not one of the patron's is answered as no such hold or loan.
   */
  async function onOwn(
    request: FastifyRequest,
    reply: FastifyReply,
    kind: 'hold' | 'loan',
    id: string,
    act: (patronId: string, id: string) => Promise<string>,
  ): Promise<FastifyReply> {
    const session = await postedSession(request, reply, ACCOUNT);
    if (!session) return reply;
    let done: string;
    try {
      if (!ID.test(id)) throw new DomainError('notFound');
      done = await act(session.patronId, id);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.kind === 'refused' || error.kind === 'conflict')
        return see(reply, `${ACCOUNT}?refused=${error.specificCode}&${kind}=${id}`);
      if (error.kind !== 'notFound') throw error;
      return showAccount(reply, 404, session, { kind: 'alert', text: kind === 'hold' ? TEXT.holdNotFound : TEXT.loanNotFound });
    }
    return see(reply, `${ACCOUNT}?${done}`);
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
          const session = await sessions.signIn(previous, barcode, field(form, 'pin'), client(request));
          setCookie(request, reply, session.id);
          return see(reply, next);
        } catch (error) {
          if (!(error instanceof DomainError) || (error.kind !== 'invalidParameter' && error.kind !== 'tooManyAttempts')) throw error;
          setRetryAfter(reply, error);
          const locked = error.kind === 'tooManyAttempts';
          const text = locked ? TEXT.tooManyAttempts(pausedMinutes(error)) : TEXT.wrongBarcodeOrPin;
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
        // The session and the page in one round trip: the page every signed-in visit comes back to.
        const found = await account.accountOfSession(cookie(request, SESSION_COOKIE));
        if (!found) return toSignIn(reply, ACCOUNT);
        const { session, account: mine } = found;
        return send(reply, 200, TEXT.accountTitle, accountMain(mine, session.csrfToken, accountMessage(request.query as Form, mine)));
      });

      // The holds' form: cancel, freeze or unfreeze, by the button pressed.
      app.post(HOLDS_FORM.slice(COOKIE_PATH.length), route, (request, reply) => {
        const { button, id } = pressedHoldButton(request.body as Form);
        return onOwn(request, reply, 'hold', id, async (patronId, id) => {
          if (button === 'cancel') {
            await account.cancelHold(patronId, id);
            return 'done=cancelled';
          }
          const freeze = button === 'freeze';
          await account.freezeHold(patronId, id, freeze);
          return `done=${freeze ? 'frozen' : 'unfrozen'}`;
        });
      });

      // The hold's own page to move it: its id in the address is checked against the session's
      // patron as the forms' ids are, so another patron's hold is not found.
      app.get('/account/holds/:id/pickup', route, async (request, reply) => {
        const { id } = request.params as { id: string };
        const session = await readSession(request);
        if (!session) return toSignIn(reply, ID.test(id) ? `${ACCOUNT}/holds/${id}/pickup` : ACCOUNT);
        try {
          if (!ID.test(id)) throw new DomainError('notFound');
          const { hold, pickupLocations } = await account.holdToMove(session.patronId, id);
          return send(reply, 200, TEXT.changePickupTitle, pickupMain(hold, pickupLocations, session.csrfToken));
        } catch (error) {
          if (!(error instanceof DomainError) || error.kind !== 'notFound') throw error;
          return showAccount(reply, 404, session, { kind: 'alert', text: TEXT.holdNotFound });
        }
      });

      app.post('/account/holds/pickup', route, (request, reply) =>
        onOwn(request, reply, 'hold', field(request.body as Form, 'hold'), async (patronId, id) => {
          await account.movePickup(patronId, id, field(request.body as Form, 'pickup').slice(0, 64));
          return `done=moved&hold=${id}`;
        }),
      );

      // The loans' form: renew the loan its button names, or all of them.
      app.post(LOANS_FORM.slice(COOKIE_PATH.length), route, async (request, reply) => {
        const renew = field(request.body as Form, RENEW_BUTTON);
        if (renew !== RENEW_ALL)
          return onOwn(request, reply, 'loan', renew, async (patronId, id) => {
            await account.renew(patronId, id);
            return `done=renewed&loan=${id}`;
          });
        const session = await postedSession(request, reply, ACCOUNT);
        if (!session) return reply;
        const renewals = await account.renewAll(session.patronId);
        const renewed = renewals.flatMap((r) => ('due' in r ? [r.loanId] : []));
        const refused = renewals.flatMap((r) => ('refused' in r ? [`${r.loanId}.${r.refused}`] : []));
        return see(reply, `${ACCOUNT}?done=renewedall&renewed=${renewed.join(',')}&notrenewed=${refused.join(',')}`);
      });

      // A refusal answers the page at once (400), the typed details kept in the form.
      app.post('/account/details', route, async (request, reply) => {
        const session = await postedSession(request, reply, ACCOUNT);
        if (!session) return reply;
        const form = request.body as Form;
        // A blank field removes that detail; a field missing (a form not sent whole, or not this
        // form) must not: it is refused, nothing changed.
        if (typeof form?.email !== 'string' || typeof form.phone !== 'string')
          return showAccount(reply, 400, session, { kind: 'alert', text: TEXT.detailsIncomplete });
        const details = { email: form.email, phone: form.phone };
        const refused = await account.changeDetails(session.patronId, details);
        if (!refused) return see(reply, `${ACCOUNT}?done=details`);
        return showAccount(
          reply,
          400,
          session,
          { kind: 'alert', text: refused === 'email' ? TEXT.badEmail : TEXT.badPhone },
          { details, invalid: refused },
        );
      });

      // No PIN is ever sent back, put in an address or logged: a refusal is the page, its PIN fields empty.
      app.post('/account/pin', route, async (request, reply) => {
        const session = await postedSession(request, reply, ACCOUNT);
        if (!session) return reply;
        const form = request.body as Form;
        const newPin = field(form, 'newPin');
        const refuse = (status: number, text: string, invalid: RefusedForm['invalid']) =>
          showAccount(reply, status, session, { kind: 'alert', text }, { invalid });
        if (newPin !== field(form, 'newPinAgain')) return refuse(400, TEXT.pinMismatch, 'newPin');
        let rotated: Session | undefined;
        try {
          // The new PIN ends every session of the patron; this one goes on under a new id.
          rotated = await sessions.changePin(session, field(form, 'oldPin'), newPin, client(request));
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          if (error.kind === 'invalidInput') return refuse(400, TEXT.pinRules(PIN_LENGTH.min, PIN_LENGTH.max), 'newPin');
          setRetryAfter(reply, error);
          if (error.kind === 'tooManyAttempts') return refuse(429, TEXT.pinPaused(pausedMinutes(error)), 'oldPin');
          throw error;
        }
        if (!rotated) return refuse(400, TEXT.wrongOldPin, 'oldPin');
        setCookie(request, reply, rotated.id);
        return see(reply, `${ACCOUNT}?done=pin`);
      });

      app.post('/account/history', route, async (request, reply) => {
        const session = await postedSession(request, reply, ACCOUNT);
        if (!session) return reply;
        const wanted = field(request.body as Form, 'history');
        // Off deletes the list: only a form that says so turns it off.
        if (wanted !== 'on' && wanted !== 'off') return see(reply, ACCOUNT);
        const on = wanted === 'on';
        await account.setHistory(session.patronId, on);
        return see(reply, `${ACCOUNT}?done=history${on ? 'on' : 'off'}`);
      });
    },
  };
}

export type PatronDoor = ReturnType<typeof patronDoor>;
