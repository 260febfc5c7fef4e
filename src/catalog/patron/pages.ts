// The patron's pages as HTML: sign-in, the account (holds, loans, money owed, personal details,
// PIN change, reading history), a hold's change of pickup library and the hold form of a record's page. Every form posts back to the catalogue with the session's CSRF token.
import { html, type Html } from '../html.ts';
import { HOLD_SPECIFIC_CODES } from '../../holds/refusals.ts';
import { HOLD_STATE } from '../../holds/states.ts';
import { PIN_LENGTH } from '../../patrons/input.ts';
import type { Account, AccountDetails, AccountHold, PickupLocation } from './account.ts';
import { holdChangeRefusal, longDate, TEXT } from './texts.ts';

/** The hidden field every form carries. */
export const CSRF_FIELD = 'csrf';

const csrfField = (token: string) => html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;
const day = (d: string) => html`<time datetime="${d}">${longDate(d)}</time>`;

/** A message for the reader: a status (announced politely) or an alert (announced at once). */
export interface Message {
  kind: 'status' | 'alert';
  text: string;
}

const messageBox = (m: Message | undefined) =>
  m ? html`<p class="message ${m.kind}" role="${m.kind}">${m.text}</p>` : html`<div role="status" class="message-empty"></div>`;

export function signInMain(opts: { csrf: string; barcode: string; next: string | undefined; message: Message | undefined }): Html {
  return html`<div class="wrap narrow">
<h1>${TEXT.signInTitle}</h1>
<p>${TEXT.signInIntro}</p>
${messageBox(opts.message)}
<form class="patron-form" method="post" action="/catalog/signin">
  ${csrfField(opts.csrf)}
  ${opts.next ? html`<input type="hidden" name="next" value="${opts.next}">` : ''}
  <p class="field"><label for="barcode">${TEXT.barcodeLabel}</label>
    <input id="barcode" name="barcode" type="text" value="${opts.barcode}" required maxlength="64" autocomplete="username" autocapitalize="off" spellcheck="false"></p>
  <p class="field"><label for="pin">${TEXT.pinLabel}</label>
    <input id="pin" name="pin" type="password" required maxlength="64" autocomplete="current-password"></p>
  <p><button class="button primary" type="submit">${TEXT.signInButton}</button></p>
</form>
</div>`;
}

function holdStatus(h: AccountHold): Html {
  if (h.state === HOLD_STATE.ready && h.pickupBy) return html`<strong>${TEXT.holdReady} ${day(h.pickupBy)}</strong>`;
  if (h.state === HOLD_STATE.inTransit) return html`${TEXT.holdInTransit}`;
  if (h.frozen) return html`${TEXT.holdFrozen}`;
  if (h.priority !== undefined && h.queueLength !== undefined) return html`${TEXT.holdQueue(h.priority, h.queueLength)}`;
  return html``;
}

/** The hidden fields naming the hold a form acts on. */
const holdFields = (csrf: string, h: AccountHold) => html`${csrfField(csrf)}<input type="hidden" name="hold" value="${h.id}">`;

/**
 * Where the holds' and the loans' forms post. Each list is one form with one CSRF field: every
 * button of it is a submit button whose name says what it does and whose value is the hold's or
 * loan's id, and a browser sends only the button pressed. Many small forms of their own, each with
 * its token, made most of a page with 50 holds and 50 loans.
 */
export const HOLDS_FORM = '/catalog/account/holds';
export const LOANS_FORM = '/catalog/account/loans';
/** The buttons of the holds' form, by what they do. */
export const HOLD_BUTTONS = ['cancel', 'freeze', 'unfreeze'] as const;
export type HoldButton = (typeof HOLD_BUTTONS)[number];
/** The button of the loans' form: its value a loan's id, or RENEW_ALL. */
export const RENEW_BUTTON = 'renew';
export const RENEW_ALL = 'all';

const actionButton = (name: string, value: string, label: string, text: string, kind = 'secondary') =>
  html`<button class="button ${kind}" type="submit" name="${name}" value="${value}" aria-label="${label}">${text}</button>`;

function holdActions(h: AccountHold, title: string, movable: boolean): Html {
  // A copy already set aside (in transit or on the shelf) fills the hold: the rules let it be
  // neither frozen nor, once on the shelf, moved, so the page does not offer what would be refused.
  const freeze =
    h.state !== HOLD_STATE.waiting
      ? ''
      : h.frozen
        ? actionButton('unfreeze' satisfies HoldButton, h.id, TEXT.unfreezeHoldFor(title), TEXT.unfreezeHold)
        : actionButton('freeze' satisfies HoldButton, h.id, TEXT.freezeHoldFor(title), TEXT.freezeHold);
  // A link to the hold's own pickup page, not a list of every library under each hold: the page
  // stays small however many holds and libraries there are.
  const move =
    movable && h.state !== HOLD_STATE.ready
      ? html`<a class="button secondary" href="/catalog/account/holds/${h.id}/pickup" aria-label="${TEXT.changePickupFor(title)}">${TEXT.changePickup}</a>`
      : '';
  const cancel = actionButton('cancel' satisfies HoldButton, h.id, TEXT.cancelHoldFor(title), TEXT.cancelHold);
  return html`<div class="actions">${freeze}${move}${cancel}</div>`;
}

function holdsSection(holds: AccountHold[], csrf: string, locations: PickupLocation[]): Html {
  const movable = locations.length > 1;
  const items = holds.map((h) => {
    const title = h.title || TEXT.untitled;
    return html`<li class="hold" data-hold-id="${h.id}">
    <a href="/catalog/record/${h.bibId}">${title}</a>
    <p class="hold-status">${holdStatus(h)}</p>
    <p class="detail">${TEXT.pickupAt(h.pickupName)}</p>
    ${holdActions(h, title, movable)}
  </li>`;
  });
  const list = html`<form method="post" action="${HOLDS_FORM}">${csrfField(csrf)}<ul class="plain account-list">${items}</ul></form>`;
  return html`<section aria-labelledby="holds-heading">
  <h2 id="holds-heading">${TEXT.holdsHeading}</h2>
  ${holds.length ? list : html`<p>${TEXT.noHolds}</p>`}
</section>`;
}

function loansSection(account: Account, csrf: string): Html {
  const items = account.loans.map((l) => {
    const title = l.title || TEXT.untitled;
    return html`<li class="loan${l.overdue ? ' overdue' : ''}" data-loan-id="${l.id}">
    ${l.bibId ? html`<a href="/catalog/record/${l.bibId}">${title}</a>` : title}
    <p>${l.overdue ? html`<strong class="overdue-mark">${TEXT.overdue}:</strong> ` : ''}${TEXT.due} ${day(l.due)}</p>
    <div class="actions">${actionButton(RENEW_BUTTON, l.id, TEXT.renewLoanFor(title), TEXT.renewLoan)}</div>
  </li>`;
  });
  const list = html`<form method="post" action="${LOANS_FORM}">${csrfField(csrf)}<ul class="plain account-list">${items}</ul>
    <button class="button primary" type="submit" name="${RENEW_BUTTON}" value="${RENEW_ALL}">${TEXT.renewAll}</button>
  </form>`;
  return html`<section aria-labelledby="loans-heading">
  <h2 id="loans-heading">${TEXT.loansHeading}</h2>
  ${account.loans.length ? list : html`<p>${TEXT.noLoans}</p>`}
</section>`;
}

function finesSection(account: Account): Html {
  const owes = Number(account.moneyOwed) > 0;
  return html`<section aria-labelledby="fines-heading">
  <h2 id="fines-heading">${TEXT.finesHeading}</h2>
  <p class="money-owed">${owes ? TEXT.moneyOwed(account.moneyOwed) : TEXT.nothingOwed}</p>
  ${account.fines.length ? html`<ul class="plain">${account.fines.map((f) => html`<li>${f.description} ${f.outstanding}</li>`)}</ul>` : ''}
</section>`;
}

/** A details or PIN form sent back refused: what was typed in the details (never a PIN), and the field refused. */
export interface RefusedForm {
  details?: AccountDetails;
  invalid?: 'email' | 'phone' | 'oldPin' | 'newPin';
}

const invalidIf = (yes: boolean) => (yes ? html` aria-invalid="true"` : '');

function detailsSection(details: AccountDetails, csrf: string, invalid: RefusedForm['invalid']): Html {
  return html`<section aria-labelledby="details-heading">
  <h2 id="details-heading">${TEXT.detailsHeading}</h2>
  <p>${TEXT.detailsIntro}</p>
  <form class="patron-form narrow-form" method="post" action="/catalog/account/details">
    ${csrfField(csrf)}
    <p class="field"><label for="email">${TEXT.emailLabel}</label>
      <input id="email" name="email" type="email" value="${details.email}" maxlength="200" autocomplete="email" spellcheck="false"${invalidIf(invalid === 'email')}></p>
    <p class="field"><label for="phone">${TEXT.phoneLabel}</label>
      <input id="phone" name="phone" type="tel" value="${details.phone}" maxlength="100" autocomplete="tel"${invalidIf(invalid === 'phone')}></p>
    <p><button class="button primary" type="submit">${TEXT.saveDetails}</button></p>
  </form>
</section>`;
}

// The PIN fields are never filled in: a PIN is not sent back to the browser.
function pinSection(csrf: string, invalid: RefusedForm['invalid']): Html {
  return html`<section aria-labelledby="pin-heading">
  <h2 id="pin-heading">${TEXT.pinHeading}</h2>
  <form class="patron-form narrow-form" method="post" action="/catalog/account/pin">
    ${csrfField(csrf)}
    <p class="field"><label for="old-pin">${TEXT.oldPinLabel}</label>
      <input id="old-pin" name="oldPin" type="password" required maxlength="${PIN_LENGTH.max}" autocomplete="current-password"${invalidIf(invalid === 'oldPin')}></p>
    <p class="field"><label for="new-pin">${TEXT.newPinLabel}</label>
      <input id="new-pin" name="newPin" type="password" required minlength="${PIN_LENGTH.min}" maxlength="${PIN_LENGTH.max}" autocomplete="new-password" aria-describedby="pin-rule"${invalidIf(invalid === 'newPin')}>
      <span class="hint" id="pin-rule">${TEXT.pinRule(PIN_LENGTH.min, PIN_LENGTH.max)}</span></p>
    <p class="field"><label for="new-pin-again">${TEXT.newPinAgainLabel}</label>
      <input id="new-pin-again" name="newPinAgain" type="password" required maxlength="${PIN_LENGTH.max}" autocomplete="new-password"${invalidIf(invalid === 'newPin')}></p>
    <p><button class="button primary" type="submit">${TEXT.changePin}</button></p>
  </form>
</section>`;
}

function historySection(history: Account['history'], csrf: string): Html {
  const items = history.entries.map((e) => {
    const title = e.title || TEXT.untitled;
    return html`<li class="history-entry">${e.bibId ? html`<a href="/catalog/record/${e.bibId}">${title}</a>` : title}
    <p class="detail">${TEXT.borrowed} ${day(e.borrowed)}</p></li>`;
  });
  const list = history.entries.length ? html`<ol class="plain account-list">${items}</ol>` : html`<p>${TEXT.noHistory}</p>`;
  return html`<section aria-labelledby="history-heading">
  <h2 id="history-heading">${TEXT.historyHeading}</h2>
  <p>${history.on ? TEXT.historyOnIntro : TEXT.historyOffIntro}</p>
  <form method="post" action="/catalog/account/history">
    ${csrfField(csrf)}<input type="hidden" name="history" value="${history.on ? 'off' : 'on'}">
    <button class="button secondary" type="submit">${history.on ? TEXT.historyTurnOff : TEXT.historyTurnOn}</button>
  </form>
  ${history.on ? list : ''}
</section>`;
}

export function accountMain(account: Account, csrf: string, message: Message | undefined, refused: RefusedForm = {}): Html {
  return html`<div class="wrap">
<h1>${TEXT.accountTitle}</h1>
<p>${TEXT.greeting(account.name)}</p>
${messageBox(message)}
${holdsSection(account.holds, csrf, account.pickupLocations)}
${loansSection(account, csrf)}
${finesSection(account)}
${detailsSection(refused.details ?? account.details, csrf, refused.invalid)}
${pinSection(csrf, refused.invalid)}
${historySection(account.history, csrf)}
<form method="post" action="/catalog/signout">${csrfField(csrf)}<button class="button secondary" type="submit">${TEXT.signOutButton}</button></form>
</div>`;
}

/** The page that moves one of the patron's holds to another pickup library (posted as the account page's forms are). */
export function pickupMain(h: AccountHold, locations: PickupLocation[], csrf: string): Html {
  const title = h.title || TEXT.untitled;
  // On the shelf, the rules no longer let it move: said instead of a form that would be refused.
  const form =
    h.state === HOLD_STATE.ready
      ? html`<p>${holdChangeRefusal(HOLD_SPECIFIC_CODES.holdReady)}</p>`
      : html`<form class="patron-form" method="post" action="/catalog/account/holds/pickup">
  ${holdFields(csrf, h)}
  <p class="field"><label for="pickup">${TEXT.changePickupLabel(title)}</label>
    <select id="pickup" name="pickup">${locations.map(
      (l) => html`<option value="${l.code}"${l.code === h.pickupCode ? html` selected` : ''}>${l.name}</option>`,
    )}</select></p>
  <p><button class="button primary" type="submit">${TEXT.changePickup}</button></p>
</form>`;
  return html`<div class="wrap narrow">
<h1>${TEXT.changePickupTitle}</h1>
<p><a href="/catalog/record/${h.bibId}">${title}</a></p>
<p>${TEXT.pickupAt(h.pickupName)}</p>
${form}
<p><a href="/catalog/account">${TEXT.backToAccount}</a></p>
</div>`;
}

/** The record page's hold form for a signed-in patron, or a way to sign in for a visitor. */
export function holdPanel(bibId: string, signedIn: { csrf: string; locations: PickupLocation[] } | undefined, refusal?: string): Html {
  if (!signedIn) {
    return html`<section aria-labelledby="hold-heading"><h2 id="hold-heading">${TEXT.placeHoldHeading}</h2>
    <p><a href="/catalog/signin?next=${encodeURIComponent(`/catalog/record/${bibId}`)}">${TEXT.signInToHold}</a></p></section>`;
  }
  return html`<section aria-labelledby="hold-heading"><h2 id="hold-heading">${TEXT.placeHoldHeading}</h2>
  ${refusal ? html`<p class="message alert" role="alert">${refusal}</p>` : ''}
  <form class="patron-form" method="post" action="/catalog/record/${bibId}/hold">
    ${csrfField(signedIn.csrf)}
    <p class="field"><label for="pickup">${TEXT.pickupLabel}</label>
      <select id="pickup" name="pickup">${signedIn.locations.map((l) => html`<option value="${l.code}">${l.name}</option>`)}</select></p>
    <p><button class="button primary" type="submit">${TEXT.placeHoldButton}</button></p>
  </form></section>`;
}

export function forbiddenMain(): Html {
  return html`<div class="wrap"><div class="notice">
  <h1>${TEXT.forbiddenTitle}</h1>
  <p>${TEXT.forbidden}</p>
  <p><a href="/catalog/account">${TEXT.myAccount}</a></p>
</div></div>`;
}
