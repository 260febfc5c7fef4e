// One kiosk's SIP2 connection: its login (93), then its requests, each answered through the
// services the REST API uses (patrons, holds, circulation, fines). Error detection follows the
// kiosk: a request with AY/AZ gets them back (its sequence number echoed); a bad checksum gets 96;
// 97 gets the last answer again.
import type { LoginReport } from '../auth/logins.ts';
import { addressKey } from '../shared/client-address.ts';
import { DomainError } from '../shared/errors.ts';
import { LogSampler } from '../shared/log-sample.ts';
import { patronInstitution, type SipAccount } from './accounts.ts';
import { checkin, checkout, hold, itemInformation, renew, renewAll } from './circulation-messages.ts';
import type { SessionServices, SipContext, SipLog } from './context.ts';
import { FIELD } from './fields.ts';
import { field, fieldsOf, frame, readRequest, sipDate, yn, type Request } from './messages.ts';
import { blockPatron, feePaid, patronInformation, patronStatus } from './patron-messages.ts';

/** The messages answered, in the order of SC Status's BX field (Y: supported). */
const SUPPORTED = {
  patronStatus: true,
  checkout: true,
  checkin: true,
  blockPatron: true,
  status: true,
  resend: true,
  login: true,
  patronInformation: true,
  endPatronSession: true,
  feePaid: true,
  itemInformation: true,
  itemStatusUpdate: false,
  patronEnable: false,
  hold: true,
  renew: true,
  renewAll: true,
};

/** 96, "please resend", with its checksum: the answer to a message whose checksum is wrong (or to a 97 with no last answer). */
const RESEND = frame('96', { checked: true });

/** Failed logins' log lines, shared by every connection: the first ten per address each minute, then a count. */
const failedLogins = new LogSampler(10);

export class SipSession {
  private account: SipAccount | undefined;
  private lastAnswer: string | undefined;

  constructor(
    private readonly services: SessionServices,
    private readonly libraryName: string,
  ) {}

  /** The answer to one message (without its CR), or undefined when none is due; `log` carries the message's request id. */
  async answer(raw: string, log: SipLog): Promise<string | undefined> {
    const request = readRequest(raw);
    if (!request.valid) return this.remember(RESEND);
    if (request.code === '97') return this.lastAnswer ?? this.remember(RESEND);
    if (request.code === '93') return this.remember(await this.login(request, log));
    if (request.code === '99') return this.remember(await this.status(request));
    // Nothing else before a login: the kiosk is told to log in again (94, refused).
    if (!this.account) return this.remember(frame('940', request));
    switch (request.code) {
      case '23':
        return this.remember(await patronStatus(this.context(log), request));
      case '63':
        return this.remember(await patronInformation(this.context(log), request));
      case '35':
        return this.remember(await this.endSession(request));
      case '11':
        return this.remember(await checkout(this.context(log), request));
      case '09':
        return this.remember(await checkin(this.context(log), request));
      case '17':
        return this.remember(await itemInformation(this.context(log), request));
      case '29':
        return this.remember(await renew(this.context(log), request));
      case '65':
        return this.remember(await renewAll(this.context(log), request));
      case '37':
        return this.remember(await feePaid(this.context(log), request));
      case '01':
        return this.remember(await blockPatron(this.context(log), request));
      case '15':
        return this.remember(await hold(this.context(log), request));
      default:
        return undefined; // a command not answered here is ignored, as the protocol says
    }
  }

  /** What the message handlers see: the services, this kiosk's account, and shared lookups. */
  private context(log: SipLog): SipContext {
    return {
      services: this.services,
      account: this.account!,
      log,
      now: () => this.now(),
      institutionOk: (fields) => this.institutionOk(fields),
      title: (bibIds) => this.title(bibIds),
      payer: (fields) => this.payer(fields),
    };
  }

  private remember(answer: string): string {
    this.lastAnswer = answer;
    return answer;
  }

  private async now(): Promise<{ date: string; today: string; timeZone: string }> {
    const settings = await this.services.library.now();
    return { date: sipDate(new Date(), settings.timeZone), today: settings.today, timeZone: settings.timeZone };
  }

  /**
   * 93: a kiosk's account and password. Refused (94 not ok) when wrong, and without checking them
   * when its address or account is over its limit of failures or too many are being checked at
   * once (src/auth/logins.ts). Failures are logged sampled per address (failedLogins).
   */
  private async login(request: Request, log: SipLog): Promise<string> {
    const fields = fieldsOf(request.body, 2);
    const name = fields.get(FIELD.loginUserId)?.[0] ?? '';
    // The door binds each connection's logger to the kiosk's address (`remote`).
    const bound = log as SipLog & { bindings?: () => Record<string, unknown> };
    const remote = typeof bound.bindings === 'function' ? bound.bindings().remote : undefined;
    const address = typeof remote === 'string' ? remote : undefined;
    let report: LoginReport | undefined;
    let account: SipAccount | undefined;
    try {
      account = await this.services.sipAccounts.login(name, fields.get(FIELD.loginPassword)?.[0] ?? '', address, (r) => (report = r));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error; // over a limit: refused
    }
    if (account) log.info({ sipAccount: name, ok: true }, 'SIP2 login');
    else {
      const sampled = failedLogins.take(addressKey(address));
      for (const { key, heldBack } of sampled.summaries)
        log.info({ remote: key, heldBack }, 'failed SIP2 logins not logged in the last minute');
      if (sampled.write)
        log.info(
          {
            sipAccount: name,
            ok: false,
            ...report,
            ...(sampled.heldBack ? { heldBack: sampled.heldBack } : {}),
            ...(sampled.lastThisMinute ? { nextLogged: 'the next minute' } : {}),
          },
          'SIP2 login',
        );
    }
    this.account = account;
    return frame(`94${account ? '1' : '0'}`, request);
  }

  private async status(request: Request): Promise<string> {
    const { date } = await this.now();
    const supported = Object.values(SUPPORTED).map(yn).join('');
    const ready = this.account !== undefined;
    return frame(
      `98${yn(ready)}${yn(SUPPORTED.checkin)}${yn(SUPPORTED.checkout)}${yn(SUPPORTED.renew)}NN` +
        `100003${date}2.00` +
        field(FIELD.institutionId, this.account?.institution ?? '') +
        field(FIELD.libraryName, this.libraryName) +
        field(FIELD.supportedMessages, supported) +
        (this.account?.location ? field(FIELD.terminalLocation, this.account.location) : ''),
      request,
    );
  }

  /** AO must be the account's institution: a kiosk of another library is answered as if the patron were unknown. */
  private institutionOk(fields: Map<string, string[]>): boolean {
    return (fields.get(FIELD.institutionId)?.[0] ?? '') === this.account!.institution;
  }

  private async endSession(request: Request): Promise<string> {
    const fields = fieldsOf(request.body, 18);
    const { date } = await this.now();
    return frame(
      `36Y${date}` +
        field(FIELD.institutionId, this.account!.institution) +
        field(FIELD.patronIdentifier, fields.get(FIELD.patronIdentifier)?.[0] ?? ''),
      request,
    );
  }

  /** The item's title: its first bib's (read without its MARC). */
  private async title(bibIds: readonly string[]): Promise<string> {
    if (!bibIds[0]) return '';
    return (await this.services.bibs.byIds([bibIds[0]], {})).get(bibIds[0])?.title ?? '';
  }

  /**
   * The patron a checkout, renewal, payment or hold is for: known, of this institution (AO, and the
   * patron's home library when the account acts on its own institution's patrons), and its PIN
   * right when one is given. Refused: why, and whether the card is known all the same (only a PIN
   * refused asks again: an unknown card and another institution's are not known).
   */
  private async payer(fields: Map<string, string[]>): Promise<{ id: string; barcode: string } | { refused: string; known: boolean }> {
    const barcode = fields.get(FIELD.patronIdentifier)?.[0] ?? '';
    if (!this.institutionOk(fields)) return { refused: 'Unknown institution', known: false };
    const pin = fields.get(FIELD.patronPassword)?.[0];
    const institution = patronInstitution(this.account!);
    const idOf = () => this.services.patrons.idOf({ kind: 'barcode', value: barcode }, institution);
    try {
      const id = pin ? await this.services.patrons.validate(barcode, pin, `sip:${this.account!.name}`, true, institution) : await idOf();
      return { id, barcode };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const known = pin
        ? await idOf().then(
            () => true,
            (notKnown: unknown) => {
              if (!(notKnown instanceof DomainError)) throw notKnown;
              return false;
            },
          )
        : false;
      return { refused: error.kind === 'notFound' ? 'Unknown patron' : (error.detail ?? 'Refused'), known };
    }
  }
}
