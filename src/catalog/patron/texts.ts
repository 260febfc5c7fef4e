// Every text of the patron's pages, in one place so that a library can translate them: plain
// strings, and functions for those that take a value.
import { LOAN_SPECIFIC_CODES } from '../../circulation/refusals.ts';
import { HOLD_SPECIFIC_CODES } from '../../holds/refusals.ts';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "2026-12-03" as "3 December 2026". */
export function longDate(day: string): string {
  const [y, m, d] = day.split('-');
  return `${Number(d)} ${MONTHS[Number(m) - 1]} ${y}`;
}

const codes = HOLD_SPECIFIC_CODES;

export const TEXT = {
  myAccount: 'My account',
  backToAccount: 'Back to my account',
  signInTitle: 'Sign in',
  signInIntro: 'Sign in with your library card to place holds and see your loans.',
  barcodeLabel: 'Library card number',
  pinLabel: 'PIN',
  signInButton: 'Sign in',
  signOutButton: 'Sign out',
  signInFirst: 'Please sign in to see your account.',
  wrongBarcodeOrPin: 'The card number or PIN is not right. Please check them and try again.',
  tooManyAttempts: (minutes: number) =>
    `Signing in from here or with this card is paused after too many wrong tries. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}, or ask at the library.`,
  signedOut: 'You have signed out.',
  accountTitle: 'My account',
  greeting: (name: string) => (name ? `Signed in as ${name}` : 'Signed in'),
  holdsHeading: 'Holds',
  noHolds: 'You have no holds.',
  holdReady: 'Ready for pickup until',
  holdInTransit: 'On its way to your pickup library',
  holdFrozen: 'Frozen: your place in the queue is kept',
  holdQueue: (position: number, length: number) => `Position ${position} in the queue of ${length}`,
  pickupAt: (place: string) => `Pickup at ${place}`,
  cancelHold: 'Cancel hold',
  cancelHoldFor: (title: string) => `Cancel hold on ${title}`,
  holdCancelled: 'Your hold has been cancelled.',
  holdPlaced: 'Your hold has been placed.',
  loansHeading: 'Loans',
  noLoans: 'You have nothing on loan.',
  due: 'Due',
  overdue: 'Overdue',
  finesHeading: 'Money owed',
  moneyOwed: (amount: string) => `You owe ${amount}.`,
  nothingOwed: 'You owe nothing.',
  untitled: 'Untitled',
  placeHoldHeading: 'Place a hold',
  pickupLabel: 'Pickup library',
  placeHoldButton: 'Place hold',
  signInToHold: 'Sign in to place a hold',
  forbiddenTitle: 'This form has expired',
  forbidden:
    'The form could not be accepted: it was old, or it did not come from this catalogue. Please go back, reload the page and try again.',
  holdNotFound: 'That hold could not be found in your account.',
  holdRefusedTitle: 'The hold could not be placed',
  freezeHold: 'Freeze',
  freezeHoldFor: (title: string) => `Freeze hold on ${title}`,
  unfreezeHold: 'Unfreeze',
  unfreezeHoldFor: (title: string) => `Unfreeze hold on ${title}`,
  holdFrozenDone: 'Your hold is frozen: your place in the queue is kept until you unfreeze it.',
  holdUnfrozenDone: 'Your hold is active again.',
  changePickupTitle: 'Change pickup library',
  changePickupLabel: (title: string) => `Pickup library for ${title}`,
  changePickup: 'Change pickup',
  changePickupFor: (title: string) => `Change pickup library for ${title}`,
  pickupChanged: (place: string) => `Your hold will wait for you at ${place}.`,
  renewLoan: 'Renew',
  renewLoanFor: (title: string) => `Renew ${title}`,
  renewAll: 'Renew all',
  renewed: (title: string, due: string) => `${title} is renewed: now due ${longDate(due)}.`,
  notRenewed: (title: string, reason: string) => `${title} was not renewed. ${reason}`,
  renewedAll: (renewed: number, of: number) =>
    renewed === of
      ? `All your loans are renewed.`
      : renewed === 0
        ? `None of your loans could be renewed.`
        : `${renewed} of ${of} ${of === 1 ? 'loan is' : 'loans are'} renewed.`,
  loanNotFound: 'That loan could not be found in your account.',
  detailsHeading: 'Your details',
  detailsIntro: 'How the library can reach you, for example when a hold is ready. Leave a field empty to remove it.',
  emailLabel: 'Email address',
  phoneLabel: 'Phone number',
  saveDetails: 'Save details',
  detailsSaved: 'Your details are saved.',
  badEmail: 'That email address could not be saved: it should look like name@example.org. Nothing was changed.',
  badPhone: 'That phone number could not be saved: it should be at most 100 characters on one line. Nothing was changed.',
  detailsIncomplete: 'The form arrived without its email or phone field. Nothing was changed; please fill it in again.',
  pinHeading: 'Change your PIN',
  oldPinLabel: 'Current PIN',
  newPinLabel: 'New PIN',
  newPinAgainLabel: 'New PIN again',
  pinRule: (min: number, max: number) => `From ${min} to ${max} characters.`,
  changePin: 'Change PIN',
  pinChanged: 'Your PIN is changed. Use the new one from now on.',
  pinMismatch: 'The two new PINs are not the same. Please type the new PIN twice. Your PIN was not changed.',
  pinRules: (min: number, max: number) =>
    `The new PIN must have ${min} to ${max} characters, and no line breaks or tabs. Your PIN was not changed.`,
  wrongOldPin: 'The current PIN is not right. Your PIN was not changed.',
  pinPaused: (minutes: number) =>
    `PIN changes and signing in, from here or with this card, are paused after too many wrong tries. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}, or ask at the library.`,
  historyHeading: 'Reading history',
  historyOnIntro: 'The library keeps a list of what you borrow, for you only.',
  historyOffIntro: 'The library does not keep a list of what you borrow. Turn it on to keep one from your next loan.',
  historyTurnOn: 'Keep my reading history',
  historyTurnOff: 'Stop keeping it and delete the list',
  historyOnDone: 'Your reading history is on: what you borrow from now on is listed here.',
  historyOffDone: 'Your reading history is off, and its list is deleted.',
  noHistory: 'Nothing is listed yet.',
  borrowed: 'Borrowed',
} as const;

/** A refusal to freeze, unfreeze or move a hold in plain words, by the hold rules' specific code. */
export function holdChangeRefusal(specificCode: number): string {
  switch (specificCode) {
    case codes.holdReady:
      return 'A copy is already set aside for this hold (on its way or on the hold shelf), so it cannot be frozen or moved to another library.';
    case codes.notPickupLocation:
      return 'That library does not take holds for pickup. Please choose another.';
    default:
      return 'The hold could not be changed. Please ask at the library.';
  }
}

/** A refusal of a renewal in plain words, by the renewal rules' specific code. */
export function renewalRefusal(specificCode: number): string {
  switch (specificCode) {
    case LOAN_SPECIFIC_CODES.renewalLimit:
      return 'It has been renewed as many times as the library allows. Please return it by its due date.';
    case LOAN_SPECIFIC_CODES.wantedByHold:
      return 'Another reader has a hold on it, so it cannot be renewed. Please return it by its due date.';
    case codes.patronBlocked:
      return 'Your card is blocked, so loans cannot be renewed. Please ask at the library.';
    case codes.patronExpired:
      return 'Your library card has expired. Please renew it at the library to renew loans.';
    default:
      return 'It could not be renewed. Please ask at the library.';
  }
}

/** A refusal of a hold placement in plain words, by the hold rules' specific code. */
export function holdRefusal(specificCode: number): string {
  switch (specificCode) {
    case codes.alreadyOnHold:
      return 'You already have a hold on this title.';
    case codes.holdLimit:
      return 'You have reached the most holds you may have at once. A hold can be placed when one of yours is collected or cancelled.';
    case codes.patronBlocked:
      return 'Your card is blocked, so holds cannot be placed. Please ask at the library.';
    case codes.patronExpired:
      return 'Your library card has expired. Please renew it at the library to place holds.';
    case codes.notHoldable:
      return 'This title cannot be held: no copy of it can be lent for a hold.';
    case codes.notPickupLocation:
      return 'That library does not take holds for pickup. Please choose another.';
    case codes.recordNotFound:
      return 'This title is no longer in the catalogue.';
    default:
      return 'The hold could not be placed. Please ask at the library.';
  }
}
