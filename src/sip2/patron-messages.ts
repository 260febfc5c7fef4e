// SIP2's patron messages: Patron Status (23/24), Patron Information (63/64), Fee Paid (37/38),
// Block Patron (01 → 24), answered from the patron, circulation, hold and fine services.
import { HOLD_STATE } from '../holds/states.ts';
import { standing, type Standing } from '../library/standing.ts';
import { DomainError } from '../shared/errors.ts';
import { patronInstitution } from './accounts.ts';
import type { SipContext } from './context.ts';
import { FIELD, type FieldId } from './fields.ts';
import { field, fieldsOf, frame, sipDate, yn, type Request } from './messages.ts';

/** An unknown card's 14 status flags: no privileges. */
const INVALID_PATRON_STATUS = 'YYYY          ';

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

export async function patronStatus(ctx: SipContext, request: Request): Promise<string> {
  const fields = fieldsOf(request.body, 21);
  const language = request.body.slice(0, 3);
  const barcode = fields.get(FIELD.patronIdentifier)?.[0] ?? '';
  const { now, patron } = await settingsAndPatron(ctx, fields, barcode, fields.get(FIELD.patronPassword)?.[0], false);
  return frame(
    `24${patron?.status ?? INVALID_PATRON_STATUS}${language}${now.date}` +
      field(FIELD.institutionId, ctx.account.institution) +
      field(FIELD.patronIdentifier, barcode) +
      field(FIELD.personalName, patron?.name ?? '') +
      field(FIELD.validPatron, yn(patron !== undefined)) +
      (fields.has(FIELD.patronPassword) ? field(FIELD.validPatronPassword, yn(patron?.pinOk === true)) : '') +
      (patron ? field(FIELD.currencyType, 'USD') + field(FIELD.feeAmount, patron.owed) : '') +
      (patron ? '' : field(FIELD.screenMessage, 'Unknown patron: check the card')),
    request,
  );
}

export async function patronInformation(ctx: SipContext, request: Request): Promise<string> {
  const fields = fieldsOf(request.body, 31);
  const language = request.body.slice(0, 3);
  const summary = request.body.slice(21, 31);
  const barcode = fields.get(FIELD.patronIdentifier)?.[0] ?? '';
  const {
    now: { date, blocks },
    patron,
  } = await settingsAndPatron(ctx, fields, barcode, fields.get(FIELD.patronPassword)?.[0], true);
  const count = (n: number | undefined) => String(Math.min(n ?? 0, 9999)).padStart(4, '0');
  if (!patron) {
    return frame(
      `64${INVALID_PATRON_STATUS}${language}${date}${'0000'.repeat(6)}` +
        field(FIELD.institutionId, ctx.account.institution) +
        field(FIELD.patronIdentifier, barcode) +
        field(FIELD.personalName, '') +
        field(FIELD.validPatron, 'N') +
        (fields.has(FIELD.patronPassword) ? field(FIELD.validPatronPassword, 'N') : '') +
        field(FIELD.screenMessage, 'Unknown patron: check the card'),
      request,
    );
  }
  const overdue = patron.checkouts.filter((c) => c.overdue);
  // The summary asks for one list: the first Y says which (holds, overdue, charged, fines, recalls, unavailable holds).
  const start = Math.max(1, Number(fields.get(FIELD.startItem)?.[0] ?? 1) || 1);
  const end = Math.max(start, Number(fields.get(FIELD.endItem)?.[0] ?? start + 49) || start + 49);
  const page = (items: string[]) => items.slice(start - 1, end);
  const lists: [FieldId, string[]][] = [
    [FIELD.holdItems, patron.holdsReady],
    [FIELD.overdueItems, overdue.map((c) => c.barcode)],
    [FIELD.chargedItems, patron.checkouts.map((c) => c.barcode)],
    [FIELD.fineItems, patron.fines.map((f) => `${f.id} ${f.description}`)],
    [FIELD.recallItems, []],
    [FIELD.unavailableHoldItems, patron.holdsWaiting],
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
      field(FIELD.institutionId, ctx.account.institution) +
      field(FIELD.patronIdentifier, barcode) +
      field(FIELD.personalName, patron.name) +
      // The library's blocks (README, "Your own library"): as many overdue items, or owing more, blocks the card.
      (blocks.maxOverdueItems === null ? '' : field(FIELD.overdueItemsLimit, count(blocks.maxOverdueItems))) +
      field(FIELD.validPatron, 'Y') +
      (fields.has(FIELD.patronPassword) ? field(FIELD.validPatronPassword, yn(patron.pinOk === true)) : '') +
      field(FIELD.currencyType, 'USD') +
      field(FIELD.feeAmount, patron.owed) +
      (blocks.maxMoneyOwed === null ? '' : field(FIELD.feeLimit, Number(blocks.maxMoneyOwed).toFixed(2))) +
      (list
        ? page(list[1])
            .map((item) => field(list[0], item))
            .join('')
        : '') +
      field(FIELD.homeAddress, patron.address) +
      field(FIELD.emailAddress, patron.email) +
      field(FIELD.homePhoneNumber, patron.phone) +
      field(FIELD.permanentLocation, patron.homeLibrary) +
      field(FIELD.birthDate, patron.birthDate) +
      field(FIELD.patronType, patron.patronType) +
      (patron.standing.ok ? '' : field(FIELD.screenMessage, standingMessage(patron.standing))),
    request,
  );
}

/**
 * 37 → 38: a payment of BV (in the currency's units) on one fine (CG, its id) or on the patron's
 * fines oldest first; refused when it is more than they owe. SIP2's cash is Carrel's 1, cards 3.
 */
export async function feePaid(ctx: SipContext, request: Request): Promise<string> {
  const fields = fieldsOf(request.body, 25);
  const paymentType = request.body.slice(20, 22) === '00' ? 1 : 3;
  const { date } = await ctx.now();
  const patron = await ctx.payer(fields);
  let refused = 'refused' in patron ? patron.refused : undefined;
  const cents = Math.round(Number(fields.get(FIELD.feeAmount)?.[0] ?? 'x') * 100);
  if (!refused && !(Number.isFinite(cents) && cents > 0)) refused = 'BV must be an amount above 0';
  if (!refused && 'id' in patron) {
    const owed = await ctx.services.fines.owed(patron.id, 2000, 0);
    const only = fields.get(FIELD.feeIdentifier)?.[0];
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
        await ctx.services.fines.pay(patron.id, payments);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        refused = error.detail ?? 'Payment refused';
      }
    }
  }
  return frame(
    `38${yn(!refused)}${date}` +
      field(FIELD.institutionId, ctx.account.institution) +
      field(FIELD.patronIdentifier, fields.get(FIELD.patronIdentifier)?.[0] ?? '') +
      field(FIELD.transactionId, fields.get(FIELD.transactionId)?.[0]) +
      (refused ? field(FIELD.screenMessage, refused) : ''),
    request,
  );
}

/** 01 → 24: the card is blocked (manual block m), as a kiosk does when it keeps a card; answered with the patron's status. */
export async function blockPatron(ctx: SipContext, request: Request): Promise<string> {
  const fields = fieldsOf(request.body, 19);
  const barcode = fields.get(FIELD.patronIdentifier)?.[0] ?? '';
  if (ctx.institutionOk(fields)) {
    try {
      const id = await ctx.services.patrons.idOf({ kind: 'barcode', value: barcode }, patronInstitution(ctx.account));
      await ctx.services.patrons.update(id, { blockInfo: { code: 'm' } });
      ctx.log.info({ sipAccount: ctx.account.name, patronId: id, message: fields.get(FIELD.blockedCardMessage)?.[0] }, 'SIP2 block patron');
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
  const {
    now: { date },
    patron,
  } = await settingsAndPatron(ctx, fields, barcode, undefined, false);
  return frame(
    `24${patron?.status ?? INVALID_PATRON_STATUS}000${date}` +
      field(FIELD.institutionId, ctx.account.institution) +
      field(FIELD.patronIdentifier, barcode) +
      field(FIELD.personalName, patron?.name ?? '') +
      field(FIELD.validPatron, yn(patron !== undefined)),
    request,
  );
}

type Settings = Awaited<ReturnType<SipContext['services']['patrons']['circulation']>>;

/** The library's settings for a patron message, read once: what a patron's standing needs, and SIP2's date now. */
async function settingsNow(ctx: SipContext): Promise<Settings & { date: string }> {
  const settings = await ctx.services.patrons.circulation();
  return { ...settings, date: sipDate(new Date(), settings.timeZone) };
}

/**
 * The settings for a patron message and the patron it names (none when unknown, or when AO is not
 * the account's institution). What needs no other answer is read at once: the settings beside the
 * patron's id by barcode, then (patronView) the record beside the PIN check and the lists.
 */
async function settingsAndPatron(
  ctx: SipContext,
  fields: Map<string, string[]>,
  barcode: string,
  pin: string | undefined,
  lists: boolean,
): Promise<{ now: Settings & { date: string }; patron: PatronView | undefined }> {
  const [now, id] = await Promise.all([settingsNow(ctx), ctx.institutionOk(fields) ? patronIdOf(ctx, barcode) : undefined]);
  return { now, patron: id === undefined ? undefined : await patronView(ctx, now, id, barcode, pin, lists) };
}

/**
 * The one live patron with this barcode that the kiosk's account acts on (its institution's, unless
 * it acts on every patron); none when there is none, or more than one.
 */
async function patronIdOf(ctx: SipContext, barcode: string): Promise<string | undefined> {
  if (!barcode) return undefined;
  return ctx.services.patrons.idOf({ kind: 'barcode', value: barcode }, patronInstitution(ctx.account)).catch(unlessNotFound);
}

/** undefined for a record that is not there (or not one); any other failure is thrown on. */
function unlessNotFound(error: unknown): undefined {
  if (error instanceof DomainError && (error.kind === 'notFound' || error.kind === 'multipleRecords')) return undefined;
  throw error;
}

/**
 * A patron, with what the patron messages report; the PIN checked (and counted) when given. The
 * loans, holds and fines are read only for the messages that list them (`lists`).
 */
async function patronView(
  ctx: SipContext,
  { extras, blocks, today }: Settings,
  id: string,
  barcode: string,
  pin: string | undefined,
  lists: boolean,
): Promise<PatronView | undefined> {
  const { patrons, holds, circulation, fines } = ctx.services;
  // An empty AD is a kiosk that asked for no PIN (many send the field always): CQ N, and no
  // attempt counted against the card or the account. Any refusal of the PIN is CQ N.
  const pinCheck = pin
    ? patrons.validate(barcode, pin, `sip:${ctx.account.name}`, true, patronInstitution(ctx.account)).then(
        (validId) => validId === id,
        (error: unknown) => {
          if (!(error instanceof DomainError)) throw error;
          return false;
        },
      )
    : undefined;
  const [row, pinOk, [loans, held, owed]] = await Promise.all([
    // (Deleted since its id was read: unknown, as it would be a moment later.)
    patrons.get(id, extras).catch(unlessNotFound),
    pinCheck,
    lists
      ? Promise.all([
          circulation.checkouts(id, 2000, 0),
          holds.listOfPatron(id, { inactive: false, limit: 2000, offset: 0 }),
          fines.owed(id, 2000, 0),
        ])
      : ([[], [], []] as const),
  ]);
  if (!row) return undefined;
  const state = standing({ ...row, overdue: row.overdue ?? 0 }, today, blocks);
  const flag = (on: boolean) => (on ? 'Y' : ' ');
  const denied = !state.ok;
  // The 14 flags: charge, renewal, recall and hold privileges denied, card reported lost (block
  // l), too many charged, too many overdue, renewals, claims returned, lost, excessive fines
  // (the library's limit, or block x), fees, recall overdue, billed.
  const status =
    flag(denied) +
    flag(denied) +
    ' ' +
    flag(denied) +
    flag(row.block_code === 'l') +
    ' ' +
    flag(!state.ok && state.reason === 'tooManyOverdue') +
    '   ' +
    flag((!state.ok && state.reason === 'owesTooMuch') || row.block_code === 'x') +
    '   ';
  const address = row.addresses[0];
  return {
    id: row.id,
    name: row.names[0] ?? '',
    standing: state,
    status,
    checkouts: loans.map((c) => ({ barcode: c.barcode ?? c.item_id, overdue: c.due_date < today })),
    holdsReady: held.filter((h) => h.state === HOLD_STATE.ready).map((h) => h.trapped_item_id ?? h.item_id ?? h.bib_id),
    holdsWaiting: held.filter((h) => h.state !== HOLD_STATE.ready).map((h) => h.item_id ?? h.bib_id),
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
