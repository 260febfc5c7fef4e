// The SIP2 door (src/sip2), first part: framing and error detection, login, SC status, patron
// status and information, end of session, through a real socket. No SIP2 client can be installed
// here (none on npm or in Debian), so the client below sends what published implementations'
// test suites send — Evergreen's SIPServer t/*.t conversations, FOLIO edge-sip2's and Library
// Simplified's cases, 3M's own examples — and checks the answers the way those suites do.
// test/sip2/node-sip2.test.ts drives the door with a port of a published client, node-sip2.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checksum } from '../../src/sip2/messages.ts';
import type { SipDoor } from '../../src/sip2/server.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, addItem, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { refusal } from '../helpers/domain-error.ts';
import { carrel } from '../helpers/process.ts';
import { DATE, fields, Kiosk, openTestDoor } from '../helpers/sip2.ts';
import { bearer } from '../helpers/tokens.ts';

describe('SIP2 checksums, as published implementations compute them', () => {
  it('matches their vectors', () => {
    for (const [text, sum] of [
      ['941AY0AZ', 'FDFD'], // Evergreen t/0001_checksum.t
      ['96AZ', 'FEF6'], // Evergreen and Koha Constants.pm
      ['97AZ', 'FEF5'],
      ['9300CNuser_id|COpassw0rd|AY1AZ', 'F594'], // FOLIO edge-sip2 parser tests
      ['9300CNuser_id|COpassword|AY0AZ', 'F556'], // Library Simplified test_resend
      ['9300CNuser_id|COpassword|AZ', 'F620'],
      ['some data|AY7AZ', 'FAAA'],
      ['9900401.00AY1AZ', 'FCA5'],
      ['6300119980723    091905Y         AOInstitutionID|AAPatronID|BP00001|BQ00005|AY1AZ', 'EA83'], // 3M's examples
      ['3519980723    094014AOCertification Institute ID|AAPatronID|AY3AZ', 'EBF2'],
      // Evergreen's UTF-8 vector: summed over the bytes sent.
      [
        '1804020120110630    110249AB30007008503046|AJLe Pie\u0300ge de Bogota|CK001|AQOSUL|APOSUL|BGOSUL|AH2011-10-28 23:59:59|CSPB LP DAL|AY7AZ',
        'DCF8',
      ],
    ] as const) {
      assert.equal(checksum(text), sum, text);
    }
  });
});

describe(`the SIP2 door on ${ENGINE}`, () => {
  let t: TestApp;
  let door: SipDoor;
  let login: { name: string; password: string };
  let patronId: string;
  const kiosks: Kiosk[] = [];
  const kiosk = async () => {
    const k = await Kiosk.connect(door.port);
    kiosks.push(k);
    return k;
  };
  const loggedIn = async () => {
    const k = await kiosk();
    assert.match(await k.ask(`9300CN${login.name}|CO${login.password}|CPlobby|`), /^941/);
    return k;
  };

  before(async () => {
    t = await createTestApp();
    await setUpLibrary(t.testDb.db);
    login = await t.services.sipAccounts.create('lobby-kiosk', 'CARREL', 'mn', 'all'); // one library: every patron
    door = await openTestDoor(t);
    const token = await bearer(t, ['all']);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v6/patrons',
      headers: { authorization: token },
      payload: {
        names: ['Shakespeare, William'],
        barcodes: ['P0001'],
        pin: '6789',
        emails: ['will@example.org'],
        patronType: 2,
        homeLibraryCode: 'mn',
        birthDate: '1964-04-23',
        phones: [{ number: '555-0100', type: 't' }],
      },
    });
    patronId = String(res.json().link).split('/').pop()!;
    const bib = await addBib(t.testDb.db, 'Hamlet');
    await addItem(t.testDb.db, bib, 'mn', '-', 'ITEM-1');
    const out = await t.app.inject({
      method: 'POST',
      url: `/v6/patrons/${patronId}/checkouts`,
      headers: { authorization: token },
      payload: { itemBarcode: 'ITEM-1' },
    });
    assert.equal(out.statusCode, 200, out.body);
  });
  after(async () => {
    for (const k of kiosks) k.socket.destroy();
    await door.close();
    await t.close();
  });

  it('logs in with an account, refuses a wrong password, and answers nothing else before', async () => {
    const k = await kiosk();
    assert.match(await k.ask(`2300120060101    084237AOCARREL|AAP0001|AC|`), /^940/);
    assert.match(await k.ask(`9300CN${login.name}|COwrong|CPlobby|`), /^940/);
    assert.match(await k.ask(`9300CN${login.name}|CO${login.password}|CPlobby|`), /^941AY\dAZ/);
  });

  it('answers SC Status with what it supports, the institution and the library', async () => {
    const k = await loggedIn();
    const answer = await k.ask('9900302.00');
    assert.match(answer, new RegExp(`^98[YN]{6}\\d{3}\\d{3}${DATE}2\\.00`));
    const f = fields(answer, 36);
    assert.match(f.get('BX')![0]!, /^[YN]{16}$/);
    // All but Item Status Update and Patron Enable.
    assert.deepEqual(
      [...f.get('BX')![0]!].map((c, i) => (c === 'Y' ? i : -1)).filter((i) => i >= 0),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 14, 15],
    );
    assert.deepEqual(f.get('AO'), ['CARREL']);
    assert.deepEqual(f.get('AM'), ['Carrel Test Library']);
    assert.deepEqual(f.get('AN'), ['mn']);
  });

  it('answers Patron Status for a patron, a wrong PIN and an unknown card as Evergreen’s tests expect', async () => {
    const k = await loggedIn();
    const good = await k.ask('2300120060101    084237AOCARREL|AAP0001|AD6789|AC|');
    assert.match(good, new RegExp(`^24 [ Y]{13}\\d{3}${DATE}`));
    assert.equal(good.slice(37, 39), 'AO'); // Koha: the fixed part is 37 characters with the code
    const f = fields(good, 37);
    assert.deepEqual([f.get('AE'), f.get('BL'), f.get('CQ'), f.get('AA')], [['Shakespeare, William'], ['Y'], ['Y'], ['P0001']]);
    const wrong = fields(await k.ask('2300120060101    084237AOCARREL|AAP0001|AC|ADbadw|'), 37);
    assert.deepEqual([wrong.get('BL'), wrong.get('CQ')], [['Y'], ['N']]);
    const unknown = await k.ask('2300120060101    084237AOCARREL|AAwshakespeare|AC|');
    assert.match(unknown, /^24Y[ Y]{13}/);
    const u = fields(unknown, 37);
    assert.deepEqual([u.get('AE'), u.get('BL'), u.get('AA')], [[''], ['N'], ['wshakespeare']]);
    assert.ok(u.get('AF')?.[0]);
    // Another institution's id is not this account's: the patron is not known to it.
    assert.deepEqual(fields(await k.ask('2300120060101    084237AOELSEWHERE|AAP0001|AC|'), 37).get('BL'), ['N']);
  });

  it('flags a card reported lost (block l) and excessive fines (block x) where SIP2 puts them', async () => {
    const k = await loggedIn();
    const token = await bearer(t, ['all']);
    for (const [code, barcode] of [
      ['l', 'P0041'],
      ['x', 'P0042'],
    ] as const) {
      const made = await t.app.inject({
        method: 'POST',
        url: '/v6/patrons',
        headers: { authorization: token },
        payload: { names: [`Blocked, ${code}`], barcodes: [barcode], blockInfo: { code } },
      });
      assert.equal(made.statusCode, 200, made.body);
      const flags = (await k.ask(`2300120060101    084237AOCARREL|AA${barcode}|AC|`)).slice(2, 16);
      // Blocked: charge, renewal and hold privileges denied; then the block's own flag.
      assert.deepEqual([flags[0], flags[1], flags[3]], ['Y', 'Y', 'Y']);
      assert.deepEqual([flags[4], flags[10]], code === 'l' ? ['Y', ' '] : [' ', 'Y']);
    }
  });

  it('takes an empty AD as no PIN: CQ N, and never counted against the card', async () => {
    const k = await loggedIn();
    // More empty PINs than the card's limit of failures (5 by default)…
    for (let i = 0; i < 7; i++) {
      const f = fields(await k.ask('2300120060101    084237AOCARREL|AAP0001|AC|AD|'), 37);
      assert.deepEqual([f.get('BL'), f.get('CQ')], [['Y'], ['N']]);
    }
    // …and the right PIN is still taken.
    assert.deepEqual(fields(await k.ask('2300120060101    084237AOCARREL|AAP0001|AC|AD6789|'), 37).get('CQ'), ['Y']);
  });

  it('answers Patron Information with counts, the list the summary asks for, and the extension fields', async () => {
    const k = await loggedIn();
    const answer = await k.ask('6300020060329    201700  Y       AOCARREL|AAP0001|');
    assert.match(answer, new RegExp(`^64 [ Y]{13}\\d{3}${DATE}(\\d{4}){6}`));
    assert.equal(answer.slice(37, 61), '000000000001000000000000'); // holds, overdue, charged 1, fines, recalls, unavailable holds
    const f = fields(answer, 61);
    assert.deepEqual(f.get('AU'), ['ITEM-1']);
    assert.deepEqual(
      [f.get('AE'), f.get('BL'), f.get('BE'), f.get('BF'), f.get('AQ'), f.get('PB'), f.get('PC'), f.get('BV')],
      [['Shakespeare, William'], ['Y'], ['will@example.org'], ['555-0100'], ['mn'], ['19640423'], ['2'], ['0.00']],
    );
    // No Y in the summary: no list.
    assert.equal(fields(await k.ask('6300020060329    201700          AOCARREL|AAP0001|'), 61).get('AU'), undefined);
    const unknown = await k.ask('6300020060329    201700          AOCARREL|AAnobody|');
    assert.match(unknown, new RegExp(`^64Y[ Y]{13}\\d{3}${DATE}0{24}`));
  });

  it('checks out and in through Carrel’s rules: a hold traps the item on check-in, and it goes to no one else', async () => {
    const k = await loggedIn();
    const token = await bearer(t, ['all']);
    const bib = await addBib(t.testDb.db, 'Macbeth');
    await addItem(t.testDb.db, bib, 'mn', '-', 'ITEM-2');
    const out = await k.ask('11YN20060329    203000                  AOCARREL|AAP0001|ABITEM-2|AC|AD6789|');
    assert.match(out, new RegExp(`^121NUY${DATE}`));
    const o = fields(out, 24);
    assert.deepEqual([o.get('AJ'), o.get('AB')], [['Macbeth'], ['ITEM-2']]);
    const loans = (
      await t.app.inject({ method: 'GET', url: `/v6/patrons/${patronId}/checkouts`, headers: { authorization: token } })
    ).json();
    const itemTwo = (await t.services.items.byBarcode('ITEM-2'))!.id;
    const loan = loans.entries.find((e: { item: string }) => e.item.endsWith(`/items/${itemTwo}`));
    assert.ok(loan, 'the REST API shows the loan');
    assert.equal(o.get('AH')![0], `${String(loan.dueDate).slice(0, 10).replaceAll('-', '')}    235959`);
    const info = await k.ask('1720060110    215612AOCARREL|ABITEM-2|');
    assert.equal(info.slice(2, 4), '04');

    // Another patron places a hold on the bib; the check-in traps the item for them.
    const other = await t.app.inject({
      method: 'POST',
      url: '/v6/patrons',
      headers: { authorization: token },
      payload: { names: ['Other, Olive'], barcodes: ['P0002'], pin: '1111' },
    });
    const otherId = String(other.json().link).split('/').pop()!;
    const placed = await t.app.inject({
      method: 'POST',
      url: `/v6/patrons/${otherId}/holds/requests`,
      headers: { authorization: token },
      payload: { recordType: 'b', recordNumber: Number(bib), pickupLocation: 'mn' },
    });
    assert.equal(placed.statusCode, 204, placed.body);
    const back = await k.ask('09N20060102    08423620060113    084235APUnder the bed|AOCARREL|ABITEM-2|ACterminal password|');
    assert.match(back, new RegExp(`^101NUY${DATE}`));
    assert.deepEqual(fields(back, 24).get('CV'), ['01']);
    const holds = (await t.app.inject({ method: 'GET', url: `/v6/patrons/${otherId}/holds`, headers: { authorization: token } })).json();
    assert.ok(holds.entries[0].pickupByDate, 'the REST hold shows pickupByDate');
    assert.equal((await k.ask('1720060110    215612AOCARREL|ABITEM-2|')).slice(2, 4), '08');
    // The item waits for Olive: William cannot take it.
    const refused = await k.ask('11YN20060329    203000                  AOCARREL|AAP0001|ABITEM-2|AC|');
    assert.match(refused, new RegExp(`^120NUN${DATE}`));
    assert.ok(fields(refused, 24).get('AF')?.[0]);
    // Unknown items.
    const unknownIn = await k.ask('09N20060102    08423620060113    084235APx|AOCARREL|ABNOPE|AC|');
    assert.match(unknownIn, new RegExp(`^100NUY${DATE}`));
    assert.deepEqual(fields(unknownIn, 24).get('AF'), ['Invalid Item']);
    assert.equal((await k.ask('1720060110    215612AOCARREL|ABNOPE|')).slice(2, 4), '01');
  });

  it('renews one loan and all of them, takes a fee payment, and blocks a card, as the REST API then shows', async () => {
    const k = await loggedIn();
    const token = await bearer(t, ['all']);
    const rest = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: token } });
    const due = async () => {
      const loans = (await rest(`/v6/patrons/${patronId}/checkouts`)).json();
      const one = (await t.services.items.byBarcode('ITEM-1'))!.id;
      return String(loans.entries.find((e: { item: string }) => e.item.endsWith(`/items/${one}`)).dueDate).slice(0, 10);
    };
    const renewed = await k.ask('29NN20060102    084236                  AOCARREL|AAP0001|ABITEM-1|AD6789|');
    assert.match(renewed, new RegExp(`^301YUY${DATE}`));
    assert.equal(fields(renewed, 24).get('AH')![0], `${(await due()).replaceAll('-', '')}    235959`);
    const notMine = await k.ask('29NN20060102    084236                  AOCARREL|AAP0001|ABNOPE|');
    assert.match(notMine, /^300N/);
    assert.deepEqual(fields(notMine, 24).get('AF'), ['Invalid Item']);

    const all = await k.ask('6520060102    084236AOCARREL|AAP0001|');
    assert.match(all, new RegExp(`^661\\d{4}\\d{4}${DATE}`));
    const loans = (await rest(`/v6/patrons/${patronId}/checkouts`)).json().entries.length as number;
    assert.equal(Number(all.slice(3, 7)) + Number(all.slice(7, 11)), loans);
    const listed = fields(all, 29);
    assert.equal((listed.get('BM') ?? []).length + (listed.get('BN') ?? []).length, loans);

    const charged = await t.app.inject({
      method: 'POST',
      url: `/v6/patrons/${patronId}/fines/charge`,
      headers: { authorization: token },
      payload: { amount: 250, reason: 'damaged case' },
    });
    assert.equal(charged.statusCode, 200, charged.body);
    const owedBefore = Number((await rest(`/v6/patrons/${patronId}?fields=moneyOwed`)).json().moneyOwed);
    const tooMuch = await k.ask(`3719980723    0932110400USDBV${(owedBefore + 1).toFixed(2)}|AOCARREL|AAP0001|BKT1|`);
    assert.match(tooMuch, new RegExp(`^38N${DATE}`));
    const paid = await k.ask(`3719980723    0932110400USDBV${owedBefore.toFixed(2)}|AOCARREL|AAP0001|BKT2|`);
    assert.match(paid, new RegExp(`^38Y${DATE}`));
    assert.deepEqual(fields(paid, 21).get('BK'), ['T2']);
    assert.equal(Number((await rest(`/v6/patrons/${patronId}?fields=moneyOwed`)).json().moneyOwed), 0);

    const blocked = await k.ask('01N19960213    162352AOCARREL|ALCARD BLOCK TEST|AAP0001|AC|');
    assert.match(blocked, new RegExp(`^24Y[ Y]{13}000${DATE}`));
    assert.equal((await rest(`/v6/patrons/${patronId}?fields=blockInfo`)).json().blockInfo.code, 'm');
    // A blocked card cannot borrow.
    const refused = await k.ask('29NN20060102    084236                  AOCARREL|AAP0001|ABITEM-1|');
    assert.match(refused, /^300N/);
  });

  it('places and cancels a hold through the hold rules, as the REST API then shows', async () => {
    const k = await loggedIn();
    const token = await bearer(t, ['all']);
    const made = await t.app.inject({
      method: 'POST',
      url: '/v6/patrons',
      headers: { authorization: token },
      payload: { names: ['Holder, Hal'], barcodes: ['P0003'], pin: '2222', homeLibraryCode: 'mn' },
    });
    const halId = String(made.json().link).split('/').pop()!;
    const bib = await addBib(t.testDb.db, 'Othello');
    await addItem(t.testDb.db, bib, 'mn', '-', 'ITEM-3');
    const holds = async () =>
      (await t.app.inject({ method: 'GET', url: `/v6/patrons/${halId}/holds`, headers: { authorization: token } })).json().entries as {
        record: string;
      }[];
    const placed = await k.ask('15+20060415    110158BSbr|AOCARREL|AAP0003|ABITEM-3|AD2222|');
    assert.match(placed, new RegExp(`^161[YN]${DATE}`), placed);
    const f = fields(placed, 22);
    assert.deepEqual([f.get('BR'), f.get('BS'), f.get('AJ')], [['1'], ['br'], ['Othello']]);
    assert.equal((await holds()).length, 1);
    assert.match((await holds())[0]!.record, new RegExp(`/bibs/${bib}$`));
    assert.match(await k.ask('15-20060415    110158AOCARREL|AAP0003|ABITEM-3|'), /^161/);
    assert.equal((await holds()).length, 0);
    const none = await k.ask('15-20060415    110158AOCARREL|AAP0003|ABITEM-3|');
    assert.match(none, /^160/);
    assert.deepEqual(fields(none, 22).get('AF'), ['This patron has no hold on this item']);
    assert.deepEqual(fields(await k.ask('15+20060415    110158AOCARREL|AAP0003|ABNOPE|'), 22).get('AF'), ['Invalid Item']);
  });

  it('takes a message in pieces and CR LF ends, loses nothing when a kiosk leaves mid-message, and serves many kiosks at once', async () => {
    const k = await loggedIn();
    const whole = k.seal('9900302.00');
    k.socket.write(whole.slice(0, 5));
    await new Promise((resolve) => setImmediate(resolve));
    k.socket.write(`${whole.slice(5)}\r\n`);
    assert.match(await k.read(), /^98/);
    // The LF of that CR LF is not a message: the next answer is the next message's.
    assert.match(await k.ask('3519980723    094014AOCARREL|AAP0001|'), /^36Y/);
    const leaving = await loggedIn();
    leaving.socket.write('6300020060329    201700          AOCARREL|AAP00');
    leaving.socket.destroy();
    await leaving.closed;
    const many = await Promise.all(Array.from({ length: 20 }, () => loggedIn()));
    const answers = await Promise.all(many.map((m) => m.ask('2300120060101    084237AOCARREL|AAP0001|AC|')));
    for (const answer of answers) assert.deepEqual(fields(answer, 37).get('AE'), ['Shakespeare, William']);
  });

  it('asks for a resend of a message whose checksum is wrong, and resends its last answer on 97', async () => {
    const k = await loggedIn();
    // FOLIO's case: a bad checksum gets exactly 96AZFEF6.
    assert.equal(await k.send('9900401.00AY1AZAAAA'), '96AZFEF6');
    const last = await k.ask('3519980723    094014AOCARREL|AAP0001|');
    assert.match(last, new RegExp(`^36Y${DATE}`));
    assert.equal(await k.send('97AZFEF5'), last);
  });
});

describe(`SIP2 accounts on ${ENGINE}`, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('creates a login with a password shown once and kept as a hash, lists and revokes it', async () => {
    const made = await t.services.sipAccounts.create('desk-2', 'CARREL', 'br');
    assert.match(made.password, /^[A-Za-z0-9]{24}$/);
    const [row] = await t.testDb.db.query<{ password_hash: string }>("select password_hash from sip_accounts where name = 'desk-2'");
    assert.match(row!.password_hash, /^scrypt\$/);
    assert.ok(!row!.password_hash.includes(made.password));
    assert.deepEqual(
      (await t.services.sipAccounts.list()).map((a) => [a.name, a.institution, a.location]),
      [['desk-2', 'CARREL', 'br']],
    );
    assert.ok(await t.services.sipAccounts.login('desk-2', made.password));
    assert.equal(await t.services.sipAccounts.login('desk-2', 'nope'), undefined);
    assert.equal((await refusal(t.services.sipAccounts.create('desk-2', 'CARREL'))).kind, 'conflict');
    assert.equal((await refusal(t.services.sipAccounts.create('bad name', 'CARREL'))).kind, 'invalidInput');
    assert.equal((await refusal(t.services.sipAccounts.create('x', 'A|B'))).kind, 'invalidInput');
    await t.services.sipAccounts.revoke('desk-2');
    assert.equal(await t.services.sipAccounts.login('desk-2', made.password), undefined);
    assert.equal((await refusal(t.services.sipAccounts.revoke('desk-2'))).kind, 'notFound');
  });

  it(
    'prints {"name", "password"} from `carrel sip accounts create --json`',
    // The embedded engine's CLI reaches its server's database through the server; the service is tested above.
    { skip: ENGINE === 'pglite' && 'the embedded engine’s CLI needs its server running' },
    async () => {
      const env = { DATABASE_URL: t.testDb.url! };
      const made = await carrel(['sip', 'accounts', 'create', 'kiosk-9', '--institution', 'CARREL', '--json'], env);
      assert.equal(made.code, 0, made.stderr);
      assert.deepEqual(Object.keys(JSON.parse(made.stdout) as object), ['name', 'password']);
      const listed = await carrel(['sip', 'accounts', 'list', '--json'], env);
      assert.ok((JSON.parse(listed.stdout) as { name: string }[]).some((a) => a.name === 'kiosk-9'));
    },
  );
});
