// The circulation operations of /soap/patrons through a SOAP client nobody wrote for Carrel
// (python3-zeep): every answer is the one REST gives for the same records, a refusal of the rules is
// REST's fault, a bad argument names its member, and a key without the permission gets REST's 403.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { FixedClock } from '../../src/shared/calendar.ts';
import { assertRefused } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, addItem, addPatron, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';
import { only, zeep } from '../helpers/zeep.ts';

type Answer = { statusCode: number; json(): any; body: string };

/**
 * zeep's answer read as REST's JSON: the members zeep fills with None because the answer left them
 * out are dropped, and the numbers the XSD calls xs:decimal (which zeep reads as Decimal, printed as
 * text) are numbers again; an empty text, which the door writes as an empty element (<note/>) and
 * zeep reads as None, is empty again. Only where REST has the member, so anything SOAP adds still shows.
 */
function asRest(soap: unknown, rest: unknown): unknown {
  if (typeof rest === 'number' && typeof soap === 'string') return Number(soap);
  if (rest === '' && soap === null) return '';
  if (Array.isArray(soap)) return soap.map((value, i) => asRest(value, Array.isArray(rest) ? rest[i] : undefined));
  if (soap && typeof soap === 'object') {
    const restObject = rest && typeof rest === 'object' ? (rest as Record<string, unknown>) : {};
    return Object.fromEntries(
      Object.entries(soap)
        .filter(([name, value]) => value !== null || name in restObject)
        .map(([name, value]) => [name, asRest(value, restObject[name])]),
    );
  }
  return soap;
}

function assertSame(soap: { ok?: unknown; fault?: unknown }, rest: Answer): void {
  assert.equal(rest.statusCode, 200, rest.body);
  assert.ok('ok' in soap, JSON.stringify(soap));
  assert.deepEqual(asRest(soap.ok, rest.json()), rest.json());
}

/** A fault carries exactly REST's error body. */
function assertSameFault(soap: { fault?: { detail: unknown } }, rest: Answer): void {
  assert.ok(soap.fault, JSON.stringify(soap));
  assert.ok(rest.statusCode >= 400, rest.body);
  assert.deepEqual(soap.fault.detail, rest.json());
}

describe(`SOAP patron circulation operations through zeep on ${ENGINE}`, () => {
  let t: TestApp;
  let host: string;
  let wsdl: string;
  let adminToken: string;
  const clock = new FixedClock('2026-11-02');
  const keys: Record<'all' | 'reader' | 'validator', { key: string; secret: string }> = {} as never;
  let n = 0;

  before(async () => {
    t = await createTestApp({}, { clock });
    await setUpLibrary(t.testDb.db);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    host = `127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    wsdl = `http://${host}/soap/patrons?wsdl`;
    adminToken = await bearer(t, ['all']);
    keys.all = await t.services.auth.createKey('soap circulation', ['all'], 0);
    keys.reader = await t.services.auth.createKey('soap reader', ['Patrons_Read'], 0);
    keys.validator = await t.services.auth.createKey('soap validator', ['Patrons_Validate'], 0);
  });
  after(() => t.close());
  beforeEach(async () => {
    clock.set('2026-11-02');
    await t.testDb.db.query('update circulation_rules set renewals = 1, loan_days = 21');
  });

  /** REST as the same host the SOAP client reached, so that the links in both answers agree. */
  const rest = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = adminToken): Promise<Answer> =>
    t.app.inject({
      method,
      url,
      headers: { authorization: token, host },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  /** Runs a zeep script as the key named, against /soap/patrons; answers its one out() line. */
  const soap = async (who: keyof typeof keys, script: string) =>
    only(await zeep({ wsdl, ...keys[who] }, `s = service(client())\n${script}`));

  /** A record's id: the last part of its link. */
  const idOf = (link: unknown) => String(link).split('/').pop()!;

  async function book(): Promise<{ bib: string; item: string; barcode: string }> {
    const db = t.testDb.db;
    const barcode = `SC-${++n}`;
    const bib = await addBib(db, `Circulated ${n}`);
    return { bib, item: await addItem(db, bib, 'mn', '-', barcode), barcode };
  }

  /** A new patron with a new book lent on 2026-11-02. */
  async function lend(): Promise<{ patron: string; bib: string; checkout: string }> {
    const patron = await addPatron(t.testDb.db);
    const { bib, barcode } = await book();
    const lent = await rest('POST', `/v6/patrons/${patron}/checkouts`, { itemBarcode: barcode });
    assert.equal(lent.statusCode, 200, lent.body);
    return { patron, bib, checkout: idOf(lent.json().link) };
  }

  it('PlaceHold and PatronHolds answer what REST shows; a hold the rules refuse is REST’s fault', async () => {
    const patron = await addPatron(t.testDb.db);
    const { bib, item } = await book();
    const run = await soap(
      'all',
      `placed = call(s, 'PlaceHold', patronId='${patron}', recordType='b', recordNumber='${bib}', pickupLocation='br', neededBy='2027-01-31', note='For the reading group')
again = call(s, 'PlaceHold', patronId='${patron}', recordType='b', recordNumber='${bib}', pickupLocation='mn')
stacks = call(s, 'PlaceHold', patronId='${patron}', recordType='i', recordNumber='${item}', pickupLocation='st')
out(placed=placed, again=again, stacks=stacks, holds=call(s, 'PatronHolds', patronId='${patron}'))`,
    );
    const holdId = idOf(run.placed.ok.id);
    const shown = await rest('GET', `/v6/patrons/holds/${holdId}`);
    assertSame(run.placed, shown);
    assert.equal(shown.json().id, `http://${host}/v6/patrons/holds/${holdId}`);
    assert.equal(shown.json().record, `http://${host}/v6/bibs/${bib}`);
    assert.deepEqual(shown.json().pickupLocation, { code: 'br', name: 'Riverside' });
    assert.equal(shown.json().notNeededAfterDate, '2027-01-31');
    assert.equal(shown.json().note, 'For the reading group');
    // The same request twice, and a pickup location that is not one: the numbers and words REST answers.
    const twice = await rest('POST', `/v6/patrons/${patron}/holds/requests`, {
      recordType: 'b',
      recordNumber: Number(bib),
      pickupLocation: 'mn',
    });
    assertRefused(twice, 409, 132);
    assertSameFault(run.again, twice);
    const stacks = await rest('POST', `/v6/patrons/${patron}/holds/requests`, {
      recordType: 'i',
      recordNumber: Number(item),
      pickupLocation: 'st',
    });
    assert.equal(stacks.json().code, 132, stacks.body);
    assertSameFault(run.stacks, stacks);
    const holds = await rest('GET', `/v6/patrons/${patron}/holds`);
    assert.equal(holds.json().total, 1);
    assertSame(run.holds, holds);
  });

  it('CancelHold cancels as DELETE does; PatronHolds takes inactive, fields and paging as REST', async () => {
    const patron = await addPatron(t.testDb.db);
    const [first, second] = [await book(), await book()];
    const ids: string[] = [];
    for (const { bib } of [first, second]) {
      assert.equal(
        (await rest('POST', `/v6/patrons/${patron}/holds/requests`, { recordType: 'b', recordNumber: Number(bib), pickupLocation: 'mn' }))
          .statusCode,
        204,
      );
    }
    for (const entry of (await rest('GET', `/v6/patrons/${patron}/holds`)).json().entries) ids.push(idOf(entry.id));
    const run = await soap(
      'all',
      `cancelled = call(s, 'CancelHold', holdId='${ids[0]}')
out(cancelled=cancelled, again=call(s, 'CancelHold', holdId='${ids[0]}'),
    active=call(s, 'PatronHolds', patronId='${patron}', fields='status,record'),
    all=call(s, 'PatronHolds', patronId='${patron}', inactive=True, fields='status,record'),
    second=call(s, 'PatronHolds', patronId='${patron}', inactive=True, limit=1, offset=1))`,
    );
    // zeep answers a response of one member as that member: { cancelled: true }.
    assert.equal(run.cancelled.ok, true);
    assert.deepEqual((await rest('GET', `/v6/patrons/holds/${ids[0]}?fields=status`)).json().status, {
      code: 'c',
      name: 'Hold cancelled.',
    });
    const again = await rest('DELETE', `/v6/patrons/holds/${ids[0]}`);
    assertRefused(again, 404, 107);
    assertSameFault(run.again, again);
    const active = await rest('GET', `/v6/patrons/${patron}/holds?fields=status,record`);
    assert.equal(active.json().total, 1);
    assertSame(run.active, active);
    const all = await rest('GET', `/v6/patrons/${patron}/holds?inactive=true&fields=status,record`);
    assert.equal(all.json().total, 2);
    assertSame(run.all, all);
    assertSame(run.second, await rest('GET', `/v6/patrons/${patron}/holds?inactive=true&limit=1&offset=1`));
  });

  it('PatronCheckouts and Renew answer what REST shows; past the rule’s renewals, REST’s fault', async () => {
    const { patron, checkout } = await lend();
    clock.set('2026-11-10');
    const run = await soap(
      'all',
      `renewed = call(s, 'Renew', checkoutId='${checkout}', statgroup=12)
out(renewed=renewed, again=call(s, 'Renew', checkoutId='${checkout}'), list=call(s, 'PatronCheckouts', patronId='${patron}'),
    some=call(s, 'PatronCheckouts', patronId='${patron}', fields='dueDate,numberOfRenewals'))`,
    );
    // Renewal answers the whole checkout, as REST's renewal does.
    const all = 'id,patron,item,barcode,dueDate,callNumber,numberOfRenewals,outDate';
    const shown = await rest('GET', `/v6/patrons/checkouts/${checkout}?fields=${all}`);
    assertSame(run.renewed, shown);
    assert.equal(shown.json().dueDate, '2026-12-01');
    assert.equal(shown.json().numberOfRenewals, 1);
    const again = await rest('POST', `/v6/patrons/checkouts/${checkout}/renewal`);
    assertRefused(again, 409, 132, 11);
    assertSameFault(run.again, again);
    assertSame(run.list, await rest('GET', `/v6/patrons/${patron}/checkouts`));
    assertSame(run.some, await rest('GET', `/v6/patrons/${patron}/checkouts?fields=dueDate,numberOfRenewals`));
    const [renewal] = await t.testDb.db.query<{ stat_group: number }>(
      `select stat_group from circ_transactions where op_code = 'r' and checkout_id = $1`,
      [checkout],
    );
    assert.equal(renewal?.stat_group, 12);
  });

  it('PatronFines and PayFine answer what REST shows; paying more than is owed is REST’s fault and pays nothing', async () => {
    const patron = await addPatron(t.testDb.db);
    const fines: string[] = [];
    for (const amount of [250, 75]) {
      const charged = await rest('POST', `/v6/patrons/${patron}/fines/charge`, { amount, reason: `Charge ${amount}`, location: 'mn' });
      assert.equal(charged.statusCode, 200, charged.body);
      fines.push(idOf(charged.json().link));
    }
    const before = await rest('GET', `/v6/patrons/${patron}/fines`);
    const run = await soap(
      'all',
      `before = call(s, 'PatronFines', patronId='${patron}')
paid = call(s, 'PayFine', patronId='${patron}', payments=[{'amount': 100, 'paymentType': 1, 'invoiceNumber': '${fines[0]}'}, {'amount': 75, 'paymentType': 2, 'invoiceNumber': '${fines[1]}'}])
over = call(s, 'PayFine', patronId='${patron}', payments=[{'amount': 10, 'paymentType': 1, 'invoiceNumber': '${fines[0]}'}, {'amount': 151, 'paymentType': 1, 'invoiceNumber': '${fines[0]}'}])
out(before=before, paid=paid, over=over, after=call(s, 'PatronFines', patronId='${patron}', fields='itemCharge,paidAmount,invoiceNumber'))`,
    );
    assertSame(run.before, before);
    assert.equal(before.json().total, 2);
    assert.equal(run.paid.ok, true);
    const over = await rest('POST', `/v6/patrons/${patron}/fines/payment`, {
      payments: [
        { amount: 10, paymentType: 1, invoiceNumber: fines[0] },
        { amount: 151, paymentType: 1, invoiceNumber: fines[0] },
      ],
    });
    assertRefused(over, 400, 108);
    assertSameFault(run.over, over);
    const after = await rest('GET', `/v6/patrons/${patron}/fines?fields=itemCharge,paidAmount,invoiceNumber`);
    // The second fine is paid off and no longer owed; the first is paid 1.00 of 2.50, the refused payment none.
    assert.deepEqual(after.json().entries, [
      { id: `http://${host}/v6/patrons/fines/${fines[0]}`, itemCharge: 2.5, paidAmount: 1, invoiceNumber: Number(fines[0]) },
    ]);
    assertSame(run.after, after);
    assert.equal((await rest('GET', `/v6/patrons/${patron}?fields=moneyOwed`)).json().moneyOwed, '1.50');
  });

  it('a bad argument is a fault naming the member, with the numbers REST answers', async () => {
    const { patron, bib, checkout } = await lend();
    const run = await soap(
      'all',
      `out(letters=call(s, 'PatronHolds', patronId='12ab'),
    note=call(s, 'PlaceHold', patronId='${patron}', recordType='b', recordNumber='${bib}', pickupLocation='mn', note='x' * 501),
    kind=call(s, 'PlaceHold', patronId='${patron}', recordType='q', recordNumber='${bib}', pickupLocation='mn'),
    statgroup=call(s, 'Renew', checkoutId='${checkout}', statgroup=1000),
    limit=call(s, 'PatronCheckouts', patronId='${patron}', limit=0),
    fields=call(s, 'PatronFines', patronId='${patron}', fields='itemCharge,colour'),
    amount=call(s, 'PayFine', patronId='${patron}', payments=[{'amount': 0, 'paymentType': 1, 'invoiceNumber': '1'}]))`,
    );
    /** The fault has REST's numbers, and its description names the member as SOAP calls it. */
    const assertNamed = (fault: { detail: Record<string, unknown> } | undefined, restAnswer: Answer, member: RegExp) => {
      assert.ok(fault, 'a fault');
      const { description, ...numbers } = fault.detail;
      const { code, specificCode, httpStatus, name } = restAnswer.json();
      assert.deepEqual(numbers, { code, specificCode, httpStatus, name }, restAnswer.body);
      assert.match(String(description), member);
    };
    /**
     * What REST takes in its query (statgroup, limit) a SOAP operation takes in its body, so a value
     * out of range is the fault of a bad body member (126), where REST answers a bad parameter (108).
     */
    const assertBadMember = (fault: { detail: Record<string, unknown> } | undefined, restAnswer: Answer, member: RegExp) => {
      assertRefused(restAnswer, 400, 108);
      assert.ok(fault, 'a fault');
      const { description, ...numbers } = fault.detail;
      assert.deepEqual(numbers, { code: 126, specificCode: 0, httpStatus: 400, name: 'Request validation failed' });
      assert.match(String(description), member);
    };
    assertNamed(run.letters.fault, await rest('GET', '/v6/patrons/12ab/holds'), /^patronId: "12ab" is not a record id/);
    const longNote = await rest('POST', `/v6/patrons/${patron}/holds/requests`, {
      recordType: 'b',
      recordNumber: Number(bib),
      pickupLocation: 'mn',
      note: 'x'.repeat(501),
    });
    assertNamed(run.note.fault, longNote, /^PlaceHold\.note /);
    assertSameFault(
      run.kind,
      await rest('POST', `/v6/patrons/${patron}/holds/requests`, { recordType: 'q', recordNumber: Number(bib), pickupLocation: 'mn' }),
    );
    assertBadMember(
      run.statgroup.fault,
      await rest('POST', `/v6/patrons/checkouts/${checkout}/renewal?statgroup=1000`),
      /^Renew\.statgroup /,
    );
    assertBadMember(run.limit.fault, await rest('GET', `/v6/patrons/${patron}/checkouts?limit=0`), /^PatronCheckouts\.limit /);
    assertSameFault(run.fields, await rest('GET', `/v6/patrons/${patron}/fines?fields=itemCharge,colour`));
    assertSameFault(
      run.amount,
      await rest('POST', `/v6/patrons/${patron}/fines/payment`, { payments: [{ amount: 0, paymentType: 1, invoiceNumber: '1' }] }),
    );
    // Nothing was placed or renewed.
    assert.equal((await rest('GET', `/v6/patrons/${patron}/holds?inactive=true`)).json().total, 0);
    assert.equal((await rest('GET', `/v6/patrons/checkouts/${checkout}?fields=numberOfRenewals`)).json().numberOfRenewals, 0);
  });

  it('a key without the permission gets REST’s 403 numbers for each operation, and nothing is written', async () => {
    const { patron, bib, checkout } = await lend();
    const fine = idOf((await rest('POST', `/v6/patrons/${patron}/fines/charge`, { amount: 100 })).json().link);
    const other = await book();
    await rest('POST', `/v6/patrons/${patron}/holds/requests`, { recordType: 'b', recordNumber: Number(other.bib), pickupLocation: 'mn' });
    const hold = idOf((await rest('GET', `/v6/patrons/${patron}/holds`)).json().entries[0].id);
    // Patrons_Read reads holds, checkouts and fines but writes none of them.
    const reader = await soap(
      'reader',
      `out(place=call(s, 'PlaceHold', patronId='${patron}', recordType='b', recordNumber='${bib}', pickupLocation='mn'),
    cancel=call(s, 'CancelHold', holdId='${hold}'), renew=call(s, 'Renew', checkoutId='${checkout}'),
    pay=call(s, 'PayFine', patronId='${patron}', payments=[{'amount': 100, 'paymentType': 1, 'invoiceNumber': '${fine}'}]),
    holds=call(s, 'PatronHolds', patronId='${patron}'), checkouts=call(s, 'PatronCheckouts', patronId='${patron}'),
    fines=call(s, 'PatronFines', patronId='${patron}'))`,
    );
    const readerToken = await bearer(t, ['Patrons_Read']);
    const restPlace = await rest(
      'POST',
      `/v6/patrons/${patron}/holds/requests`,
      { recordType: 'b', recordNumber: Number(bib), pickupLocation: 'mn' },
      readerToken,
    );
    assertRefused(restPlace, 403, 116);
    assertSameFault(reader.place, restPlace);
    assertSameFault(reader.cancel, await rest('DELETE', `/v6/patrons/holds/${hold}`, undefined, readerToken));
    assertSameFault(reader.renew, await rest('POST', `/v6/patrons/checkouts/${checkout}/renewal`, undefined, readerToken));
    assertSameFault(
      reader.pay,
      await rest(
        'POST',
        `/v6/patrons/${patron}/fines/payment`,
        { payments: [{ amount: 100, paymentType: 1, invoiceNumber: fine }] },
        readerToken,
      ),
    );
    for (const read of ['holds', 'checkouts', 'fines']) assert.ok('ok' in reader[read], JSON.stringify(reader[read]));
    // Patrons_Validate reads none of them.
    const validator = await soap(
      'validator',
      `out(holds=call(s, 'PatronHolds', patronId='${patron}'), checkouts=call(s, 'PatronCheckouts', patronId='${patron}'),
    fines=call(s, 'PatronFines', patronId='${patron}'))`,
    );
    const validatorToken = await bearer(t, ['Patrons_Validate']);
    for (const [name, url] of [
      ['holds', `/v6/patrons/${patron}/holds`],
      ['checkouts', `/v6/patrons/${patron}/checkouts`],
      ['fines', `/v6/patrons/${patron}/fines`],
    ] as const) {
      const refused = await rest('GET', url, undefined, validatorToken);
      assertRefused(refused, 403, 116);
      assertSameFault(validator[name], refused);
    }
    const holds = (await rest('GET', `/v6/patrons/${patron}/holds?inactive=true&fields=status`)).json();
    assert.deepEqual(
      holds.entries.map((h: { status: { code: string } }) => h.status.code),
      ['0'],
    );
    assert.equal((await rest('GET', `/v6/patrons/checkouts/${checkout}?fields=numberOfRenewals`)).json().numberOfRenewals, 0);
    assert.equal((await rest('GET', `/v6/patrons/${patron}/fines?fields=paidAmount`)).json().entries[0].paidAmount, 0);
  });
});
