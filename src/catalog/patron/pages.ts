// The patron's pages as HTML: sign-in, the account (holds, loans, money owed) and the hold form of
// a record's page. Every form posts back to the catalogue with the session's CSRF token.
import { html, type Html } from '../html.ts';
import { HOLD_STATE } from '../../holds/states.ts';
import type { Account, AccountHold, PickupLocation } from './account.ts';
import { longDate, TEXT } from './texts.ts';

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

function holdsSection(holds: AccountHold[], csrf: string): Html {
  const items = holds.map((h) => {
    const title = h.title || TEXT.untitled;
    return html`<li class="hold" data-hold-id="${h.id}">
    <a href="/catalog/record/${h.bibId}">${title}</a>
    <p class="hold-status">${holdStatus(h)}</p>
    <p class="detail">${TEXT.pickupAt(h.pickupName)}</p>
    <form method="post" action="/catalog/account/holds/cancel">
      ${csrfField(csrf)}<input type="hidden" name="hold" value="${h.id}">
      <button class="button secondary" type="submit" aria-label="${TEXT.cancelHoldFor(title)}">${TEXT.cancelHold}</button>
    </form>
  </li>`;
  });
  return html`<section aria-labelledby="holds-heading">
  <h2 id="holds-heading">${TEXT.holdsHeading}</h2>
  ${holds.length ? html`<ul class="plain account-list">${items}</ul>` : html`<p>${TEXT.noHolds}</p>`}
</section>`;
}

function loansSection(account: Account): Html {
  const items = account.loans.map(
    (l) => html`<li class="loan${l.overdue ? ' overdue' : ''}">
    ${l.bibId ? html`<a href="/catalog/record/${l.bibId}">${l.title || TEXT.untitled}</a>` : l.title || TEXT.untitled}
    <p>${l.overdue ? html`<strong class="overdue-mark">${TEXT.overdue}:</strong> ` : ''}${TEXT.due} ${day(l.due)}</p>
  </li>`,
  );
  return html`<section aria-labelledby="loans-heading">
  <h2 id="loans-heading">${TEXT.loansHeading}</h2>
  ${account.loans.length ? html`<ul class="plain account-list">${items}</ul>` : html`<p>${TEXT.noLoans}</p>`}
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

export function accountMain(account: Account, csrf: string, message: Message | undefined): Html {
  return html`<div class="wrap">
<h1>${TEXT.accountTitle}</h1>
<p>${TEXT.greeting(account.name)}</p>
${messageBox(message)}
${holdsSection(account.holds, csrf)}
${loansSection(account)}
${finesSection(account)}
<form method="post" action="/catalog/signout">${csrfField(csrf)}<button class="button secondary" type="submit">${TEXT.signOutButton}</button></form>
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
