// SIP2 kiosks and the institutions patrons belong to (README, "SIP2"): a patron belongs to the
// institution of its home library's branch (the profile's `institution` of a branch), and a kiosk
// account acts only on its own institution's patrons unless it was made for all of them. Through
// real sockets: a kiosk of one institution is answered for another's patron exactly as for a card
// no one holds, and nothing happens to that patron; an all-patrons account, as before.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import YAML from 'yaml';
import { listMigrations, migrate } from '../../src/db/migrate.ts';
import { openPGlite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { checkProfile } from '../../src/library/profile.ts';
import type { SipDoor } from '../../src/sip2/server.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, addItem } from '../helpers/circulation.ts';
import { commandWorkspace, createEmptyPgDatabase, ENGINE, PG_URL } from '../helpers/db.ts';
import { refusal } from '../helpers/domain-error.ts';
import { carrel } from '../helpers/process.ts';
import { DATE, fields, Kiosk, mainAndRiverside, openTestDoor } from '../helpers/sip2.ts';
import { bearer } from '../helpers/tokens.ts';

/** An answer with what differs between two cards' answers taken out: the barcode echoed, the date and time, the sequence and checksum. */
const shape = (answer: string) =>
  answer
    .replace(/AY\dAZ[0-9A-F]{4}$/, '')
    .replace(new RegExp(DATE, 'g'), '<date>')
    .replace(/(^|\|)AA[^|]*\|/, '$1AA<card>|');

describe(`SIP2 kiosks act on their own institution's patrons, on ${ENGINE}`, () => {
  let t: TestApp;
  let door: SipDoor;
  let token: string;
  const accounts: Record<string, { name: string; password: string }> = {};
  const ids: Record<string, string> = {};
  const kiosks: Kiosk[] = [];
  /** A kiosk logged in with one of the accounts (a: CARREL's own, all: CARREL's for every patron, r: RIVER's own). */
  const kiosk = async (which: 'a' | 'all' | 'r') => {
    const k = await Kiosk.connect(door.port);
    kiosks.push(k);
    assert.match(await k.ask(`9300CN${accounts[which]!.name}|CO${accounts[which]!.password}|`), /^941/);
    return k;
  };
  const rest = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: { authorization: token }, ...(payload ? { payload } : {}) });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.body ? res.json<Record<string, unknown>>() : {};
  };
  /** The library with Main (mn, st) in institution CARREL and Riverside (br) in `riverside`. */
  const profile = async (riverside: string) => {
    const doc = await rest('GET', '/v6/library/profile');
    await rest('PUT', '/v6/library/profile', { ...doc, branches: mainAndRiverside(riverside) });
  };
  /** What the REST API says of a patron that a kiosk could have changed. */
  const state = async (who: string) => {
    const patron = await rest('GET', `/v6/patrons/${ids[who]}?fields=blockInfo,moneyOwed`);
    const loans = (await rest('GET', `/v6/patrons/${ids[who]}/checkouts`)).entries as { item: string; dueDate: string }[];
    const holds = (await rest('GET', `/v6/patrons/${ids[who]}/holds`)).entries as unknown[];
    return {
      block: (patron.blockInfo as { code: string }).code,
      owed: patron.moneyOwed,
      loans: loans.map((l) => [l.item, l.dueDate]),
      holds,
    };
  };

  before(async () => {
    t = await createTestApp();
    token = await bearer(t, ['all']);
    await profile('RIVER');
    const patron = async (who: string, barcode: string, pin: string, homeLibraryCode?: string) => {
      const made = await rest('POST', '/v6/patrons', {
        names: [`Reader, ${who}`],
        barcodes: [barcode],
        pin,
        ...(homeLibraryCode ? { homeLibraryCode } : {}),
      });
      ids[who] = String(made.link).split('/').pop()!;
    };
    await patron('A', 'PA-1', '1111', 'mn'); // Main's: CARREL's
    await patron('S', 'PS-1', '3333', 'st'); // Main's stacks: CARREL's too
    await patron('B', 'PB-1', '2222', 'br'); // Riverside's: RIVER's
    await patron('N', 'PN-1', '4444'); // no home library: no institution's
    for (const [barcode, location] of [
      ['ITEM-A1', 'mn'],
      ['ITEM-A2', 'mn'],
      ['ITEM-A3', 'mn'],
      ['ITEM-A4', 'mn'],
      ['ITEM-B1', 'br'],
    ] as const)
      await addItem(t.testDb.db, await addBib(t.testDb.db, `Title of ${barcode}`), location, '-', barcode);
    // B has a loan to renew and a fine to pay: a kiosk of CARREL may do neither.
    await rest('POST', `/v6/patrons/${ids.B}/checkouts`, { itemBarcode: 'ITEM-B1' });
    await rest('POST', `/v6/patrons/${ids.B}/fines/charge`, { amount: 250, reason: 'damaged case' });
    accounts.a = await t.services.sipAccounts.create('kiosk-a', 'CARREL', 'mn');
    accounts.all = await t.services.sipAccounts.create('kiosk-all', 'CARREL', 'mn', 'all');
    accounts.r = await t.services.sipAccounts.create('kiosk-r', 'RIVER', 'br');
    door = await openTestDoor(t);
  });
  after(async () => {
    for (const k of kiosks) k.socket.destroy();
    await door?.close();
    await t?.close();
  });

  it("answers another institution's patron, and a patron of none, exactly as a card no one holds, and changes nothing of theirs", async () => {
    const k = await kiosk('a');
    const before = { B: await state('B'), N: await state('N') };
    const messages = (card: string, pin: string) => [
      `2300120060101    084237AOCARREL|AA${card}|AC|`,
      `2300120060101    084237AOCARREL|AA${card}|AC|AD${pin}|`,
      `6300020060329    201700  Y       AOCARREL|AA${card}|`,
      `6300020060329    201700  Y       AOCARREL|AA${card}|AD${pin}|`,
      `11YN20060329    203000                  AOCARREL|AA${card}|ABITEM-A2|AC|`,
      `11YN20060329    203000                  AOCARREL|AA${card}|ABITEM-A2|AC|AD${pin}|`,
      `15+20060415    110158AOCARREL|AA${card}|ABITEM-A3|AD${pin}|`,
      `15+20060415    110158AOCARREL|AA${card}|ABITEM-A3|`,
      `29NN20060102    084236                  AOCARREL|AA${card}|ABITEM-B1|`,
      `29NN20060102    084236                  AOCARREL|AA${card}|ABITEM-B1|AD${pin}|`,
      `6520060102    084236AOCARREL|AA${card}|`,
      `3719980723    0932110400USDBV1.00|AOCARREL|AA${card}|BKT1|`,
      `3719980723    0932110400USDBV1.00|AOCARREL|AA${card}|BKT1|AD${pin}|`,
      `01N19960213    162352AOCARREL|ALkept by the kiosk|AA${card}|AC|`,
    ];
    for (const [card, pin] of [
      ['PB-1', '2222'],
      ['PN-1', '4444'],
    ] as const) {
      // A card of its own for each: PINs tried with a card no one holds are counted against its spelling.
      const unknown = messages(`NO-SUCH-${card}`, pin);
      const theirs = messages(card, pin);
      for (let i = 0; i < theirs.length; i++) {
        const nobody = shape(await k.ask(unknown[i]!));
        assert.equal(shape(await k.ask(theirs[i]!)), nobody, `${theirs[i]} is answered as for an unknown card`);
      }
    }
    // Nothing was lent, renewed, held, paid or blocked for them.
    assert.deepEqual({ B: await state('B'), N: await state('N') }, before);
    assert.equal(before.B.loans.length, 1);
  });

  it('does not count PINs tried at a kiosk of another institution against the patron', async () => {
    const a = await kiosk('a');
    // More wrong PINs than a card's limit (5)…
    for (let i = 0; i < 7; i++) {
      const f = fields(await a.ask('2300120060101    084237AOCARREL|AAPB-1|AC|ADwrong|'), 37);
      assert.deepEqual([f.get('BL'), f.get('CQ')], [['N'], ['N']]);
    }
    // …and B's own institution's kiosk still takes B's PIN.
    const r = await kiosk('r');
    const f = fields(await r.ask('2300120060101    084237AORIVER|AAPB-1|AC|AD2222|'), 37);
    assert.deepEqual([f.get('AE'), f.get('BL'), f.get('CQ')], [['Reader, B'], ['Y'], ['Y']]);
    // And RIVER's kiosk does not know CARREL's patrons.
    assert.deepEqual(fields(await r.ask('2300120060101    084237AORIVER|AAPA-1|AC|'), 37).get('BL'), ['N']);
  });

  it("serves its own institution's patrons, of every location of its branches, as before", async () => {
    const k = await kiosk('a');
    for (const [card, pin, name] of [
      ['PA-1', '1111', 'Reader, A'],
      ['PS-1', '3333', 'Reader, S'],
    ] as const) {
      const f = fields(await k.ask(`2300120060101    084237AOCARREL|AA${card}|AC|AD${pin}|`), 37);
      assert.deepEqual([f.get('AE'), f.get('BL'), f.get('CQ')], [[name], ['Y'], ['Y']]);
    }
    assert.deepEqual(fields(await k.ask('6300020060329    201700          AOCARREL|AAPA-1|AD1111|'), 61).get('BL'), ['Y']);
    assert.match(await k.ask('11YN20060329    203000                  AOCARREL|AAPA-1|ABITEM-A1|AC|AD1111|'), /^121/);
    assert.match(await k.ask('11YN20060329    203000                  AOCARREL|AAPS-1|ABITEM-A2|AC|'), /^121/);
    assert.match(await k.ask('29NN20060102    084236                  AOCARREL|AAPA-1|ABITEM-A1|AD1111|'), /^301/);
    assert.match(await k.ask('15+20060415    110158AOCARREL|AAPA-1|ABITEM-A3|AD1111|'), /^161/);
    assert.equal((await state('A')).holds.length, 1);
    assert.match(await k.ask('01N19960213    162352AOCARREL|ALkept by the kiosk|AAPS-1|AC|'), /^24Y/);
    assert.equal((await state('S')).block, 'm');
  });

  it('lets an account made for all patrons act on every patron, as before', async () => {
    const k = await kiosk('all');
    for (const card of ['PB-1', 'PN-1'])
      assert.deepEqual(fields(await k.ask(`2300120060101    084237AOCARREL|AA${card}|AC|`), 37).get('BL'), ['Y'], card);
    assert.match(await k.ask('11YN20060329    203000                  AOCARREL|AAPB-1|ABITEM-A4|AC|AD2222|'), /^121/);
    assert.equal((await state('B')).loans.length, 2);
  });

  it("follows the profile: a branch moved into the kiosk's institution is served at the next message", async () => {
    const k = await kiosk('a');
    assert.deepEqual(fields(await k.ask('2300120060101    084237AOCARREL|AAPB-1|AC|'), 37).get('BL'), ['N']);
    await profile('CARREL');
    assert.deepEqual(fields(await k.ask('2300120060101    084237AOCARREL|AAPB-1|AC|'), 37).get('BL'), ['Y']);
    await profile('RIVER');
    assert.deepEqual(fields(await k.ask('2300120060101    084237AOCARREL|AAPB-1|AC|'), 37).get('BL'), ['N']);
  });

  it("refuses a branch's institution that SIP2 cannot carry, naming where it is", async () => {
    const doc = await rest('GET', '/v6/library/profile');
    const branches = doc.branches as { institution?: string }[];
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v6/library/profile',
      headers: { authorization: token },
      payload: { ...doc, branches: [{ ...branches[0], institution: 'A|B' }, ...branches.slice(1)] },
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.json().description, /branches\.0\.institution/);
    // A file says so in the profile's own words.
    const problems = (await refusal((async () => checkProfile({ ...doc, branches: [{ ...branches[0], institution: '' }] }))())).detail;
    assert.match(problems!, /branches\[0\]\.institution: must be a SIP2 institution id/);
  });

  it('lists each account with the patrons it may act on', async () => {
    const listed = await t.services.sipAccounts.list();
    assert.deepEqual(
      listed.map((a) => [a.name, a.patrons, a.homeLibraries]),
      [
        ['kiosk-a', 'own', ['mn', 'st']],
        ['kiosk-all', 'all', null],
        ['kiosk-r', 'own', ['br']],
      ],
    );
  });
});

describe(`carrel sip accounts and the patrons they act on, on ${ENGINE}`, () => {
  const work = commandWorkspace('institutions');
  const run = (...args: string[]) => carrel(args, work.env);

  it('creates accounts for their own patrons by default, or for all, lists and changes the scope', async () => {
    const starter = YAML.parse(fs.readFileSync('profiles/starter.yaml', 'utf8')) as { branches: Record<string, unknown>[] };
    starter.branches[0]!.institution = 'CARREL';
    const applied = await run('profile', 'apply', work.file('library.yaml', YAML.stringify(starter)));
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, /institution/);
    const exported = await run('profile', 'export');
    assert.match(exported.stdout, /institution: CARREL/);

    const own = await run('sip', 'accounts', 'create', 'desk-1', '--institution', 'CARREL', '--location', 'mn', '--json');
    assert.equal(own.code, 0, own.stderr);
    assert.deepEqual(Object.keys(JSON.parse(own.stdout) as object), ['name', 'password']);
    const all = await run('sip', 'accounts', 'create', 'desk-2', '--institution', 'CARREL', '--all-patrons');
    assert.equal(all.code, 0, all.stderr);
    assert.match(all.stdout, /every patron/);
    // An institution no branch has: made, and told that it serves no one yet.
    const none = await run('sip', 'accounts', 'create', 'desk-3', '--institution', 'ELSEWHERE');
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stderr, /no branch .*institution ELSEWHERE/);

    const listed = await run('sip', 'accounts', 'list', '--json');
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(
      (JSON.parse(listed.stdout) as { name: string; patrons: string; homeLibraries: string[] | null }[]).map((a) => [
        a.name,
        a.patrons,
        a.homeLibraries,
      ]),
      [
        ['desk-1', 'own', ['mn', 'mnref']],
        ['desk-2', 'all', null],
        ['desk-3', 'own', []],
      ],
    );
    const text = await run('sip', 'accounts', 'list');
    assert.match(text.stdout, /PATRONS/);
    assert.match(text.stdout, /desk-1 .*own: mn, mnref/);
    assert.match(text.stdout, /desk-2 .*all/);

    const scoped = await run('sip', 'accounts', 'scope', 'desk-2', 'own');
    assert.equal(scoped.code, 0, scoped.stderr);
    const again = JSON.parse((await run('sip', 'accounts', 'list', '--json')).stdout) as { name: string; patrons: string }[];
    assert.equal(again.find((a) => a.name === 'desk-2')!.patrons, 'own');
    const bad = await run('sip', 'accounts', 'scope', 'desk-2', 'some');
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /own or all/);
    const missing = await run('sip', 'accounts', 'scope', 'no-such', 'all');
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /no SIP account/);
  });
});

describe(`upgrading a database with SIP2 accounts, on ${ENGINE}`, () => {
  it('keeps the accounts it had acting on every patron, and makes new ones for their own', async () => {
    const ours = listMigrations().find((m) => m.name.includes('sip_institution_patrons'));
    assert.ok(ours, 'the migration that scopes SIP2 accounts');
    const empty = PG_URL ? await createEmptyPgDatabase() : undefined;
    const db = empty ? openPostgres(empty.url, { max: 2, connectTimeoutSec: 5 }) : await openPGlite({});
    try {
      await migrate(
        db,
        listMigrations().filter((m) => m.version < ours.version),
      );
      await db.query(`insert into sip_accounts (name, password_hash, institution) values ('running-kiosk', 'x', 'CARREL')`);
      await migrate(db);
      await db.query(`insert into sip_accounts (name, password_hash, institution) values ('new-kiosk', 'x', 'CARREL')`);
      assert.deepEqual(
        (await db.query<{ name: string; patrons: string }>('select name, patrons from sip_accounts order by name')).map((r) => [
          r.name,
          r.patrons,
        ]),
        [
          ['new-kiosk', 'own'],
          ['running-kiosk', 'all'],
        ],
      );
    } finally {
      await db.close();
      await empty?.drop();
    }
  });
});
