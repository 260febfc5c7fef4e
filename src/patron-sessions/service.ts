// Rules of the public catalogue's sessions: a random id in the patron's cookie, only its hash
// kept; a session ends when idle longer than the idle time-out or older than the absolute one, and
// an ended session is deleted when it is next read (and by the sweep). Its last use is written
// only when the one stored is older than a tenth of the idle time-out (a minute at most:
// touchEverySec), so most page views write nothing (the write and its commit took 0.26 ms, the
// read alone 0.045); the idle time-out counts from the use stored, so a session ends up to that
// much before the full time-out after its last request, never after it. Signing in always makes a
// new session (a new id) and deletes the one before it, so an id a visitor was given (or planted)
// never becomes a signed-in one. Every form of a session carries its CSRF token. A visitor who has
// not signed in has no session: the sign-in form's token is a random cookie the form repeats
// (visitorToken, visitorMatches), so a flood of visitors writes nothing to the database. A new PIN
// ends every session of the patron, whichever door changed it (PatronService calls endAllOf), and so
// does deleting the patron; the session that changed the PIN goes on under a new id, as a sign-in
// would give (changePin).
import crypto from 'node:crypto';
import type { Db, Queryable } from '../db/types.ts';
import type { PatronService } from '../patrons/service.ts';
import * as repo from './repository.ts';

export interface SessionLimits {
  /** A session not used for this long has ended. */
  idleSec: number;
  /** A session ends this long after it began, however busy. */
  absoluteSec: number;
}

export interface Session {
  /** The id the cookie carries: shown only by the call that made the session. */
  id: string;
  patronId: string;
  csrfToken: string;
}

/** How old a session's last-seen time may grow before a use writes it again (see the top). */
export function touchEverySec(limits: SessionLimits): number {
  return Math.min(60, limits.idleSec / 10);
}

/** 32 random bytes as base64url: 43 characters. */
const ID_FORMAT = /^[\w-]{43}$/;
const randomToken = () => crypto.randomBytes(32).toString('base64url');
const hashOf = (id: string) => crypto.createHash('sha256').update(id, 'utf8').digest();

/** Whether a form's token is `expected` (compared in constant time). */
function sameToken(expected: string, token: unknown): boolean {
  if (typeof token !== 'string') return false;
  const given = Buffer.from(token, 'utf8');
  const wanted = Buffer.from(expected, 'utf8');
  return given.length === wanted.length && crypto.timingSafeEqual(given, wanted);
}

export class PatronSessionService {
  constructor(
    private readonly db: Db,
    private readonly limits: SessionLimits,
    private readonly patrons: Pick<PatronService, 'validate' | 'changePin'>,
    /** The clock that decides what has expired (tests age sessions in the table instead). */
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The live session the cookie names, seen now; undefined for none, and an ended one is deleted. */
  async read(id: string | undefined): Promise<Session | undefined> {
    if (id === undefined || !ID_FORMAT.test(id)) return undefined;
    const idHash = hashOf(id);
    const at = this.now();
    const row = await repo.touchLiveSession(this.db, idHash, this.seenAt(at));
    if (!row) {
      await repo.deleteSession(this.db, idHash);
      return undefined;
    }
    return { id, patronId: row.patron_id, csrfToken: row.csrf_token };
  }

  /**
   * read(), and in the same statement (one round trip, for a page read on every visit) the row
   * `page` selects of the session's patron, given the SQL expression of the patron's id; that row
   * undefined when it finds none.
   */
  async readWith<T>(
    id: string | undefined,
    page: (patron: string) => string,
  ): Promise<{ session: Session; row: T | undefined } | undefined> {
    if (id === undefined || !ID_FORMAT.test(id)) return undefined;
    const idHash = hashOf(id);
    const at = this.now();
    const row = await repo.touchLiveSessionWith<T>(this.db, idHash, this.seenAt(at), page('s.patron_id'));
    if (!row) {
      await repo.deleteSession(this.db, idHash);
      return undefined;
    }
    const { patron_id: patronId, csrf_token: csrfToken, page_found: found, ...rest } = row;
    return { session: { id, patronId, csrfToken }, row: found ? (rest as T) : undefined };
  }

  /** Whether a form's token is the session's (compared in constant time). */
  csrfMatches(session: Session | undefined, token: unknown): boolean {
    return !!session && sameToken(session.csrfToken, token);
  }

  /** A new token for a visitor's sign-in form and cookie (nothing is stored). */
  visitorToken(): string {
    return randomToken();
  }

  /**
   * Whether a visitor's sign-in form repeats the token of its cookie. Another site cannot read the
   * cookie (HttpOnly), and a browser sends it only with this site's own requests (SameSite=Strict).
   */
  visitorMatches(cookie: string | undefined, token: unknown): boolean {
    return cookie !== undefined && ID_FORMAT.test(cookie) && sameToken(cookie, token);
  }

  /**
   * Checks the barcode and PIN through the patron service (its attempt limits and lockout, counted
   * per patron and per `client`); on success ends `previous` and answers a new session of the
   * patron. Refusals are the patron service's (invalid barcode or PIN, too many attempts).
   */
  async signIn(previous: Session | undefined, barcode: string, pin: string, client: string): Promise<Session> {
    const patronId = await this.patrons.validate(barcode, pin, client);
    if (previous) await repo.deleteSession(this.db, hashOf(previous.id));
    return this.start(patronId);
  }

  /**
   * Changes the session's patron's PIN through the patron service (the new PIN's rules, the old
   * PIN tested and counted as there): that ends every session of the patron, this one included,
   * and this one goes on as a new session (a new id and CSRF token). Answers the new session, or
   * undefined for a wrong old PIN (nothing changed, the session kept).
   */
  async changePin(session: Session, oldPin: string, newPin: string, client: string): Promise<Session | undefined> {
    if (!(await this.patrons.changePin(session.patronId, oldPin, newPin, client))) return undefined;
    return this.start(session.patronId);
  }

  /** Ends every session of the patron, in the caller's transaction (the patron service's, writing a new PIN or deleting the patron). */
  async endAllOf(tx: Queryable, patronId: string): Promise<void> {
    await repo.deleteSessionsOfPatron(tx, patronId);
  }

  async signOut(session: Session): Promise<void> {
    await repo.deleteSession(this.db, hashOf(session.id));
  }

  /** Deletes every ended session; answers how many. */
  async sweep(): Promise<number> {
    const at = this.now();
    return repo.deleteExpired(this.db, this.idleSince(at), this.begunSince(at));
  }

  /** A new session of the patron, who has just proved the PIN. */
  private async start(patronId: string): Promise<Session> {
    const session = { id: randomToken(), patronId, csrfToken: randomToken() };
    await repo.insertSession(this.db, { idHash: hashOf(session.id), patronId, csrfToken: session.csrfToken, at: this.now() });
    return session;
  }

  private seenAt(at: Date): repo.SeenAt {
    const touchBefore = new Date(at.getTime() - touchEverySec(this.limits) * 1000);
    return { at, idleSince: this.idleSince(at), begunSince: this.begunSince(at), touchBefore };
  }
  private idleSince(at: Date): Date {
    return new Date(at.getTime() - this.limits.idleSec * 1000);
  }

  private begunSince(at: Date): Date {
    return new Date(at.getTime() - this.limits.absoluteSec * 1000);
  }
}
