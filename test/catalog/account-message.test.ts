// The account page's message after one of its forms, read from the redirect's address: only the
// patron's own holds and loans are named, so an address made up with another patron's ids, or with
// codes that are not numbers, says nothing of them. The holds' form names its hold by the one
// button pressed: a form naming none, or several, names no hold.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Account } from '../../src/catalog/patron/account.ts';
import { accountMessage, pressedHoldButton } from '../../src/catalog/patron/routes.ts';

const mine: Account = {
  name: 'Lovelace, Ada',
  pickupLocations: [],
  details: { email: '', phone: '' },
  history: { on: false, entries: [] },
  holds: [
    {
      id: '11',
      bibId: '1',
      title: 'Middlemarch',
      state: '0',
      frozen: false,
      pickupCode: 'ea',
      pickupName: 'East',
      pickupBy: undefined,
      priority: 1,
      queueLength: 1,
    },
  ],
  loans: [
    { id: '21', title: 'Emma', bibId: '2', callNumber: null, due: '2027-01-04', overdue: false },
    { id: '22', title: '', bibId: undefined, callNumber: null, due: '2026-12-20', overdue: false },
  ],
  fines: [],
  moneyOwed: '0.00',
};

describe('the account page’s message after a form', () => {
  it('names the patron’s own renewed loan and its new due date', () => {
    assert.deepEqual(accountMessage({ done: 'renewed', loan: '21' }, mine), {
      kind: 'status',
      text: 'Emma is renewed: now due 4 January 2027.',
    });
  });

  it('says nothing of a loan or hold that is not the patron’s', () => {
    assert.equal(accountMessage({ done: 'renewed', loan: '99' }, mine), undefined);
    assert.equal(accountMessage({ refused: '11', loan: '99' }, mine), undefined);
    assert.equal(accountMessage({ done: 'moved', hold: '99' }, mine), undefined);
  });

  it('puts a refusal in the rules’ words, and an unknown code in general ones', () => {
    assert.deepEqual(accountMessage({ refused: '11', loan: '21' }, mine), {
      kind: 'alert',
      text: 'Emma was not renewed. It has been renewed as many times as the library allows. Please return it by its due date.',
    });
    assert.equal(
      accountMessage({ refused: '2', loan: '21' }, mine)?.text,
      'Emma was not renewed. Your card is blocked, so loans cannot be renewed. Please ask at the library.',
    );
    assert.equal(
      accountMessage({ refused: '1', loan: '21' }, mine)?.text,
      'Emma was not renewed. Your library card has expired. Please renew it at the library to renew loans.',
    );
    assert.equal(accountMessage({ refused: '8', hold: '11' }, mine)?.kind, 'alert');
    assert.deepEqual(accountMessage({ refused: '999', loan: '22' }, mine), {
      kind: 'alert',
      text: 'Untitled was not renewed. It could not be renewed. Please ask at the library.',
    });
    assert.equal(accountMessage({ refused: '1e3', loan: '21' }, mine), undefined);
  });

  it('counts renew all’s renewals among the patron’s own loans only, with each refusal', () => {
    assert.deepEqual(accountMessage({ done: 'renewedall', renewed: '21,99', notrenewed: '22.12,98.11,21.x' }, mine), {
      kind: 'status',
      text: '1 of 2 loans are renewed. Untitled was not renewed. Another reader has a hold on it, so it cannot be renewed. Please return it by its due date.',
    });
    assert.deepEqual(accountMessage({ done: 'renewedall', renewed: '21', notrenewed: '' }, mine), {
      kind: 'status',
      text: 'All your loans are renewed.',
    });
  });

  it('says once why renew all renewed nothing when the patron’s standing refused every loan; a loan’s own refusal per loan', () => {
    assert.deepEqual(accountMessage({ done: 'renewedall', renewed: '', notrenewed: '21.2,22.2' }, mine), {
      kind: 'status',
      text: 'None of your loans could be renewed. Your card is blocked, so loans cannot be renewed. Please ask at the library.',
    });
    assert.equal(
      accountMessage({ done: 'renewedall', renewed: '', notrenewed: '21.1,22.1' }, mine)?.text,
      'None of your loans could be renewed. Your library card has expired. Please renew it at the library to renew loans.',
    );
    assert.equal(
      accountMessage({ done: 'renewedall', renewed: '', notrenewed: '21.12,22.11' }, mine)?.text,
      'None of your loans could be renewed. Emma was not renewed. Another reader has a hold on it, so it cannot be renewed. Please return it by its due date. ' +
        'Untitled was not renewed. It has been renewed as many times as the library allows. Please return it by its due date.',
    );
  });

  it('moves a hold to the library it names', () => {
    assert.deepEqual(accountMessage({ done: 'moved', hold: '11' }, mine), { kind: 'status', text: 'Your hold will wait for you at East.' });
  });

  it('reads the hold from the one button of the holds’ form pressed, and none from a form naming none or several', () => {
    assert.deepEqual(pressedHoldButton({ csrf: 't', freeze: '11' }), { button: 'freeze', id: '11' });
    assert.deepEqual(pressedHoldButton({ csrf: 't', unfreeze: '11' }), { button: 'unfreeze', id: '11' });
    assert.deepEqual(pressedHoldButton({ csrf: 't', cancel: '11' }), { button: 'cancel', id: '11' });
    assert.equal(pressedHoldButton({ csrf: 't' }).id, '');
    assert.equal(pressedHoldButton({ csrf: 't', cancel: '11', freeze: '12' }).id, '');
    assert.equal(pressedHoldButton({ csrf: 't', cancel: ['11', '12'] }).id, '');
  });
});
