// The fields self-check kiosks and sorters read besides a loan's outcome, through a real socket,
// each checked against what the REST API says of the same records: valid patron (BL) and PIN (CQ)
// in every Checkout answer, the cases of Koha's and Evergreen's SIPServer t/03checkout.t (a known
// card with an unknown item, an unknown card with a known item); the patron who had the item (AA) in
// a Check-in answer, as t/08checkin.t reads it, and only for a patron the kiosk acts on; media type
// (CK, the item type's in the profile), item properties (CH, the item's message) and owner (BG, its
// branch's institution) in Checkout, Checkin, Renew and Item Information (t/11item_info.t); Item
// Information's circulation status for each of Sierra's item statuses; Patron Information's limits
// (CA, CC) from the profile's blocks. Fixed-length values as SIP2 2.00 writes them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SipDoor } from '../../src/sip2/server.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { DATE, fields, Kiosk, mainAndRiverside, openTestDoor } from '../helpers/sip2.ts';
import { bearer } from '../helpers/tokens.ts';

type Json = Record<string, unknown>;
const checkout = (card: string, item: string, pin?: string) =>
  `11YN20060329    203000                  AOCARREL|AA${card}|AB${item}|AC|${pin === undefined ? '' : `AD${pin}|`}`;
const checkin = (item: string) => `09N20060102    08423620060113    084235APUnder the bed|AOCARREL|AB${item}|ACterminal password|`;
const itemInformation = (item: string) => `1720060110    215612AOCARREL|AB${item}|`;
/** SIP2's due date as Carrel writes it: the loan's day, at the day's end. */
const sipDue = (dueDate: unknown) => `${String(dueDate).slice(0, 10).replaceAll('-', '')}    235959`;

describe(`the SIP2 fields kiosks read, checked against the records, on ${ENGINE}`, () => {
  let t: TestApp;
  let door: SipDoor;
  let token: string;
  let profile: Json;
  const accounts: Record<'own' | 'all', { name: string; password: string }> = {} as never;
  const patrons: Record<string, string> = {};
  const items: Record<string, string> = {};
  const kiosks: Kiosk[] = [];
  const kiosk = async (which: 'own' | 'all') => {
    const k = await Kiosk.connect(door.port);
    kiosks.push(k);
    assert.match(await k.ask(`9300CN${accounts[which].name}|CO${accounts[which].password}|`), /^941/);
    return k;
  };
  const rest = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: { authorization: token }, ...(payload ? { payload } : {}) });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.body ? res.json<Json>() : {};
  };
  /** An item as the REST API shows it: its type, location and message. */
  const item = async (barcode: string) => {
    const shown = await rest('GET', `/v6/items/${items[barcode]}?fields=itemType,location,varFields,status`);
    const message = (shown.varFields as { fieldTag: string; content: string }[]).find((v) => v.fieldTag === 'm')?.content;
    return { itemType: String(shown.itemType), location: (shown.location as { code: string }).code, message };
  };
  /** What the profile says of an item type and a location: the media type, the owning institution. */
  const mediaTypeOf = (itemType: string) =>
    (profile.itemTypes as { code: string; sip2MediaType?: string }[]).find((x) => x.code === itemType)?.sip2MediaType;
  const institutionOf = (location: string) =>
    (profile.branches as { institution?: string; locations: { code: string }[] }[]).find((b) =>
      b.locations.some((l) => l.code === location),
    )?.institution;
  const loanOf = async (who: string, barcode: string) => {
    const loans = (await rest('GET', `/v6/patrons/${patrons[who]}/checkouts`)).entries as { item: string; dueDate: string }[];
    return loans.find((l) => l.item.endsWith(`/items/${items[barcode]}`));
  };

  before(async () => {
    t = await createTestApp();
    token = await bearer(t, ['all']);
    const doc = await rest('GET', '/v6/library/profile');
    await rest('PUT', '/v6/library/profile', {
      ...doc,
      branches: mainAndRiverside(), // Riverside in no institution
      // Kit's media type as a number (as YAML reads an unquoted 010): '010'. Realia, a type of the
      // library's own, has none: no CK for its items.
      itemTypes: [
        ...(doc.itemTypes as Json[]).filter((x) => x.code !== 'kit'),
        { code: 'kit', name: 'Kit', sip2MediaType: 10 },
        { code: 'realia', name: 'Realia' },
      ],
      blocks: { moneyOwed: 12.5, overdueItems: 3 },
    });
    profile = await rest('GET', '/v6/library/profile');
    for (const [who, barcode, pin, home] of [
      ['Ada', 'PA-1', '1111', 'mn'],
      ['Bea', 'PB-1', '2222', 'br'],
    ] as const) {
      const made = await rest('POST', '/v6/patrons', { names: [`Reader, ${who}`], barcodes: [barcode], pin, homeLibraryCode: home });
      patrons[who] = String(made.link).split('/').pop()!;
    }
    for (const [barcode, itemType, where, more] of [
      ['DVD-1', 'dvd', 'mn', { messages: ['2 discs in the case'] }],
      ['BOOK-1', 'book', 'mn', {}],
      ['BOOK-2', 'book', 'mn', {}],
      ['KIT-1', 'kit', 'st', {}],
      ['REALIA-1', 'realia', 'br', {}],
    ] as const) {
      const bib = await addBib(t.testDb.db, `Title of ${barcode}`);
      const made = await rest('POST', '/v6/items', { bibIds: [Number(bib)], barcodes: [barcode], location: where, itemType, ...more });
      items[barcode] = String(made.link).split('/').pop()!;
    }
    accounts.own = await t.services.sipAccounts.create('kiosk-own', 'CARREL', 'mn');
    accounts.all = await t.services.sipAccounts.create('kiosk-all', 'CARREL', 'mn', 'all');
    door = await openTestDoor(t);
  });
  after(async () => {
    for (const k of kiosks) k.socket.destroy();
    await door?.close();
    await t?.close();
  });

  it('reads each item type’s media type from the profile as three digits', () => {
    assert.deepEqual(
      ['book', 'dvd', 'kit', 'realia'].map(mediaTypeOf),
      ['001', '006', '010', undefined], // the starter profile's, the one given as a number, none
    );
  });

  it('answers a checkout with BL for a known card and an unknown one, whatever refused it, and CQ for a PIN', async () => {
    const k = await kiosk('own');
    const lent = await k.ask(checkout('PA-1', 'DVD-1', '1111'));
    assert.match(lent, new RegExp(`^121NUY${DATE}`));
    const f = fields(lent, 24);
    const dvd = await item('DVD-1');
    const loan = await loanOf('Ada', 'DVD-1');
    assert.ok(loan, 'the REST API shows the loan');
    assert.deepEqual(
      [f.get('AA'), f.get('AB'), f.get('AJ'), f.get('AH'), f.get('BL'), f.get('CQ'), f.get('CK'), f.get('CH')],
      [['PA-1'], ['DVD-1'], ['Title of DVD-1'], [sipDue(loan.dueDate)], ['Y'], ['Y'], [mediaTypeOf(dvd.itemType)], [dvd.message]],
    );
    assert.deepEqual([f.get('CK')![0], f.get('CH')![0]], ['006', '2 discs in the case']);

    // Koha's "valid patron, invalid item": 120NUN, the title and due date empty, BL Y.
    const noItem = await k.ask(checkout('PA-1', 'no-barcode'));
    assert.match(noItem, new RegExp(`^120NUN${DATE}`));
    const n = fields(noItem, 24);
    assert.deepEqual(
      [n.get('AB'), n.get('AJ'), n.get('AH'), n.get('BL'), n.get('CQ'), n.get('CK')],
      [['no-barcode'], [''], [''], ['Y'], undefined, undefined],
    );
    assert.ok(n.get('AF')?.[0]);

    // Koha's "invalid patron, valid item": the item's title, BL N; the item is not lent.
    const noPatron = await k.ask(checkout('berick', 'BOOK-1'));
    assert.match(noPatron, new RegExp(`^120NUN${DATE}`));
    const p = fields(noPatron, 24);
    const book = await item('BOOK-1');
    assert.deepEqual(
      [p.get('AA'), p.get('AJ'), p.get('AH'), p.get('BL'), p.get('CK'), p.get('CH')],
      [['berick'], ['Title of BOOK-1'], [''], ['N'], [mediaTypeOf(book.itemType)], undefined],
    );
    assert.equal(book.message, undefined, 'BOOK-1 has no message: no CH');
    assert.equal(await loanOf('Ada', 'BOOK-1'), undefined);

    // A wrong PIN: the card is known (BL Y), the PIN is not right (CQ N); an unknown card with a PIN: N and N.
    const wrong = fields(await k.ask(checkout('PA-1', 'BOOK-1', '9999')), 24);
    assert.deepEqual([wrong.get('BL'), wrong.get('CQ')], [['Y'], ['N']]);
    const nobody = fields(await k.ask(checkout('NO-SUCH-CARD', 'BOOK-1', '9999')), 24);
    assert.deepEqual([nobody.get('BL'), nobody.get('CQ')], [['N'], ['N']]);
    // A card of another institution (Bea's home library is in none) is no card to this kiosk.
    assert.deepEqual(fields(await k.ask(checkout('PB-1', 'BOOK-1')), 24).get('BL'), ['N']);
    // An empty AD is no PIN: no CQ.
    assert.equal(fields(await k.ask(checkout('PA-1', 'no-barcode', '')), 24).get('CQ'), undefined);
    assert.equal(await loanOf('Ada', 'BOOK-1'), undefined);
  });

  it('renews with the item’s media type and properties', async () => {
    const k = await kiosk('own');
    const renewed = await k.ask('29NN20060102    084236                  AOCARREL|AAPA-1|ABDVD-1|AD1111|');
    assert.match(renewed, new RegExp(`^301YUY${DATE}`));
    const f = fields(renewed, 24);
    const dvd = await item('DVD-1');
    assert.deepEqual(
      [f.get('AH'), f.get('CK'), f.get('CH')],
      [[sipDue((await loanOf('Ada', 'DVD-1'))!.dueDate)], [mediaTypeOf(dvd.itemType)], [dvd.message]],
    );
  });

  it('describes an item: status, owner, media type, properties and location, as the records say', async () => {
    const k = await kiosk('own');
    // On loan (lent above): charged, with its due date.
    const lent = await k.ask(itemInformation('DVD-1'));
    assert.match(lent, new RegExp(`^18040001${DATE}`));
    const f = fields(lent, 26);
    const dvd = await item('DVD-1');
    assert.deepEqual(
      [f.get('AB'), f.get('AJ'), f.get('AH'), f.get('BG'), f.get('CK'), f.get('CH'), f.get('AQ'), f.get('AP')],
      [
        ['DVD-1'],
        ['Title of DVD-1'],
        [sipDue((await loanOf('Ada', 'DVD-1'))!.dueDate)],
        [institutionOf(dvd.location)],
        [mediaTypeOf(dvd.itemType)],
        [dvd.message],
        [dvd.location],
        [dvd.location],
      ],
    );
    assert.equal(f.get('BG')![0], 'CARREL');
    // Koha's t/11item_info.t reads an available item's status (03), its title and its three-digit media type.
    const shelf = await k.ask(itemInformation('KIT-1'));
    assert.match(shelf, new RegExp(`^18030001${DATE}`));
    const s = fields(shelf, 26);
    assert.deepEqual(
      [s.get('AH'), s.get('BG'), s.get('CK'), s.get('CH'), s.get('AQ')],
      [undefined, ['CARREL'], ['010'], undefined, ['st']],
    );
    // Riverside's branch belongs to no institution, and realia have no media type: no BG, no CK.
    const realia = fields(await k.ask(itemInformation('REALIA-1')), 26);
    assert.deepEqual([realia.get('BG'), realia.get('CK'), realia.get('AQ')], [undefined, undefined, ['br']]);
    // An unknown item: other, other, other/unknown (Koha's and Evergreen's 010101, Carrel's 01 00 01).
    assert.match(await k.ask(itemInformation('NOPE')), new RegExp(`^18010001${DATE}`));
  });

  it("maps each of Sierra's item statuses to SIP2's circulation status", async () => {
    const k = await kiosk('own');
    const expected: [string, string][] = [
      ['-', '03'], // available
      ['p', '06'], // in processing
      ['z', '11'], // claims returned
      ['l', '12'], // lost
      ['n', '12'], // billed, not paid: lost
      ['$', '12'], // billed and paid: lost
      ['m', '13'], // missing
      ['o', '01'], // library use only: other
      ['w', '01'], // withdrawn
      ['d', '01'], // damaged
    ];
    for (const [status, circulation] of expected) {
      const barcode = `STATUS-${status}`;
      const bib = await addBib(t.testDb.db, `Status ${status}`);
      const made = await rest('POST', '/v6/items', {
        bibIds: [Number(bib)],
        barcodes: [barcode],
        location: 'mn',
        itemType: 'book',
        status,
      });
      const shown = await rest('GET', `/v6/items/${String(made.link).split('/').pop()}?fields=status`);
      assert.equal((shown.status as { code: string }).code, status);
      assert.equal((await k.ask(itemInformation(barcode))).slice(2, 4), circulation, `status ${status}`);
    }
  });

  it('names on check-in the patron who had the item, only to a kiosk that acts on that patron', async () => {
    const own = await kiosk('own');
    const back = await own.ask(checkin('DVD-1'));
    // Koha's t/08checkin.t: ok, no alert; the patron's barcode, the item, its permanent location, its title.
    assert.match(back, new RegExp(`^101YUN${DATE}`));
    const f = fields(back, 24);
    const dvd = await item('DVD-1');
    assert.deepEqual(
      [f.get('AA'), f.get('AB'), f.get('AQ'), f.get('AJ'), f.get('CK'), f.get('CH'), f.get('BG')],
      [['PA-1'], ['DVD-1'], [dvd.location], ['Title of DVD-1'], [mediaTypeOf(dvd.itemType)], [dvd.message], [institutionOf(dvd.location)]],
    );
    assert.equal(await loanOf('Ada', 'DVD-1'), undefined, 'the REST API shows the loan ended');
    // Not on loan now: no one had it.
    assert.equal(fields(await own.ask(checkin('DVD-1')), 24).get('AA'), undefined);

    // Bea's home library is in no institution: a kiosk acting on CARREL's patrons does not name her,
    // one acting on every patron does.
    await rest('POST', `/v6/patrons/${patrons.Bea}/checkouts`, { itemBarcode: 'BOOK-2' });
    assert.equal(fields(await own.ask(checkin('BOOK-2')), 24).get('AA'), undefined);
    assert.equal(await loanOf('Bea', 'BOOK-2'), undefined, 'checked in all the same');
    await rest('POST', `/v6/patrons/${patrons.Bea}/checkouts`, { itemBarcode: 'BOOK-2' });
    const all = await kiosk('all');
    assert.deepEqual(fields(await all.ask(checkin('BOOK-2')), 24).get('AA'), ['PB-1']);
  });

  it("tells Patron Information's overdue-items and fee limits from the profile's blocks", async () => {
    const k = await kiosk('own');
    const answer = await k.ask('6300020060329    201700          AOCARREL|AAPA-1|');
    const f = fields(answer, 61);
    const blocks = profile.blocks as { moneyOwed: number; overdueItems: number };
    assert.deepEqual([f.get('CA'), f.get('CC')], [[String(blocks.overdueItems).padStart(4, '0')], [blocks.moneyOwed.toFixed(2)]]);
    assert.deepEqual([f.get('CA')![0], f.get('CC')![0]], ['0003', '12.50']);
  });
});
