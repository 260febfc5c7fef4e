// One kiosk's SIP2 connection: its login (93), then its requests, each answered through the
// services the REST API uses (patrons, holds, circulation, fines). Error detection follows the
// kiosk: a request with AY/AZ gets them back (its sequence number echoed); a bad checksum gets 96;
// 97 gets the last answer again.
import type { Services } from '../domain.ts';
import { standing, type Standing } from '../library/standing.ts';
import { DomainError } from '../shared/errors.ts';
import type { SipAccount } from './accounts.ts';
import { field, fieldsOf, frame, readRequest, sipDate, yn, type Request } from './messages.ts';

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

const INVALID_PATRON_STATUS = 'YYYY          ';

export type SessionServices = Pick<Services, 'patrons' | 'holds' | 'circulation' | 'fines' | 'library' | 'items' | 'bibs' | 'sipAccounts'>;

/** SIP2's circulation status (18) of an item's status: 03 available, 04 charged, 08 on the hold shelf, 10 in transit, 12 lost, 13 missing, 01 other. */
function circulationStatus(status: string, onLoan: boolean): string {
  if (onLoan) return '04';
  return { '-': '03', '!': '08', t: '10', $: '12', m: '13' }[status] ?? '01';
}

interface PatronView {
  id: string;
  name: string;
  standing: Standing;
  status: string;
  checkouts: { barcode: string; overdue: boolean }[];
  holdsReady: string[];
  holdsWaiting: string[];
  fines: { id: string; description: string }[];
  owed: string;
  email?: string;
  phone?: string;
  address?: string;
  homeLibrary?: string;
  birthDate?: string;
  patronType: number;
  pinOk?: boolean;
}

export class SipSession {
  private account: SipAccount | undefined;
  private lastAnswer: string | undefined;

  constructor(
    private readonly services: SessionServices,
    private readonly libraryName: string,
    private readonly log: { info(o: object, m: string): void },
  ) {}

  /** The answer to one message (without its CR), or undefined when none is due. */
  async answer(raw: string): Promise<string | undefined> {
    const request = readRequest(raw);
    if (!request.valid) return this.remember('96AZFEF6\r');
    if (request.code === '97') return this.lastAnswer ?? this.remember('96AZFEF6\r');
    if (request.code === '93') return this.remember(await this.login(request));
    if (request.code === '99') return this.remember(await this.status(request));
    // Nothing else before a login: the kiosk is told to log in again (94, refused).
    if (!this.account) return this.remember(frame('940', request));
    switch (request.code) {
      case '23':
        return this.remember(await this.patronStatus(request));
      case '63':
        return this.remember(await this.patronInformation(request));
      case '35':
        return this.remember(await this.endSession(request));
      case '11':
        return this.remember(await this.checkout(request));
      case '09':
        return this.remember(await this.checkin(request));
      case '17':
        return this.remember(await this.itemInformation(request));
      case '29':
        return this.remember(await this.renew(request));
      case '65':
        return this.remember(await this.renewAll(request));
      case '37':
        return this.remember(await this.feePaid(request));
      case '01':
        return this.remember(await this.blockPatron(request));
      case '15':
        return this.remember(await this.hold(request));
      default:
        return undefined; // a command not answered here is ignored, as the protocol says
    }
  }

  private remember(answer: string): string {
    this.lastAnswer = answer;
    return answer;
  }

  private async now(): Promise<{ date: string; today: string; timeZone: string }> {
    const settings = await this.services.library.now();
    return { date: sipDate(new Date(), settings.timeZone), today: settings.today, timeZone: settings.timeZone };
  }

  private async login(request: Request): Promise<string> {
    const fields = fieldsOf(request.body, 2);
    const name = fields.get('CN')?.[0] ?? '';
    const account = await this.services.sipAccounts.login(name, fields.get('CO')?.[0] ?? '');
    this.log.info({ sipAccount: name, ok: Boolean(account) }, 'SIP2 login');
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
        field('AO', this.account?.institution ?? '') +
        field('AM', this.libraryName) +
        field('BX', supported) +
        (this.account?.location ? field('AN', this.account.location) : ''),
      request,
    );
  }

  /** AO must be the account's institution: a kiosk of another library is answered as if the patron were unknown. */
  private institutionOk(fields: Map<string, string[]>): boolean {
    return (fields.get('AO')?.[0] ?? '') === this.account!.institution;
  }

  private async patronStatus(request: Request): Promise<string> {
    const fields = fieldsOf(request.body, 21);
    const language = request.body.slice(0, 3);
    const barcode = fields.get('AA')?.[0] ?? '';
    const { date } = await this.now();
    const patron = this.institutionOk(fields) ? await this.patron(barcode, fields.get('AD')?.[0]) : undefined;
    return frame(
      `24${patron?.status ?? INVALID_PATRON_STATUS}${language}${date}` +
        field('AO', this.account!.institution) +
        field('AA', barcode) +
        field('AE', patron?.name ?? '') +
        field('BL', yn(patron !== undefined)) +
        (fields.has('AD') ? field('CQ', yn(patron?.pinOk === true)) : '') +
        (patron ? field('BH', 'USD') + field('BV', patron.owed) : '') +
        (patron ? '' : field('AF', 'Unknown patron: check the card')),
      request,
    );
  }

  private async patronInformation(request: Request): Promise<string> {
    const fields = fieldsOf(request.body, 31);
    const language = request.body.slice(0, 3);
    const summary = request.body.slice(21, 31);
    const barcode = fields.get('AA')?.[0] ?? '';
    const { date } = await this.now();
    const patron = this.institutionOk(fields) ? await this.patron(barcode, fields.get('AD')?.[0]) : undefined;
    const count = (n: number | undefined) => String(Math.min(n ?? 0, 9999)).padStart(4, '0');
    if (!patron) {
      return frame(
        `64${INVALID_PATRON_STATUS}${language}${date}${'0000'.repeat(6)}` +
          field('AO', this.account!.institution) +
          field('AA', barcode) +
          field('AE', '') +
          field('BL', 'N') +
          (fields.has('AD') ? field('CQ', 'N') : '') +
          field('AF', 'Unknown patron: check the card'),
        request,
      );
    }
    const overdue = patron.checkouts.filter((c) => c.overdue);
    // The summary asks for one list: the first Y says which (holds, overdue, charged, fines, recalls, unavailable holds).
    const start = Math.max(1, Number(fields.get('BP')?.[0] ?? 1) || 1);
    const end = Math.max(start, Number(fields.get('BQ')?.[0] ?? start + 49) || start + 49);
    const page = (items: string[]) => items.slice(start - 1, end);
    const lists: [string, string[]][] = [
      ['AS', patron.holdsReady],
      ['AT', overdue.map((c) => c.barcode)],
      ['AU', patron.checkouts.map((c) => c.barcode)],
      ['AV', patron.fines.map((f) => `${f.id} ${f.description}`)],
      ['BU', []],
      ['CD', patron.holdsWaiting],
    ];
    const wanted = summary.indexOf('Y');
    const list = wanted >= 0 && wanted < lists.length ? lists[wanted]! : undefined;
    return frame(
      `64${patron.status}${language}${date}` +
        count(patron.holdsReady.length) +
        count(overdue.length) +
        count(patron.checkouts.length) +
        count(patron.fines.length) +
        count(0) +
        count(patron.holdsWaiting.length) +
        field('AO', this.account!.institution) +
        field('AA', barcode) +
        field('AE', patron.name) +
        field('BL', 'Y') +
        (fields.has('AD') ? field('CQ', yn(patron.pinOk === true)) : '') +
        field('BH', 'USD') +
        field('BV', patron.owed) +
        (list
          ? page(list[1])
              .map((item) => field(list[0], item))
              .join('')
          : '') +
        field('BD', patron.address) +
        field('BE', patron.email) +
        field('BF', patron.phone) +
        field('AQ', patron.homeLibrary) +
        field('PB', patron.birthDate) +
        field('PC', patron.patronType) +
        (patron.standing.ok ? '' : field('AF', standingMessage(patron.standing))),
      request,
    );
  }

  private async endSession(request: Request): Promise<string> {
    const fields = fieldsOf(request.body, 18);
    const { date } = await this.now();
    return frame(`36Y${date}` + field('AO', this.account!.institution) + field('AA', fields.get('AA')?.[0] ?? ''), request);
  }

  /** The item's title: its first bib's. */
  private async title(bibIds: readonly string[]): Promise<string> {
    if (!bibIds[0]) return '';
    try {
      return (await this.services.bibs.get(bibIds[0])).title ?? '';
    } catch (error) {
      if (error instanceof DomainError) return '';
      throw error;
    }
  }

  /** 11 → 12: a checkout through Carrel's own rules (holds, blocks, limits); a refusal is ok 0 with its reason in AF. */
  private async checkout(request: Request): Promise<string> {
    const fields = fieldsOf(request.body, 38);
    const patronBarcode = fields.get('AA')?.[0] ?? '';
    const itemBarcode = fields.get('AB')?.[0] ?? '';
    const pin = fields.get('AD')?.[0];
    const { date } = await this.now();
    const item = await this.services.items.byBarcode(itemBarcode);
    const title = item ? await this.title(item.bib_ids) : '';
    let due: string | undefined;
    let refused: string | undefined;
    if (!this.institutionOk(fields)) refused = 'Unknown institution';
    else {
      try {
        const id = await this.services.circulation.checkoutByBarcodes(
          patronBarcode,
          itemBarcode,
          pin === '' ? undefined : pin,
          `sip:${this.account!.name}`,
        );
        due = (await this.services.circulation.loan(id)).due_date;
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        refused = error.detail ?? 'Checkout refused';
      }
    }
    const ok = due !== undefined;
    return frame(
      `12${ok ? '1' : '0'}NU${yn(ok)}${date}` +
        field('AO', this.account!.institution) +
        field('AA', patronBarcode) +
        field('AB', itemBarcode) +
        field('AJ', title) +
        field('AH', due ? `${due.replaceAll('-', '')}    235959` : '') +
        (refused ? field('AF', refused) : ''),
      request,
    );
  }

  /** 09 → 10: a check-in as the REST check-in does it (a waiting hold traps the item: alert, CV 01 here or 02 in transit). */
  private async checkin(request: Request): Promise<string> {
    const fields = fieldsOf(request.body, 37);
    const itemBarcode = fields.get('AB')?.[0] ?? '';
    const { date } = await this.now();
    const item = this.institutionOk(fields) ? await this.services.items.byBarcode(itemBarcode) : undefined;
    if (!item) {
      return frame(
        `100NUY${date}` + field('AO', this.account!.institution) + field('AB', itemBarcode) + field('AQ', '') + field('AF', 'Invalid Item'),
        request,
      );
    }
    const result = await this.services.circulation.checkin(item.id);
    const alert = result.status === '!' ? '01' : result.status === 't' ? '02' : undefined;
    return frame(
      `101${yn(alert === undefined)}U${yn(alert !== undefined)}${date}` +
        field('AO', this.account!.institution) +
        field('AB', itemBarcode) +
        field('AQ', item.location_code ?? '') +
        field('AJ', await this.title(item.bib_ids)) +
        (alert ? field('CV', alert) + field('AF', alert === '01' ? 'Hold: put on the hold shelf' : 'Hold: send in transit') : ''),
      request,
    );
  }

  /** 17 → 18: an item's circulation status, hold queue, due date, title and location. */
  private async itemInformation(request: Request): Promise<string> {
    const fields = fieldsOf(request.body, 18);
    const itemBarcode = fields.get('AB')?.[0] ?? '';
    const { date } = await this.now();
    const item = this.institutionOk(fields) ? await this.services.items.byBarcode(itemBarcode, { circulation: true }) : undefined;
    if (!item) return frame(`18010001${date}` + field('AB', itemBarcode) + field('AJ', '') + field('AF', 'Invalid Item'), request);
    const due = item.due_date ? `${item.due_date.toISOString().slice(0, 10).replaceAll('-', '')}    235959` : undefined;
    return frame(
      `18${circulationStatus(item.status, item.due_date !== null)}0001${date}` +
        field('CF', String(item.hold_count ?? 0).padStart(5, '0')) +
        (due ? field('AH', due) : '') +
        field('AB', itemBarcode) +
        field('AJ', await this.title(item.bib_ids)) +
        field('AQ', item.location_code ?? '') +
        field('AP', item.location_code ?? ''),
      request,
    );
  }

  /** The patron a renewal or payment is for: known, of this institution, and its PIN right when one is given. */
  private async payer(fields: Map<string, string[]>): Promise<{ id: string; barcode: string } | { refused: string }> {
    const barcode = fields.get('AA')?.[0] ?? '';
    if (!this.institutionOk(fields)) return { refused: 'Unknown institution' };
    const pin = fields.get('AD')?.[0];
    try {
      const id = pin
        ? await this.services.patrons.validate(barcode, pin, `sip:${this.account!.name}`)
        : (await this.services.patrons.find({ kind: 'barcode', value: barcode })).id;
      return { id, barcode };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return { refused: error.kind === 'notFound' ? 'Unknown patron' : (error.detail ?? 'Refused') };
    }
  }

  /** Renews the patron's loan of an item; the new due date, or why not. */
  private async renewLoan(
    patronId: string,
    itemBarcode: string,
  ): Promise<{ due: string; title: string } | { refused: string; title: string }> {
    const item = await this.services.items.byBarcode(itemBarcode);
    if (!item) return { refused: 'Invalid Item', title: '' };
    const title = await this.title(item.bib_ids);
    const [loan] = await this.services.circulation.checkoutsOfItem(item.id);
    if (!loan || loan.patron_id !== patronId) return { refused: 'This item is not checked out to this patron', title };
    try {
      return { due: (await this.services.circulation.renew(loan.id)).due_date, title };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return { refused: error.detail ?? 'Renewal refused', title };
    }
  }

  /** 29 → 30: a renewal through Carrel's rules (limits, holds, blocks). */
  private async renew(request: Request): Promise<string> {
    const fields = fieldsOf(request.body, 38);
    const itemBarcode = fields.get('AB')?.[0] ?? '';
    const { date } = await this.now();
    const patron = await this.payer(fields);
    const result = 'refused' in patron ? { refused: patron.refused, title: '' } : await this.renewLoan(patron.id, itemBarcode);
    const ok = 'due' in result;
    return frame(
      `30${ok ? '1' : '0'}${yn(ok)}U${yn(ok)}${date}` +
        field('AO', this.account!.institution) +
        field('AA', fields.get('AA')?.[0] ?? '') +
        field('AB', itemBarcode) +
        field('AJ', result.title) +
        field('AH', ok ? `${result.due.replaceAll('-', '')}    235959` : '') +
        ('refused' in result ? field('AF', result.refused) : ''),
      request,
    );
  }

  /** 65 → 66: every loan of the patron renewed that can be; the others listed with the reason in AF. */
  private async renewAll(request: Request): Promise<string> {
    const fields = fieldsOf(request.body, 18);
    const { date } = await this.now();
    const patron = await this.payer(fields);
    if ('refused' in patron)
      return frame(`660${'0000'}${'0000'}${date}` + field('AO', this.account!.institution) + field('AF', patron.refused), request);
    const loans = await this.services.circulation.checkouts(patron.id, 2000, 0);
    const renewed: string[] = [];
    const unrenewed: string[] = [];
    for (const loan of loans) {
      const barcode = loan.barcode ?? loan.item_id;
      const result = await this.renewLoan(patron.id, barcode);
      ('due' in result ? renewed : unrenewed).push(barcode);
    }
    const count = (n: number) => String(Math.min(n, 9999)).padStart(4, '0');
    return frame(
      `661${count(renewed.length)}${count(unrenewed.length)}${date}` +
        field('AO', this.account!.institution) +
        renewed.map((b) => field('BM', b)).join('') +
        unrenewed.map((b) => field('BN', b)).join(''),
      request,
    );
  }

  /**
   * 37 → 38: a payment of BV (in the currency's units) on one fine (CG, its id) or on the patron's
   * fines oldest first; refused when it is more than they owe. SIP2's cash is Carrel's 1, cards 3.
   */
  private async feePaid(request: Request): Promise<string> {
    const fields = fieldsOf(request.body, 25);
    const paymentType = request.body.slice(20, 22) === '00' ? 1 : 3;
    const { date } = await this.now();
    const patron = await this.payer(fields);
    let refused = 'refused' in patron ? patron.refused : undefined;
    const cents = Math.round(Number(fields.get('BV')?.[0] ?? 'x') * 100);
    if (!refused && !(Number.isFinite(cents) && cents > 0)) refused = 'BV must be an amount above 0';
    if (!refused && 'id' in patron) {
      const owed = await this.services.fines.owed(patron.id, 2000, 0);
      const only = fields.get('CG')?.[0];
      const payments: { amount: number; paymentType: number; invoiceNumber: string }[] = [];
      let left = cents;
      for (const fine of only ? owed.filter((f) => f.id === only) : owed) {
        const due = Math.round(
          (Number(fine.item_charge) + Number(fine.processing_fee) + Number(fine.billing_fee) - Number(fine.paid_amount)) * 100,
        );
        const amount = Math.min(due, left);
        if (amount > 0) payments.push({ amount, paymentType, invoiceNumber: fine.id });
        left -= amount;
      }
      if (left > 0) refused = only ? `Fine ${only} is not owed, or is less than the amount` : 'The amount is more than the patron owes';
      else {
        try {
          await this.services.fines.pay(patron.id, payments);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          refused = error.detail ?? 'Payment refused';
        }
      }
    }
    return frame(
      `38${yn(!refused)}${date}` +
        field('AO', this.account!.institution) +
        field('AA', fields.get('AA')?.[0] ?? '') +
        field('BK', fields.get('BK')?.[0]) +
        (refused ? field('AF', refused) : ''),
      request,
    );
  }

  /**
   * 15 → 16: `+` places a hold on the item's title (BY 3: on the copy itself) for pickup at BS, the
   * kiosk's location or the patron's home library; `-` cancels the patron's hold on it. Through the
   * hold rules REST uses; a refusal is ok 0 with its reason.
   */
  private async hold(request: Request): Promise<string> {
    const fields = fieldsOf(request.body, 19);
    const mode = request.body.slice(0, 1);
    const itemBarcode = fields.get('AB')?.[0] ?? '';
    const { date } = await this.now();
    const patron = await this.payer(fields);
    const item = itemBarcode ? await this.services.items.byBarcode(itemBarcode) : undefined;
    let refused = 'refused' in patron ? patron.refused : !item ? 'Invalid Item' : undefined;
    let queue: number | undefined;
    let pickup = fields.get('BS')?.[0];
    if (!refused && 'id' in patron && item) {
      const specific = fields.get('BY')?.[0] === '3';
      const record = specific ? { recordType: 'i', recordNumber: item.id } : { recordType: 'b', recordNumber: item.bib_ids[0] ?? '' };
      const mine = () => this.services.holds.listOfPatron(patron.id, { inactive: false, limit: 2000, offset: 0 });
      const matches = (h: { record_type: string; item_id: string | null; bib_id: string }) =>
        specific ? h.record_type === 'i' && h.item_id === item.id : h.record_type === 'b' && h.bib_id === record.recordNumber;
      try {
        if (mode === '+') {
          const home = (await this.services.patrons.get(patron.id)).home_library_code;
          pickup = pickup || this.account!.location || home || '';
          await this.services.holds.place(patron.id, { ...record, pickupLocation: pickup });
          queue = (await mine()).find(matches)?.priority ?? undefined;
        } else if (mode === '-') {
          const held = (await mine()).find(matches);
          if (!held) refused = 'This patron has no hold on this item';
          else await this.services.holds.cancel(held.id);
        } else refused = 'Changing a hold is not offered here: cancel it and place another';
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        refused = error.detail ?? 'Hold refused';
      }
    }
    return frame(
      `16${refused ? '0' : '1'}${yn(item?.status === '-' && item.due_date === null)}${date}` +
        (queue !== undefined ? field('BR', queue) : '') +
        (pickup && !refused && mode === '+' ? field('BS', pickup) : '') +
        field('AO', this.account!.institution) +
        field('AA', fields.get('AA')?.[0] ?? '') +
        field('AB', itemBarcode) +
        (item ? field('AJ', await this.title(item.bib_ids)) : '') +
        (refused ? field('AF', refused) : ''),
      request,
    );
  }

  /** 01 → 24: the card is blocked (manual block m), as a kiosk does when it keeps a card; answered with the patron's status. */
  private async blockPatron(request: Request): Promise<string> {
    const fields = fieldsOf(request.body, 19);
    const barcode = fields.get('AA')?.[0] ?? '';
    if (this.institutionOk(fields)) {
      try {
        const { id } = await this.services.patrons.find({ kind: 'barcode', value: barcode });
        await this.services.patrons.update(id, { blockInfo: { code: 'm' } });
        this.log.info({ sipAccount: this.account!.name, patronId: id, message: fields.get('AL')?.[0] }, 'SIP2 block patron');
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
      }
    }
    const { date } = await this.now();
    const patron = this.institutionOk(fields) ? await this.patron(barcode, undefined) : undefined;
    return frame(
      `24${patron?.status ?? INVALID_PATRON_STATUS}000${date}` +
        field('AO', this.account!.institution) +
        field('AA', barcode) +
        field('AE', patron?.name ?? '') +
        field('BL', yn(patron !== undefined)),
      request,
    );
  }

  /** A patron by barcode, with what the patron messages report; the PIN checked (and counted) when given. */
  private async patron(barcode: string, pin: string | undefined): Promise<PatronView | undefined> {
    if (!barcode) return undefined;
    const { patrons, holds, circulation, fines } = this.services;
    let row;
    const { extras, blocks } = await patrons.circulation();
    try {
      row = await patrons.find({ kind: 'barcode', value: barcode }, extras);
    } catch (error) {
      if (error instanceof DomainError && (error.kind === 'notFound' || error.kind === 'multipleRecords')) return undefined;
      throw error;
    }
    let pinOk: boolean | undefined;
    if (pin !== undefined) {
      try {
        pinOk = (await patrons.validate(barcode, pin, `sip:${this.account!.name}`)) === row.id;
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        pinOk = false;
      }
    }
    const { today } = await this.now();
    const [loans, held, owed] = await Promise.all([
      circulation.checkouts(row.id, 2000, 0),
      holds.listOfPatron(row.id, { inactive: false, limit: 2000, offset: 0 }),
      fines.owed(row.id, 2000, 0),
    ]);
    const state = standing({ ...row, overdue: row.overdue ?? 0 }, today, blocks);
    const flag = (on: boolean) => (on ? 'Y' : ' ');
    const denied = !state.ok;
    const status =
      flag(denied) +
      flag(denied) +
      ' ' +
      flag(denied) +
      ' ' +
      ' ' +
      flag(!state.ok && state.reason === 'tooManyOverdue') +
      '   ' +
      flag(!state.ok && state.reason === 'owesTooMuch') +
      '   ';
    const address = row.addresses[0];
    return {
      id: row.id,
      name: row.names[0] ?? '',
      standing: state,
      status,
      checkouts: loans.map((c) => ({ barcode: c.barcode ?? c.item_id, overdue: c.due_date < today })),
      holdsReady: held.filter((h) => h.state === 'r').map((h) => h.trapped_item_id ?? h.item_id ?? h.bib_id),
      holdsWaiting: held.filter((h) => h.state !== 'r').map((h) => h.item_id ?? h.bib_id),
      fines: owed.map((f) => ({ id: f.id, description: f.description ?? f.charge_type })),
      owed: Number(row.money_owed).toFixed(2),
      email: row.emails[0],
      phone: row.phones[0]?.number,
      address: address ? address.lines.join(', ') : undefined,
      homeLibrary: row.home_library_code ?? undefined,
      birthDate: row.birth_date ? row.birth_date.replaceAll('-', '') : undefined,
      patronType: row.patron_type,
      pinOk,
    };
  }
}

function standingMessage(state: Standing): string {
  if (state.ok) return '';
  switch (state.reason) {
    case 'expired':
      return `Card expired on ${state.expirationDate}`;
    case 'blocked':
      return 'Card blocked: please see the staff';
    case 'owesTooMuch':
      return `Fines of ${state.owed} are over the limit of ${state.limit}`;
    case 'tooManyOverdue':
      return `${state.overdue} items are overdue`;
  }
}
