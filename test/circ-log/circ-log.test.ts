// The circulation transaction log (src/circ-log): a circulation scenario through the REST door,
// each event logged once, in order, with the patron's and item's codes as they were then; nothing
// logged for what was refused; old events forgotten after the kept period.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FixedClock } from '../../src/shared/calendar.ts';
import { SqlService } from '../../src/sql/service.ts';
import { assertRefused, caller, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, addItem, addPatron, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

interface Logged {
  op_code: string;
  patron_id: string | null;
  item_id: string | null;
  bib_id: string | null;
  due_date: string | null;
  patron_type: number | null;
  item_type: string | null;
  item_location: string | null;
  checkout_id: string | null;
  hold_id: string | null;
  fine_id: string | null;
}

describe(`the circulation log on ${ENGINE}`, () => {
  let t: TestApp;
  let api: Caller;
  const clock = new FixedClock('2026-11-02');
  before(async () => {
    t = await createTestApp({}, { clock });
    await setUpLibrary(t.testDb.db);
    api = caller(t, await bearer(t, ['all']));
    await t.testDb.db.query('update circulation_rules set renewals = 2, loan_days = 14, fine_per_day = 0.25, grace_days = 0');
  });
  after(() => t.close());

  /** The events logged after `after` (an id), oldest first. */
  const since = async (after: string) =>
    t.testDb.db.query<Logged>(
      `select op_code, patron_id::text, item_id::text, bib_id::text, to_char(due_date, 'YYYY-MM-DD') as due_date, patron_type,
         item_type, item_location, checkout_id::text, hold_id::text, fine_id::text
       from circ_transactions where id > $1::bigint order by id`,
      [after],
    );
  const lastId = async () =>
    (await t.testDb.db.query<{ id: string }>('select coalesce(max(id), 0)::text as id from circ_transactions'))[0]!.id;

  it('logs checkout, renewal with its overdue fine, hold placed, check-in, the hold filled by checkout, a cancelled hold, a charge', async () => {
    const db = t.testDb.db;
    const start = await lastId();
    const bib = await addBib(db, 'Logged book');
    const item = await addItem(db, bib, 'mn', '-', 'LOG-1');
    const [reader, waiter] = [await addPatron(db), await addPatron(db)];
    await db.query('update patrons set patron_type = 2 where id = $1', [reader]);

    const out = await api.send('POST', `/v6/patrons/${reader}/checkouts`, { itemBarcode: 'LOG-1' });
    assert.equal(out.statusCode, 200, out.body);
    const checkout = String(out.json().link).split('/').pop()!;
    // Refused: the item is out. Nothing is logged for it.
    assert.equal((await api.send('POST', `/v6/patrons/${waiter}/checkouts`, { itemBarcode: 'LOG-1' })).statusCode, 409);
    // The reader's type changes after the loan: the logged checkout keeps the type it had.
    await db.query('update patrons set patron_type = 3 where id = $1', [reader]);

    clock.set('2026-11-20'); // four days overdue
    assert.equal((await api.send('POST', `/v6/patrons/checkouts/${checkout}/renewal`)).statusCode, 200);
    const placed = await api.send('POST', `/v6/patrons/${waiter}/holds/requests`, {
      recordType: 'b',
      recordNumber: Number(bib),
      pickupLocation: 'mn',
    });
    assert.ok(placed.statusCode < 300, placed.body);
    assert.equal((await api.send('DELETE', `/v6/items/checkouts/LOG-1`)).statusCode, 204);
    const second = await api.send('POST', `/v6/patrons/${waiter}/checkouts`, { itemBarcode: 'LOG-1' });
    assert.equal(second.statusCode, 200, second.body);
    const other = await addBib(db, 'Never collected');
    await addItem(db, other, 'mn', '-', 'LOG-2');
    const hold = await t.services.holds.place(reader, { recordType: 'b', recordNumber: other, pickupLocation: 'mn' });
    await t.services.holds.cancel(hold);
    const charge = await t.services.fines.charge(reader, { amount: 150, reason: 'Lost card', location: 'mn' });

    const log = await since(start);
    assert.deepEqual(
      log.map((e) => e.op_code),
      ['o', '$', 'r', 'nb', 'i', 'f', 'o', 'nb', 'x', '$'],
    );
    const [o1, fine, r, nb, i, f, o2, nb2, x, manual] = log;
    assert.deepEqual(
      { ...o1, checkout_id: o1!.checkout_id },
      {
        op_code: 'o',
        patron_id: reader,
        item_id: item,
        bib_id: bib,
        due_date: '2026-11-16',
        patron_type: 2,
        item_type: o1!.item_type,
        item_location: 'mn',
        checkout_id: checkout,
        hold_id: null,
        fine_id: null,
      },
    );
    assert.equal(fine!.patron_type, 3, 'the renewal came after the type changed');
    assert.equal(fine!.checkout_id, checkout);
    const fineRow = (
      await db.query<{ item_charge: string; charge_type: string }>('select item_charge::text, charge_type from fines where id = $1', [
        fine!.fine_id,
      ])
    )[0]!;
    assert.deepEqual(fineRow, { item_charge: '1.00', charge_type: '6' });
    assert.equal(r!.due_date, '2026-12-04');
    assert.deepEqual([nb!.patron_id, nb!.bib_id, nb!.item_id], [waiter, bib, null]);
    assert.deepEqual([i!.patron_id, i!.item_id, i!.checkout_id], [reader, item, checkout]);
    assert.deepEqual([f!.patron_id, f!.hold_id], [waiter, nb!.hold_id]);
    assert.deepEqual([o2!.patron_id, o2!.item_id], [waiter, item]);
    assert.deepEqual([x!.hold_id, x!.bib_id, nb2!.hold_id], [hold, other, hold]);
    assert.deepEqual([manual!.fine_id, manual!.patron_id, manual!.item_id], [charge, reader, null]);
  });

  it('keeps the statgroup of each checkout, renewal, check-in and hold request, and shows it in circ_trans', async () => {
    const db = t.testDb.db;
    clock.set('2026-11-02');
    const bib = await addBib(db, 'Counted at the desk');
    const item = await addItem(db, bib, 'mn', '-', 'SG-1');
    const [reader, waiter] = [await addPatron(db), await addPatron(db)];
    const logged = async () =>
      (
        await new SqlService(db, { statementTimeoutMs: 30_000, rowCap: 1000 }).run(
          `select op_code, stat_group_code_num, pg_typeof(stat_group_code_num)::text as type
           from circ_trans where item_record_id = reckey2id('i${item}') or bib_record_id = reckey2id('b${bib}') order by id`,
        )
      ).rows.map(([op, group, type]) => [op, group, type]);
    const ok = async (method: 'POST' | 'DELETE', url: string, body?: unknown) => {
      const res = await api.send(method, url, body);
      assert.ok(res.statusCode < 300, `${url}: ${res.body}`);
      return res;
    };

    const out = await ok('POST', `/v6/patrons/${reader}/checkouts?statgroup=101`, { itemBarcode: 'SG-1' });
    const checkout = String(out.json().link).split('/').pop()!;
    await ok('POST', `/v6/patrons/checkouts/${checkout}/renewal?statgroup=102`);
    await ok('POST', `/v6/patrons/${waiter}/holds/requests`, {
      recordType: 'b',
      recordNumber: Number(bib),
      pickupLocation: 'mn',
      statgroup: 103,
    });
    await ok('POST', `/v6/items/${item}/checkin?statgroup=104`, {});
    // In the body, as a self-check sends it: the checkout and the hold it fills.
    await ok('POST', `/v6/patrons/${waiter}/checkouts`, { itemBarcode: 'SG-1', statgroup: 105 });
    await ok('DELETE', '/v6/items/checkouts/SG-1?statgroup=0');
    await ok('POST', `/v6/patrons/${reader}/checkouts`, { itemBarcode: 'SG-1' });
    const before = await logged();
    assert.deepEqual(before, [
      ['o', 101, 'integer'],
      ['r', 102, 'integer'],
      ['nb', 103, 'integer'],
      ['i', 104, 'integer'],
      ['f', 105, 'integer'],
      ['o', 105, 'integer'],
      ['i', 0, 'integer'],
      ['o', null, 'integer'],
    ]);

    // A statgroup that is not a whole number from 0 to 999 is refused, naming it, and nothing is written.
    const refusedWith = async (res: { statusCode: number; json(): any; body: string }) => {
      assertRefused(res, 400, res.json().code);
      assert.match(res.json().description, /statgroup/, res.body);
    };
    const [loan] = await db.query<{ id: string }>('select id::text from checkouts where item_id = $1 and returned_date is null', [item]);
    await refusedWith(await api.send('POST', `/v6/patrons/checkouts/${loan!.id}/renewal?statgroup=1000`));
    await refusedWith(await api.send('POST', `/v6/patrons/checkouts/${loan!.id}/renewal?statgroup=two`));
    await refusedWith(await api.send('POST', `/v6/items/${item}/checkin?statgroup=-1`, {}));
    await refusedWith(await api.send('DELETE', '/v6/items/checkouts/SG-1?statgroup=1.5'));
    await refusedWith(
      await api.send('POST', `/v6/patrons/${waiter}/holds/requests`, {
        recordType: 'b',
        recordNumber: Number(bib),
        pickupLocation: 'mn',
        statgroup: 'seven',
      }),
    );
    await refusedWith(
      await api.send('POST', `/v6/patrons/${waiter}/holds/requests`, {
        recordType: 'b',
        recordNumber: Number(bib),
        pickupLocation: 'mn',
        statgroup: 1000,
      }),
    );
    await ok('DELETE', '/v6/items/checkouts/SG-1');
    await refusedWith(await api.send('POST', `/v6/patrons/${waiter}/checkouts?statgroup=5`, { itemBarcode: 'SG-1', statgroup: 6 }));
    await refusedWith(await api.send('POST', `/v6/patrons/${waiter}/checkouts`, { itemBarcode: 'SG-1', statgroup: 1000 }));
    assert.deepEqual(await logged(), [...before, ['i', null, 'integer']]);
    // The rule holds for every door, not only REST's schema.
    await assert.rejects(t.services.circulation.checkout(waiter, { itemBarcode: 'SG-1' }, 1000), /statgroup/);
    await assert.rejects(t.services.circulation.checkin(item, undefined, -1), /statgroup/);
    assert.deepEqual(await logged(), [...before, ['i', null, 'integer']]);
  });

  it('forgets events older than the kept period, and only those', async () => {
    const db = t.testDb.db;
    await db.query(
      `insert into circ_transactions (transaction_date, op_code) values (now() - interval '400 days', 'o'), (now() - interval '300 days', 'o')`,
    );
    const before = Number((await db.query<{ n: string }>('select count(*)::text as n from circ_transactions'))[0]!.n);
    assert.equal(await t.services.circLog.forgetOld(), 1);
    const left = Number((await db.query<{ n: string }>('select count(*)::text as n from circ_transactions'))[0]!.n);
    assert.equal(left, before - 1);
    assert.equal((await db.query(`select 1 from circ_transactions where transaction_date < now() - interval '365 days'`)).length, 0);
  });
});
