// A kiosk written with node-sip2 (the `sip2` npm package) against Carrel's SIP2 door: first the
// port in test/helpers/node-sip2.ts is held to node-sip2's own test suite (the requests it builds,
// byte for byte, and what it reads from its sample answers), then a whole self-check conversation
// goes through a real socket, each answer read the way node-sip2 reads it and checked against
// what the REST API says of the same patron and items.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SipDoor } from '../../src/sip2/server.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, addItem, setUpLibrary } from '../helpers/circulation.ts';
import { adminSql, ENGINE } from '../helpers/db.ts';
import {
  BlockPatronRequest,
  CheckinRequest,
  CheckoutRequest,
  EndPatronSessionRequest,
  FeePaidRequest,
  getDateTime,
  ItemInformationRequest,
  LoginRequest,
  parseResponse,
  PatronInformationRequest,
  PatronStatusRequest,
  RequestResendRequest,
  SCStatusRequest,
  Sip2Connection,
} from '../helpers/node-sip2.ts';
import { openTestDoor } from '../helpers/sip2.ts';
import { bearer } from '../helpers/tokens.ts';

const ymd = (d: Date) => [d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds()];

describe('the node-sip2 port, held to node-sip2’s own test suite', () => {
  it('builds each request as node-sip2 does (test/requests.js)', () => {
    const login = new LoginRequest('LoginUserID', 'LoginPassword', 'LocationCode');
    login.sequence = 5;
    assert.equal(login.getMessage(), '9300CNLoginUserID|COLoginPassword|CPLocationCode|AY5AZEC7B\r\n');

    const status = new SCStatusRequest('0', '40', '1.00');
    status.sequence = 1;
    assert.equal(status.getMessage(), '990401.00|AY1AZFC59\r\n');

    const resend = new RequestResendRequest();
    resend.errorDetection = false;
    assert.equal(resend.getMessage(), '97\r\n');

    const patronStatus = new PatronStatusRequest();
    patronStatus.sequence = 2;
    patronStatus.institutionId = 'id_21';
    patronStatus.patronIdentifier = '104000000105';
    patronStatus.transactionDate = getDateTime(new Date(1996, 1, 12, 10, 2, 39));
    assert.equal(patronStatus.getMessage(), '2300119960212    100239AOid_21|AA104000000105|AC|AD|AY2AZF271\r\n');

    const information = new PatronInformationRequest('hold', 1, 5);
    information.sequence = 1;
    information.institutionId = 'InstitutionID';
    information.patronIdentifier = 'PatronID';
    information.transactionDate = getDateTime(new Date(1998, 6, 23, 9, 19, 5));
    assert.equal(information.getMessage(), '6300119980723    091905Y         AOInstitutionID|AAPatronID|BP00001|BQ00005|AY1AZEA83\r\n');

    const block = new BlockPatronRequest(false, 'CARD BLOCK TEST');
    block.patronIdentifier = '104000000705';
    block.sequence = 2;
    block.transactionDate = getDateTime(new Date(1996, 1, 13, 16, 23, 52));
    assert.equal(block.getMessage(), '01N19960213    162352AO|ALCARD BLOCK TEST|AA104000000705|AC|AY2AZF02F\r\n');

    const item = new ItemInformationRequest('ItemBook');
    item.sequence = 1;
    item.institutionId = 'Certification Institute ID';
    item.transactionDate = getDateTime(new Date(1998, 6, 23, 10, 0, 0));
    assert.equal(item.getMessage(), '1719980723    100000AOCertification Institute ID|ABItemBook|AY1AZEBEB\r\n');

    const checkout = new CheckoutRequest(true, getDateTime(new Date(1996, 1, 12, 10, 5, 14)), '000000000005792');
    checkout.patronIdentifier = '104000000105';
    checkout.sequence = 3;
    checkout.transactionDate = getDateTime(new Date(1996, 1, 12, 10, 5, 14));
    assert.equal(checkout.getMessage(), '11YN19960212    10051419960212    100514AO|AA104000000105|AB000000000005792|AC|AY3AZEDC2\r\n');

    const checkin = new CheckinRequest(null, 'Certification Terminal Location', 'CheckInBook');
    checkin.institutionId = 'Certification Institute ID';
    checkin.terminalPassword = 'TPWord';
    checkin.sequence = 2;
    checkin.cancel = false;
    checkin.transactionDate = getDateTime(new Date(1998, 7, 21, 8, 57, 21));
    assert.equal(
      checkin.getMessage(),
      '09N19980821    085721                  APCertification Terminal Location|AOCertification Institute ID|ABCheckInBook|ACTPWord|BIN|AY2AZD6A5\r\n',
    );

    const fee = new FeePaidRequest('04', '01', 'USD', '111.11', false, 'TransactionID');
    fee.sequence = 2;
    fee.institutionId = 'Certification Institute ID';
    fee.patronIdentifier = 'PatronID';
    fee.transactionDate = getDateTime(new Date(1998, 6, 23, 9, 32, 11));
    assert.equal(
      fee.getMessage(),
      '3719980723    0932110401USDBV111.11|AOCertification Institute ID|AAPatronID|BKTransactionID|AY2AZE1EF\r\n',
    );

    const end = new EndPatronSessionRequest();
    end.sequence = 3;
    end.institutionId = 'Certification Institute ID';
    end.patronIdentifier = 'PatronID';
    end.transactionDate = getDateTime(new Date(1998, 6, 23, 9, 40, 14));
    assert.equal(end.getMessage(), '3519980723    094014AOCertification Institute ID|AAPatronID|AY3AZEBF2\r\n');
  });

  it('reads answers as node-sip2 does (test/responses.js)', () => {
    assert.equal(parseResponse('941AY3AZFDFA\r\n', '94').ok, true);

    const status = parseResponse(
      '98YYYNYN01000319960214    1447001.00AOID_21|AMCentral Library|ANtty30|AFScreen Message|AGPrint Message|AY1AZDA74\r\n',
      '98',
    );
    assert.deepEqual(
      [status.onLineStatus, status.checkinOk, status.ACSRenewalPolicy, status.timeoutPeriod, status.retriesAllowed],
      [true, true, false, 10, 3],
    );
    assert.deepEqual(ymd(status.dateTimeSync), [1996, 2, 14, 14, 47, 0]);
    assert.deepEqual([status.protocolVersion, status.institutionId, status.libraryName], ['1.00', 'ID_21', 'Central Library']);
    assert.equal(status.supportedMessages.checkout, false); // no BX: nothing said supported
    assert.deepEqual([status.terminalLocation, status.screenMessage, status.printLine], ['tty30', ['Screen Message'], ['Print Message']]);

    const patron = parseResponse(
      '24              00119960212    100239AO|AA104000000105|AEJohn Doe|AFScreen Message|AGCheck Print message|AY2AZDFC4\r\n',
      '24',
    );
    assert.equal(patron.status.chargePrivilegesDenied, false);
    assert.deepEqual(
      [patron.language, patron.patronIdentifier, patron.personalName, patron.feeAmount],
      ['english', '104000000105', 'John Doe', null],
    );
    assert.deepEqual([patron.screenMessage, patron.printLine, patron.sequence], [['Screen Message'], ['Check Print message'], 2]);

    const information = parseResponse(
      '64              00119980723 104009000100000002000100020000AOInstitutionID for PatronID|AAPatronID|AEPatron Name|BZ0002|CA0003|CB0010|BLY|ASItemID1 for PatronID|AUChargeItem1|AUChargeItem2|BDHome Address|BEE Mail Address|BFHome Phone for PatronID|AFScreenMessage 0 for PatronID, Language 1|AFScreen Message 1 for PatronID, Language 1|AFScreen Message 2 for PatronID, Language 1|AGPrint Line 0 for PatronID, Language 1|AGPrint Line 1 for PatronID, Language 1|AGPrint Line 2 for PatronID, language 1|AY4AZ608F\r\n',
      '64',
    );
    assert.deepEqual(
      [information.holdItemsCount, information.overdueItemsCount, information.chargedItemsCount, information.fineItemsCount],
      [1000, 0, 2000, 1000],
    );
    assert.deepEqual([information.recallItemsCount, information.unavailableHoldsCount], [1000, 0]);
    assert.deepEqual(
      [information.holdItemsLimit, information.overdueItemsLimit, information.chargedItemsLimit, information.validPatron],
      [2, 3, 10, true],
    );
    assert.deepEqual([information.items, information.itemType, information.itemTypeId], [['ChargeItem1', 'ChargeItem2'], 'CHARGED', 'AU']);
    assert.deepEqual(
      [information.homeAddress, information.email, information.phone, information.screenMessage?.length, information.sequence],
      ['Home Address', 'E Mail Address', 'Home Phone for PatronID', 3, 4],
    );

    const item = parseResponse(
      '1808000119980723    115615CF00000|ABItemBook|AJTitle For Item Book|CK003|AQPermanent Location for ItemBook, Language 1|APCurrent Location ItemBook|CHFree-form text with new item property|AY0AZC05B\r\n',
      '18',
    );
    assert.deepEqual([item.circulationStatus, item.securityMarker, item.feeType, item.holdQueueLength], ['08', '00', '01', '00000']);
    assert.deepEqual(
      [item.dueDate, item.itemIdentifier, item.titleIdentifier, item.mediaType],
      [null, 'ItemBook', 'Title For Item Book', '003'],
    );
    assert.deepEqual([item.currentLocation, item.screenMessage, item.sequence], ['Current Location ItemBook', null, 0]);

    const checkout = parseResponse(
      '120NNY19960212    100514AO|AA104000000105|AB000000000005792|AJ|AH|AFItem cannot be charged : see help desk|AGItem can not be charged : see help desk|AY3AZD2A1\r\n',
      '12',
    );
    assert.deepEqual([checkout.ok, checkout.renewalOk, checkout.magneticMedia, checkout.desensitize], [false, false, false, true]);
    assert.deepEqual(
      [checkout.institutionId, checkout.itemIdentifier, checkout.dueDate, checkout.feeAmount],
      ['', '000000000005792', '', null],
    );
    assert.deepEqual(checkout.screenMessage, ['Item cannot be charged : see help desk']);

    const checkin = parseResponse(
      '101YNN19980821    085721AOCertification Institute ID|ABCheckInBook|AQPermanent Location for CheckinBook, Language 1|AJTitle For CheckinBook|AAGoodPatron1|CK001|CHCheckinBook Properties|CLsort bin A1|AFScreen Message for CheckInBook|AGPrint Line for CheckInBook|AY2AZA3FF\r\n',
      '10',
    );
    assert.deepEqual([checkin.ok, checkin.renewalOk, checkin.alert, checkin.patronIdentifier], [true, true, false, 'GoodPatron1']);
    assert.deepEqual(
      [checkin.titleIdentifier, checkin.itemProperties, checkin.sortBin],
      ['Title For CheckinBook', 'CheckinBook Properties', 'sort bin A1'],
    );

    const fee = parseResponse(
      '38Y19980723    111035AOInstitutionID for PatronID|AAPatronID|AFScreenMessage 0 for PatronID, Language 1|AGPrint Line 0 for PatronID, Language 1|AY6AZ9716\r\n',
      '38',
    );
    assert.deepEqual(
      [fee.paymentAccepted, fee.institutionId, fee.transactionId, fee.sequence],
      [true, 'InstitutionID for PatronID', null, 6],
    );
    assert.deepEqual(ymd(fee.transactionDate), [1998, 7, 23, 11, 10, 35]);

    const end = parseResponse(
      '36Y19980723    110658AOInstitutionID for PatronID|AAPatronID|AFScreenMessage 0 for PatronID, Language 1|AFScreen Message 1 for PatronID, Language 1|AFScreen Message 2 for PatronID, Language 1|AGPrint Line 0 for PatronID, Language 1|AGPrint Line 1 for PatronID, Language 1|AGPrint Line 2 for PatronID, language 1|AY5AZ970F\r\n',
      '36',
    );
    assert.deepEqual([end.endSession, end.patronIdentifier, end.screenMessage?.length, end.printLine?.length], [true, 'PatronID', 3, 3]);
  });
});

describe(`a node-sip2 kiosk on Carrel’s SIP2 door, on ${ENGINE}`, () => {
  const INSTITUTION = 'CARREL';
  let t: TestApp;
  let door: SipDoor;
  let token: string;
  let account: { name: string; password: string };
  let sequence = 0;
  const connections: Sip2Connection[] = [];

  /** A request as a node-sip2 user sends one: the institution (and the patron, their PIN) set, the next sequence number. */
  const ready = <R extends { institutionId: string; sequence: number; patronIdentifier: string; patronPassword: string }>(
    request: R,
    patron = '',
    pin = '',
  ): R => {
    request.institutionId = INSTITUTION;
    request.patronIdentifier = patron;
    request.patronPassword = pin;
    request.sequence = sequence = (sequence + 1) % 10;
    return request;
  };
  const kiosk = async () => {
    const connection = await Sip2Connection.connect(door.port);
    connections.push(connection);
    const login = parseResponse(await connection.send(ready(new LoginRequest(account.name, account.password, 'lobby')).getMessage()), '94');
    assert.equal(login.ok, true);
    return connection;
  };
  const rest = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: { authorization: token } })).json();
  const post = async (url: string, payload: object) => {
    const res = await t.app.inject({ method: 'POST', url, headers: { authorization: token }, payload });
    assert.ok(res.statusCode < 300, res.body);
    return res.body ? res.json<{ link?: string }>() : {};
  };
  const newPatron = async (barcode: string, name: string, pin: string) =>
    String(
      (await post('/v6/patrons', { names: [name], barcodes: [barcode], pin, emails: [`${barcode}@example.org`], homeLibraryCode: 'mn' }))
        .link,
    )
      .split('/')
      .pop()!;
  /** The loan's due date as a kiosk shows it (node-sip2 hands AH over as the text it reads). */
  const dueOf = async (patronId: string, itemBarcode: string) => {
    const itemId = (await t.services.items.byBarcode(itemBarcode))!.id;
    const loans = (await rest(`/v6/patrons/${patronId}/checkouts`)) as { entries: { item: string; dueDate: string }[] };
    const loan = loans.entries.find((e) => e.item.endsWith(`/items/${itemId}`));
    assert.ok(loan, `the REST API shows the loan of ${itemBarcode}`);
    return `${loan.dueDate.slice(0, 10).replaceAll('-', '')}    235959`;
  };

  before(async () => {
    t = await createTestApp();
    await setUpLibrary(t.testDb.db);
    token = await bearer(t, ['all']);
    account = await t.services.sipAccounts.create('node-kiosk', INSTITUTION, 'mn', 'all');
    door = await openTestDoor(t);
  });
  after(async () => {
    for (const c of connections) c.close();
    await door.close();
    await t.close();
  });

  it('logs in (a wrong password refused) and reads the SC status', async () => {
    const refused = await Sip2Connection.connect(door.port);
    connections.push(refused);
    assert.equal(parseResponse(await refused.send(ready(new LoginRequest(account.name, 'not-it', 'lobby')).getMessage()), '94').ok, false);

    const k = await kiosk();
    const request = ready(new SCStatusRequest());
    const status = parseResponse(await k.send(request.getMessage()), '98');
    assert.deepEqual([status.onLineStatus, status.checkinOk, status.checkoutOk, status.protocolVersion], [true, true, true, '2.00']);
    assert.deepEqual([status.institutionId, status.libraryName, status.sequence], [INSTITUTION, 'Carrel Test Library', request.sequence]);
    const s = status.supportedMessages;
    assert.deepEqual(
      [s.patronStatusRequest, s.checkout, s.checkin, s.patronInformation, s.feePaid, s.itemInformation, s.renew, s.patronEnable],
      [true, true, true, true, true, true, true, false],
    );
    assert.ok(!Number.isNaN(status.dateTimeSync.getTime()), 'a date node-sip2 can read');
  });

  it('reads a patron’s status: the PIN checked, an unknown card told apart', async () => {
    const k = await kiosk();
    await newPatron('NS-100', 'Woolf, Virginia', '4321');
    const ask = async (barcode: string, pin: string) => {
      const request = ready(new PatronStatusRequest(), barcode, pin);
      const answer = parseResponse(await k.send(request.getMessage()), '24');
      assert.equal(answer.sequence, request.sequence);
      return answer;
    };
    const good = await ask('NS-100', '4321');
    assert.deepEqual(
      [good.validPatron, good.validPatronPassword, good.personalName, good.patronIdentifier, good.institutionId, good.feeAmount],
      [true, true, 'Woolf, Virginia', 'NS-100', INSTITUTION, '0.00'],
    );
    assert.ok(
      Object.values(good.status).every((flag) => flag === false),
      'no privilege denied',
    );
    assert.equal(good.language, 'english');
    assert.equal((await ask('NS-100', '0000')).validPatronPassword, false);
    const unknown = await ask('NS-404', '4321');
    assert.deepEqual([unknown.validPatron, unknown.status.chargePrivilegesDenied], [false, true]);
    assert.ok(unknown.screenMessage?.[0], 'a message for the screen');
  });

  it('checks out, shows the loan in Patron Information and Item Information, checks in, and traps a hold', async () => {
    const k = await kiosk();
    const ada = await newPatron('NS-200', 'Lovelace, Ada', '1815');
    const bib = await addBib(t.testDb.db, 'Notes on the Analytical Engine');
    await addItem(t.testDb.db, bib, 'mn', '-', 'NS-ITEM-1');

    const out = ready(new CheckoutRequest(false, getDateTime(), 'NS-ITEM-1'), 'NS-200', '1815');
    const loan = parseResponse(await k.send(out.getMessage()), '12');
    assert.deepEqual(
      [loan.ok, loan.patronIdentifier, loan.itemIdentifier, loan.titleIdentifier, loan.sequence],
      [true, 'NS-200', 'NS-ITEM-1', 'Notes on the Analytical Engine', out.sequence],
    );
    assert.equal(loan.dueDate, await dueOf(ada, 'NS-ITEM-1'));

    const info = ready(new PatronInformationRequest('charged', 1, 5), 'NS-200', '1815');
    const patron = parseResponse(await k.send(info.getMessage()), '64');
    assert.deepEqual([patron.chargedItemsCount, patron.holdItemsCount, patron.items, patron.itemType], [1, 0, ['NS-ITEM-1'], 'CHARGED']);
    assert.deepEqual(
      [patron.validPatron, patron.validPatronPassword, patron.personalName, patron.email, patron.feeAmount],
      [true, true, 'Lovelace, Ada', 'NS-200@example.org', '0.00'],
    );

    const item = parseResponse(await k.send(ready(new ItemInformationRequest('NS-ITEM-1')).getMessage()), '18');
    assert.deepEqual(
      [item.circulationStatus, item.itemIdentifier, item.titleIdentifier],
      ['04', 'NS-ITEM-1', 'Notes on the Analytical Engine'],
    );
    assert.equal(item.dueDate, loan.dueDate);
    assert.equal(item.holdQueueLength, '00000');

    // Another patron asks for the title; the check-in traps the copy for them.
    const grace = await newPatron('NS-201', 'Hopper, Grace', '1906');
    await post(`/v6/patrons/${grace}/holds/requests`, { recordType: 'b', recordNumber: Number(bib), pickupLocation: 'mn' });
    const back = ready(new CheckinRequest(null, 'lobby', 'NS-ITEM-1'));
    back.cancel = false;
    const returned = parseResponse(await k.send(back.getMessage()), '10');
    assert.deepEqual([returned.ok, returned.alert, returned.itemIdentifier, returned.sequence], [true, true, 'NS-ITEM-1', back.sequence]);
    const holds = (await rest(`/v6/patrons/${grace}/holds`)) as { entries: { pickupByDate?: string }[] };
    assert.ok(holds.entries[0]?.pickupByDate, 'the REST hold shows pickupByDate');
    assert.equal(parseResponse(await k.send(ready(new ItemInformationRequest('NS-ITEM-1')).getMessage()), '18').circulationStatus, '08');

    // The copy waits for Grace: Ada cannot take it, and is told why.
    const again = ready(new CheckoutRequest(false, getDateTime(), 'NS-ITEM-1'), 'NS-200');
    const refused = parseResponse(await k.send(again.getMessage()), '12');
    assert.equal(refused.ok, false);
    assert.ok(refused.screenMessage?.[0], 'the reason for the screen');
    // Grace's Patron Information lists it among the holds ready.
    const hers = ready(new PatronInformationRequest('hold', 1, 5), 'NS-201');
    const graceInfo = parseResponse(await k.send(hers.getMessage()), '64');
    assert.equal(graceInfo.holdItemsCount, 1);
    assert.equal(graceInfo.itemType, 'HOLD');
  });

  it('gives the loan’s due day in Item Information whatever the database’s time zone', async () => {
    // East of Greenwich an item's due instant (midnight of the due day, in the session's time
    // zone) falls on the day before in UTC; the kiosk must still see the loan's own day.
    const zone = 'Pacific/Kiritimati'; // UTC+14
    if (t.testDb.url) {
      const name = new URL(t.testDb.url).pathname.slice(1);
      const admin = adminSql();
      try {
        await admin.unsafe(`alter database ${name} set timezone = '${zone}'`);
        await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name}`;
      } finally {
        await admin.end();
      }
      // Each pooled connection fails once when next used, then comes back with the new setting.
      let inZone = 0;
      for (let i = 0; i < 50 && inZone < 10; i++) {
        const answer = await t.testDb.db.query<{ TimeZone: string }>('show timezone').catch(() => []);
        inZone = answer[0]?.TimeZone === zone ? inZone + 1 : 0;
      }
    } else await t.testDb.db.query(`set timezone = '${zone}'`); // the embedded engine's one session
    assert.deepEqual([...(await t.testDb.db.query('show timezone'))], [{ TimeZone: zone }]);

    const k = await kiosk();
    const id = await newPatron('NS-400', 'Hypatia', '0415');
    const bib = await addBib(t.testDb.db, 'Commentary on Diophantus');
    await addItem(t.testDb.db, bib, 'mn', '-', 'NS-ITEM-4');
    const out = ready(new CheckoutRequest(false, getDateTime(), 'NS-ITEM-4'), 'NS-400');
    const loan = parseResponse(await k.send(out.getMessage()), '12');
    assert.equal(loan.dueDate, await dueOf(id, 'NS-ITEM-4'));
    assert.equal(parseResponse(await k.send(ready(new ItemInformationRequest('NS-ITEM-4')).getMessage()), '18').dueDate, loan.dueDate);
  });

  it('takes a fee payment, blocks a card, ends the session and resends its last answer', async () => {
    const k = await kiosk();
    const id = await newPatron('NS-300', 'Turing, Alan', '1912');
    await post(`/v6/patrons/${id}/fines/charge`, { amount: 375, reason: 'lost case' });
    const owed = Number((await rest(`/v6/patrons/${id}?fields=moneyOwed`)).moneyOwed);
    assert.ok(owed > 0);

    const fee = ready(new FeePaidRequest('01', '00', 'USD', owed.toFixed(2), false, 'TX-77'), 'NS-300');
    const paid = parseResponse(await k.send(fee.getMessage()), '38');
    assert.deepEqual([paid.paymentAccepted, paid.patronIdentifier, paid.transactionId], [true, 'NS-300', 'TX-77']);
    assert.equal(Number((await rest(`/v6/patrons/${id}?fields=moneyOwed`)).moneyOwed), 0);
    const twice = ready(new FeePaidRequest('01', '00', 'USD', '1.00', false, 'TX-78'), 'NS-300');
    assert.equal(parseResponse(await k.send(twice.getMessage()), '38').paymentAccepted, false); // nothing is owed now

    const block = ready(new BlockPatronRequest(true, 'Card kept by the kiosk'), 'NS-300');
    const blocked = parseResponse(await k.send(block.getMessage()), '24');
    assert.deepEqual([blocked.validPatron, blocked.status.chargePrivilegesDenied], [true, true]);
    assert.equal((await rest(`/v6/patrons/${id}?fields=blockInfo`)).blockInfo.code, 'm');

    const end = ready(new EndPatronSessionRequest(), 'NS-300');
    const ended = await k.send(end.getMessage());
    const endAnswer = parseResponse(ended, '36');
    assert.deepEqual([endAnswer.endSession, endAnswer.patronIdentifier, endAnswer.sequence], [true, 'NS-300', end.sequence]);
    assert.equal(await k.send(new RequestResendRequest().getMessage()), ended);
  });
});
