// SIP2's circulation messages: Checkout (11/12), Checkin (09/10), Item Information (17/18), Renew
// (29/30), Renew All (65/66), Hold (15/16), through the circulation, item and hold services.
import { ITEM_STATUS } from '../items/statuses.ts';
import { DomainError } from '../shared/errors.ts';
import { patronInstitution } from './accounts.ts';
import type { SipContext, SipItem } from './context.ts';
import { FIELD } from './fields.ts';
import { circulationStatus, mediaAndProperties, owner } from './item-fields.ts';
import { field, fieldsOf, frame, yn, type Request } from './messages.ts';

/**
 * 11 → 12: a checkout through Carrel's own rules (holds, blocks, limits); a refusal is ok 0 with its
 * reason in AF. BL says whether the card is known, whatever else refused the loan; CQ answers a PIN.
 */
export async function checkout(ctx: SipContext, request: Request): Promise<string> {
  const fields = fieldsOf(request.body, 38);
  const patronBarcode = fields.get(FIELD.patronIdentifier)?.[0] ?? '';
  const itemBarcode = fields.get(FIELD.itemIdentifier)?.[0] ?? '';
  // The patron (and its PIN) beside the item and the time: the loan needs both.
  const [{ date }, item, patron] = await Promise.all([
    ctx.now(),
    ctx.services.items.byBarcode(itemBarcode, { profile: true }),
    ctx.payer(fields),
  ]);
  const loan: Promise<{ due?: string; refused?: string }> =
    'refused' in patron
      ? Promise.resolve({ refused: patron.refused })
      : ctx.services.circulation.checkout(patron.id, item ? { itemId: item.id } : { itemBarcode }).then(
          ({ due }) => ({ due }),
          (error: unknown) => {
            if (!(error instanceof DomainError)) throw error;
            return { refused: error.detail ?? 'Checkout refused' };
          },
        );
  const [{ due, refused }, title] = await Promise.all([loan, item ? ctx.title(item.bib_ids) : '']);
  const ok = due !== undefined;
  return frame(
    `12${ok ? '1' : '0'}NU${yn(ok)}${date}` +
      field(FIELD.institutionId, ctx.account.institution) +
      field(FIELD.patronIdentifier, patronBarcode) +
      field(FIELD.itemIdentifier, itemBarcode) +
      field(FIELD.titleIdentifier, title) +
      field(FIELD.dueDate, due ? `${due.replaceAll('-', '')}    235959` : '') +
      field(FIELD.validPatron, yn('id' in patron || patron.known)) +
      (fields.get(FIELD.patronPassword)?.[0] ? field(FIELD.validPatronPassword, yn('id' in patron)) : '') +
      (item ? mediaAndProperties(item) : '') +
      (refused ? field(FIELD.screenMessage, refused) : ''),
    request,
  );
}

/**
 * 09 → 10: a check-in as the REST check-in does it (a waiting hold traps the item: alert, CV 01 here
 * or 02 in transit). AA names the patron whose loan it ended, when the account acts on that patron.
 */
export async function checkin(ctx: SipContext, request: Request): Promise<string> {
  const fields = fieldsOf(request.body, 37);
  const itemBarcode = fields.get(FIELD.itemIdentifier)?.[0] ?? '';
  const [{ date }, item] = await Promise.all([
    ctx.now(),
    ctx.institutionOk(fields) ? ctx.services.items.byBarcode(itemBarcode, { profile: true }) : undefined,
  ]);
  if (!item) {
    return frame(
      `100NUY${date}` +
        field(FIELD.institutionId, ctx.account.institution) +
        field(FIELD.itemIdentifier, itemBarcode) +
        field(FIELD.permanentLocation, '') +
        field(FIELD.screenMessage, 'Invalid Item'),
      request,
    );
  }
  const [result, title] = await Promise.all([ctx.services.circulation.checkin(item.id), ctx.title(item.bib_ids)]);
  // Another institution's patron is no one to this kiosk (README, "SIP2"): no AA then.
  const borrower = result.patronId ? await ctx.services.patrons.barcodeOf(result.patronId, patronInstitution(ctx.account)) : undefined;
  const alert = result.status === ITEM_STATUS.onHoldShelf ? '01' : result.status === ITEM_STATUS.inTransit ? '02' : undefined;
  return frame(
    `101${yn(alert === undefined)}U${yn(alert !== undefined)}${date}` +
      field(FIELD.institutionId, ctx.account.institution) +
      field(FIELD.itemIdentifier, itemBarcode) +
      field(FIELD.permanentLocation, item.location_code ?? '') +
      field(FIELD.titleIdentifier, title) +
      field(FIELD.patronIdentifier, borrower) +
      mediaAndProperties(item) +
      owner(item) +
      (alert
        ? field(FIELD.alertType, alert) +
          field(FIELD.screenMessage, alert === '01' ? 'Hold: put on the hold shelf' : 'Hold: send in transit')
        : ''),
    request,
  );
}

/** 17 → 18: an item's circulation status, hold queue, due date, title, owner, media type, properties and location. */
export async function itemInformation(ctx: SipContext, request: Request): Promise<string> {
  const fields = fieldsOf(request.body, 18);
  const itemBarcode = fields.get(FIELD.itemIdentifier)?.[0] ?? '';
  const { date } = await ctx.now();
  const item = ctx.institutionOk(fields)
    ? await ctx.services.items.byBarcode(itemBarcode, { circulation: true, profile: true })
    : undefined;
  if (!item)
    return frame(
      `18010001${date}` +
        field(FIELD.itemIdentifier, itemBarcode) +
        field(FIELD.titleIdentifier, '') +
        field(FIELD.screenMessage, 'Invalid Item'),
      request,
    );
  // The loan's own day: the item's due instant is midnight in the database session's time zone,
  // which need not be UTC (toISOString's day is the day before east of Greenwich).
  const due = item.due_day ? `${item.due_day.replaceAll('-', '')}    235959` : undefined;
  // Security marker 00 (other: Carrel does not know what is in the item), fee type 01 (other: no
  // fee is charged for a loan).
  return frame(
    `18${circulationStatus(item)}0001${date}` +
      field(FIELD.holdQueueLength, String(item.hold_count ?? 0).padStart(5, '0')) +
      (due ? field(FIELD.dueDate, due) : '') +
      field(FIELD.itemIdentifier, itemBarcode) +
      field(FIELD.titleIdentifier, await ctx.title(item.bib_ids)) +
      owner(item) +
      mediaAndProperties(item) +
      field(FIELD.permanentLocation, item.location_code ?? '') +
      field(FIELD.currentLocation, item.location_code ?? ''),
    request,
  );
}

/** Renews the patron's loan of an item; the new due date, or why not, and the item when there is one. */
async function renewLoan(
  ctx: SipContext,
  patronId: string,
  itemBarcode: string,
): Promise<{ title: string; item?: SipItem } & ({ due: string } | { refused: string })> {
  const item = await ctx.services.items.byBarcode(itemBarcode, { profile: true });
  if (!item) return { refused: 'Invalid Item', title: '' };
  const title = await ctx.title(item.bib_ids);
  const [loan] = await ctx.services.circulation.checkoutsOfItem(item.id);
  if (!loan || loan.patron_id !== patronId) return { refused: 'This item is not checked out to this patron', title, item };
  try {
    return { due: (await ctx.services.circulation.renew(loan.id)).due_date, title, item };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { refused: error.detail ?? 'Renewal refused', title, item };
  }
}

/** 29 → 30: a renewal through Carrel's rules (limits, holds, blocks). */
export async function renew(ctx: SipContext, request: Request): Promise<string> {
  const fields = fieldsOf(request.body, 38);
  const itemBarcode = fields.get(FIELD.itemIdentifier)?.[0] ?? '';
  const { date } = await ctx.now();
  const patron = await ctx.payer(fields);
  const result =
    'refused' in patron ? { refused: patron.refused, title: '', item: undefined } : await renewLoan(ctx, patron.id, itemBarcode);
  const ok = 'due' in result;
  return frame(
    `30${ok ? '1' : '0'}${yn(ok)}U${yn(ok)}${date}` +
      field(FIELD.institutionId, ctx.account.institution) +
      field(FIELD.patronIdentifier, fields.get(FIELD.patronIdentifier)?.[0] ?? '') +
      field(FIELD.itemIdentifier, itemBarcode) +
      field(FIELD.titleIdentifier, result.title) +
      field(FIELD.dueDate, ok ? `${result.due.replaceAll('-', '')}    235959` : '') +
      (result.item ? mediaAndProperties(result.item) : '') +
      ('refused' in result ? field(FIELD.screenMessage, result.refused) : ''),
    request,
  );
}

/** 65 → 66: every loan of the patron renewed that can be; the others listed with the reason in AF. */
export async function renewAll(ctx: SipContext, request: Request): Promise<string> {
  const fields = fieldsOf(request.body, 18);
  const { date } = await ctx.now();
  const patron = await ctx.payer(fields);
  if ('refused' in patron)
    return frame(
      `660${'0000'}${'0000'}${date}` + field(FIELD.institutionId, ctx.account.institution) + field(FIELD.screenMessage, patron.refused),
      request,
    );
  const loans = await ctx.services.circulation.checkouts(patron.id, 2000, 0);
  const renewed: string[] = [];
  const unrenewed: string[] = [];
  for (const loan of loans) {
    const barcode = loan.barcode ?? loan.item_id;
    const result = await renewLoan(ctx, patron.id, barcode);
    ('due' in result ? renewed : unrenewed).push(barcode);
  }
  const count = (n: number) => String(Math.min(n, 9999)).padStart(4, '0');
  return frame(
    `661${count(renewed.length)}${count(unrenewed.length)}${date}` +
      field(FIELD.institutionId, ctx.account.institution) +
      renewed.map((b) => field(FIELD.renewedItems, b)).join('') +
      unrenewed.map((b) => field(FIELD.unrenewedItems, b)).join(''),
    request,
  );
}

/**
 * 15 → 16: `+` places a hold on the item's title (BY 3: on the copy itself) for pickup at BS, the
 * kiosk's location or the patron's home library; `-` cancels the patron's hold on it. Through the
 * hold rules REST uses; a refusal is ok 0 with its reason.
 */
export async function hold(ctx: SipContext, request: Request): Promise<string> {
  const fields = fieldsOf(request.body, 19);
  const mode = request.body.slice(0, 1);
  const itemBarcode = fields.get(FIELD.itemIdentifier)?.[0] ?? '';
  const { date } = await ctx.now();
  const patron = await ctx.payer(fields);
  const item = itemBarcode ? await ctx.services.items.byBarcode(itemBarcode) : undefined;
  let refused = 'refused' in patron ? patron.refused : !item ? 'Invalid Item' : undefined;
  let queue: number | undefined;
  let pickup = fields.get(FIELD.pickupLocation)?.[0];
  if (!refused && 'id' in patron && item) {
    const specific = fields.get(FIELD.holdType)?.[0] === '3';
    const record = specific ? { recordType: 'i', recordNumber: item.id } : { recordType: 'b', recordNumber: item.bib_ids[0] ?? '' };
    const mine = () => ctx.services.holds.listOfPatron(patron.id, { inactive: false, limit: 2000, offset: 0 });
    const matches = (h: { record_type: string; item_id: string | null; bib_id: string }) =>
      specific ? h.record_type === 'i' && h.item_id === item.id : h.record_type === 'b' && h.bib_id === record.recordNumber;
    try {
      if (mode === '+') {
        const home = (await ctx.services.patrons.get(patron.id)).home_library_code;
        pickup = pickup || ctx.account.location || home || '';
        await ctx.services.holds.place(patron.id, { ...record, pickupLocation: pickup });
        queue = (await mine()).find(matches)?.priority ?? undefined;
      } else if (mode === '-') {
        const held = (await mine()).find(matches);
        if (!held) refused = 'This patron has no hold on this item';
        else await ctx.services.holds.cancel(held.id);
      } else refused = 'Changing a hold is not offered here: cancel it and place another';
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      refused = error.detail ?? 'Hold refused';
    }
  }
  return frame(
    `16${refused ? '0' : '1'}${yn(item?.status === ITEM_STATUS.available && item.due_date === null)}${date}` +
      (queue !== undefined ? field(FIELD.queuePosition, queue) : '') +
      (pickup && !refused && mode === '+' ? field(FIELD.pickupLocation, pickup) : '') +
      field(FIELD.institutionId, ctx.account.institution) +
      field(FIELD.patronIdentifier, fields.get(FIELD.patronIdentifier)?.[0] ?? '') +
      field(FIELD.itemIdentifier, itemBarcode) +
      (item ? field(FIELD.titleIdentifier, await ctx.title(item.bib_ids)) : '') +
      (refused ? field(FIELD.screenMessage, refused) : ''),
    request,
  );
}
