// /v6/orders through the API: placing an order encumbers its fund exactly, cancelling releases
// it, receiving adds items at the order's locations, an invoice line naming the order moves the
// encumbrance to expenditure when paid; every refusal names its member and writes nothing; a
// bib's orders member.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { assertRefused, caller, create, type Caller } from '../../helpers/api.ts';
import { setUpAcquisitions, snapshot } from '../../helpers/acquisitions.ts';
import { addBib, setUpLibrary } from '../../helpers/circulation.ts';
import { ENGINE } from '../../helpers/db.ts';
import { cents, money } from '../../helpers/money.ts';
import { bearer } from '../../helpers/tokens.ts';

const fund = async (api: Caller, code: string) => (await api.get(`/v6/funds/${code}`)).json();

describe(`orders on ${ENGINE}`, () => {
  let t: TestApp;
  let writer: Caller;
  let reader: Caller;
  let bibId: string;
  let n = 0;
  const order = (over: Record<string, unknown> = {}) => ({
    bibId,
    vendor: 'ebsco',
    fund: 'books',
    copies: 3,
    location: [
      { locationCode: 'mn', copies: 2 },
      { locationCode: 'br', copies: 1 },
    ],
    estimatedPrice: '12.99',
    lineReference: `2724/${++n}`,
    ...over,
  });
  before(async () => {
    t = await createTestApp();
    writer = caller(t, await bearer(t, ['Invoices_Write']));
    reader = caller(t, await bearer(t, ['Invoices_Read']));
    await setUpAcquisitions(writer);
    await setUpLibrary(t.testDb.db);
    bibId = await addBib(t.testDb.db, 'Ordered book');
  });
  after(() => t.close());

  it('places an order, encumbering copies × price exactly, and reads it back', async () => {
    const before = await fund(reader, 'books');
    const res = await writer.send('POST', '/iii/sierra-api/v6/orders', {
      bibId,
      vendor: 'ebsco',
      fund: 'books',
      copies: 2,
      location: [{ locationCode: 'mn', copies: 2 }],
      estimatedPrice: 12.99,
      lineReference: '2724/71178',
    });
    assert.equal(res.statusCode, 200, res.body);
    const link = res.json().link as string;
    assert.match(link, /\/iii\/sierra-api\/v6\/orders\/\d+$/);
    const id = link.split('/').pop()!;
    const after = await fund(reader, 'books');
    assert.equal(after.encumbrance, '25.98');
    assert.equal(before.encumbrance, '0.00');
    const got = (await reader.get(`/v6/orders/${id}?fields=default,fixedFields`)).json();
    assert.equal(got.id, id);
    assert.equal(got.estimatedPrice, '12.99');
    assert.equal(got.encumbrance, '25.98');
    assert.equal(got.vendorRecordCode, 'ebsco');
    assert.equal(got.lineReference, '2724/71178');
    assert.equal(got.status.code, 'o');
    assert.equal(got.currency, 'USD');
    assert.deepEqual(got.chargedFunds, [{ displayOrder: 0, fund: 'books', copies: 2, location: { code: 'mn', name: 'Main' } }]);
    assert.equal(got.fixedFields['5'].value, 2);
    assert.equal(got.fixedFields['20'].value, 'o');
    assert.equal(got.fixedFields['2'].value, 'mn');
  });

  it('gives an order without a line reference o and its id, and exact sums of many cents', async () => {
    const id = await create(
      writer,
      '/v6/orders',
      order({
        lineReference: undefined,
        copies: 7,
        location: [{ locationCode: 'st', copies: 7 }],
        estimatedPrice: '0.07',
        fund: 'serials',
      }),
    );
    const got = (await reader.get(`/v6/orders/${id}`)).json();
    assert.equal(got.lineReference, `o${id}`);
    assert.equal(got.encumbrance, '0.49');
    assert.equal((await fund(reader, 'serials')).encumbrance, '0.49');
  });

  it('cancels an order, releasing what it encumbers; a second cancel is refused', async () => {
    const id = await create(writer, '/v6/orders', order({ fund: 'euro', estimatedPrice: '10.10' }));
    assert.equal((await fund(reader, 'euro')).encumbrance, '30.30');
    const res = await writer.send('PUT', `/v6/orders/${id}`, { status: 'z' });
    assert.equal(res.statusCode, 204, res.body);
    assert.equal((await fund(reader, 'euro')).encumbrance, '0.00');
    const got = (await reader.get(`/v6/orders/${id}`)).json();
    assert.equal(got.status.code, 'z');
    assert.equal(got.encumbrance, '0.00');
    assert.ok(got.cancelledDate);
    const again = await writer.send('PUT', `/v6/orders/${id}`, { status: 'z' });
    assertRefused(again, 409, 132, 16);
    assert.match(again.json().description, /^status: /);
    // Its line reference is free again once cancelled.
    await create(writer, '/v6/orders', order({ fund: 'euro', estimatedPrice: '1.00', lineReference: got.lineReference }));
  });

  it('receives copies as items at the order’s locations, keeping the encumbrance', async () => {
    const id = await create(writer, '/v6/orders', order());
    const encumbered = (await fund(reader, 'books')).encumbrance;
    assert.equal((await writer.send('PUT', `/v6/orders/${id}`, { receive: 2 })).statusCode, 204);
    let got = (await reader.get(`/v6/orders/${id}`)).json();
    assert.equal(got.receivedCopies, 2);
    assert.match(got.receivedDate, /^\d{4}-\d{2}-\d{2}$/);
    assert.equal((await writer.send('PUT', `/v6/orders/${id}`, { receive: 'all' })).statusCode, 204);
    got = (await reader.get(`/v6/orders/${id}`)).json();
    assert.equal(got.receivedCopies, 3);
    const items = await t.testDb.db.query<{ location_code: string; status: string }>(
      `select i.location_code, i.status from items i join item_bibs ib on ib.item_id = i.id where ib.bib_id = $1 order by i.id`,
      [bibId],
    );
    assert.deepEqual(
      items.map((i) => i.location_code),
      ['mn', 'mn', 'br'],
    );
    assert.ok(items.every((i) => i.status === 'p'));
    assert.equal((await fund(reader, 'books')).encumbrance, encumbered);
    assertRefused(await writer.send('PUT', `/v6/orders/${id}`, { receive: 1 }), 409, 132, 19);
    const cancel = await writer.send('PUT', `/v6/orders/${id}`, { status: 'z' });
    assertRefused(cancel, 409, 132, 18);
  });

  it('an invoice line naming the order by line reference moves its encumbrance to expenditure when paid', async () => {
    const id = await create(writer, '/v6/orders', order({ fund: 'serials', estimatedPrice: '20.00', lineReference: 'EDI-77' }));
    const start = await fund(reader, 'serials');
    const invoice = await create(writer, '/v6/invoices', {
      invNum: `O-${id}`,
      invDate: '2026-11-02',
      vendorCode: 'ebsco',
      lineItems: [{ fund: 'serials', amount: '18.50', quantity: 2, order: 'EDI-77' }],
    });
    // The unpaid line encumbers nothing of its own: the order holds the encumbrance.
    assert.equal((await fund(reader, 'serials')).encumbrance, start.encumbrance);
    assert.equal((await writer.send('POST', `/v6/invoices/${invoice}/pay`)).statusCode, 204);
    const paid = await fund(reader, 'serials');
    // 2 of 3 copies paid: 2 × 20.00 released, the line's 37.00 spent.
    assert.equal(paid.encumbrance, money(cents(start.encumbrance) - 4000n));
    assert.equal(paid.expenditure, money(cents(start.expenditure) + 3700n));
    let got = (await reader.get(`/v6/orders/${id}`)).json();
    assert.equal(got.status.code, 'q');
    assert.equal(got.paidCopies, 2);
    assert.equal(got.encumbrance, '20.00');
    // The last copy, named by the order's record key.
    const second = await create(writer, '/v6/invoices', {
      invNum: `O2-${id}`,
      invDate: '2026-11-02',
      vendorCode: 'ebsco',
      lineItems: [{ fund: 'serials', amount: '21.00', quantity: 1, order: `o${id}` }],
    });
    assert.equal((await writer.send('POST', `/v6/invoices/${second}/pay`)).statusCode, 204);
    got = (await reader.get(`/v6/orders/${id}`)).json();
    assert.equal(got.status.code, 'a');
    assert.equal(got.encumbrance, '0.00');
    const end = await fund(reader, 'serials');
    assert.equal(end.encumbrance, money(cents(start.encumbrance) - 6000n));
    assert.equal(end.expenditure, money(cents(start.expenditure) + 5800n));
    const line = await t.testDb.db.query<{ order_id: string }>('select order_id::text from invoice_lines where invoice_id = $1', [second]);
    assert.equal(line[0]!.order_id, id);
  });

  it('releases no more than the order still encumbers when an invoice pays more copies than ordered', async () => {
    const id = await create(
      writer,
      '/v6/orders',
      order({ copies: 1, location: [{ locationCode: 'mn', copies: 1 }], estimatedPrice: '5.00' }),
    );
    const start = await fund(reader, 'books');
    const invoice = await create(writer, '/v6/invoices', {
      invNum: `OVER-${id}`,
      invDate: '2026-11-02',
      vendorCode: 'ebsco',
      lineItems: [{ fund: 'books', amount: '5.00', quantity: 2, order: id }],
    });
    assert.equal((await writer.send('POST', `/v6/invoices/${invoice}/pay`)).statusCode, 204);
    const end = await fund(reader, 'books');
    assert.equal(end.encumbrance, money(cents(start.encumbrance) - 500n));
    assert.equal(end.expenditure, money(cents(start.expenditure) + 1000n));
    const got = (await reader.get(`/v6/orders/${id}`)).json();
    assert.equal(got.encumbrance, '0.00');
    assert.equal(got.status.code, 'a');
  });

  it('refuses an invoice line on another fund than its order’s, or naming a cancelled order', async () => {
    const id = await create(writer, '/v6/orders', order({ lineReference: 'FUNDS-1' }));
    const wrong = await writer.send('POST', '/v6/invoices', {
      invNum: 'WRONG-1',
      invDate: '2026-11-02',
      vendorCode: 'ebsco',
      lineItems: [{ fund: 'serials', amount: '1.00', order: 'FUNDS-1' }],
    });
    assertRefused(wrong, 400, 126);
    assert.match(wrong.json().description, /^lineItems\.0\.fund: /);
    assert.equal((await writer.send('PUT', `/v6/orders/${id}`, { status: 'z' })).statusCode, 204);
    const cancelled = await writer.send('POST', '/v6/invoices', {
      invNum: 'WRONG-2',
      invDate: '2026-11-02',
      vendorCode: 'ebsco',
      lineItems: [{ fund: 'books', amount: '1.00', order: id }],
    });
    assertRefused(cancelled, 409, 132, 16);
    assert.match(cancelled.json().description, /^lineItems\.0\.order: /);
  });

  it('refuses each bad order naming the member, writing nothing', async () => {
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ vendor: 'nosuch' }, 400, /^vendor: no vendor nosuch/],
      [{ fund: 'nosuch' }, 400, /^fund: no fund nosuch/],
      [{ bibId: '999999999' }, 400, /^bibId: no bib 999999999/],
      [
        {
          location: [
            { locationCode: 'mn', copies: 2 },
            { locationCode: 'zz', copies: 1 },
          ],
        },
        400,
        /^location\[1\]\.locationCode: no location zz/,
      ],
      [{ copies: 4 }, 400, /^location: the locations' copies add up to 3, not copies 4/],
      [{ estimatedPrice: '0' }, 400, /^estimatedPrice: must be more than 0/],
      [{ estimatedPrice: '-1.00' }, 400, /^estimatedPrice: .* must not be negative/],
      [{ estimatedPrice: '1.001' }, 400, /^estimatedPrice: .* more than two decimal places/],
      [{ currency: 'EUR' }, 400, /^currency: fund books is kept in USD/],
      [
        {
          location: [
            { locationCode: 'mn', copies: 2 },
            { locationCode: 'mn', copies: 1 },
          ],
        },
        400,
        /^location\[1\]\.locationCode: mn is given twice/,
      ],
      [{ lineReference: '2724/71178' }, 409, /^lineReference: open order \d+ already has line reference 2724\/71178/],
    ];
    const was = { ...((await snapshot(t.testDb.db)) as object), orders: await t.testDb.db.query('select * from orders order by id') };
    for (const [over, status, description] of cases) {
      const res = await writer.send('POST', '/v6/orders', order(over));
      assert.equal(res.statusCode, status, `${JSON.stringify(over)}: ${res.body}`);
      assert.match(res.json().description, description, JSON.stringify(over));
    }
    const now = { ...((await snapshot(t.testDb.db)) as object), orders: await t.testDb.db.query('select * from orders order by id') };
    assert.deepEqual(now, was);
  });

  it('lets one of several simultaneous orders with the same line reference through', async () => {
    const start = await fund(reader, 'books');
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        writer.send(
          'POST',
          '/v6/orders',
          order({ lineReference: 'RACE-1', copies: 1, location: [{ locationCode: 'mn', copies: 1 }], estimatedPrice: '1.00' }),
        ),
      ),
    );
    assert.equal(results.filter((r) => r.statusCode === 200).length, 1);
    for (const r of results.filter((r) => r.statusCode !== 200)) assertRefused(r, 409, 132, 17);
    assert.equal((await fund(reader, 'books')).encumbrance, money(cents(start.encumbrance) + 100n));
  });

  it('gives an EDI exchange what it needs: the open order by vendor and line reference, the vendor’s status', async () => {
    const orders = t.services.orders;
    const id = await create(writer, '/v6/orders', order({ lineReference: 'EDI-LINE-9' }));
    const found = await orders.findOpenByLineReference('ebsco', 'EDI-LINE-9');
    assert.equal(found?.id, id);
    assert.equal(found?.bib_title, 'Ordered book');
    assert.equal(found?.fund_code, 'books');
    assert.equal(found?.estimated_price, '12.99');
    assert.deepEqual(
      found?.locations.map((l) => [l.location_code, l.copies]),
      [
        ['mn', 2],
        ['br', 1],
      ],
    );
    assert.equal(await orders.findOpenByLineReference('nosuch', 'EDI-LINE-9'), undefined);
    await orders.recordVendorStatus(id, 'accepted');
    const got = (await reader.get(`/v6/orders/${id}`)).json();
    assert.equal(got.vendorStatus, 'accepted');
    await orders.cancel(id);
    assert.equal(await orders.findOpenByLineReference('ebsco', 'EDI-LINE-9'), undefined);
  });

  it('lists orders with filters and answers 404 for none', async () => {
    const all = (await reader.get('/v6/orders?limit=100')).json();
    assert.ok(all.total >= 5);
    const cancelled = (await reader.get('/v6/orders?status=z')).json();
    assert.ok(cancelled.entries.length >= 1 && cancelled.entries.every((o: { status: { code: string } }) => o.status.code === 'z'));
    const byRef = (await reader.get('/v6/orders?lineReference=2724%2F71178&fields=id,lineReference')).json();
    assert.deepEqual(Object.keys(byRef.entries[0]).sort(), ['id', 'lineReference']);
    const first = all.entries[0].id;
    assert.equal((await reader.get(`/v6/orders?id=${first}`)).json().total, 1);
    assert.equal((await reader.get('/v6/orders?createdDate=[2000-01-01T00:00:00Z,]')).statusCode, 200);
    assert.equal((await reader.get('/v6/orders/99999999')).statusCode, 404);
    assert.equal((await reader.send('POST', '/v6/orders', order())).statusCode, 403);
    // The acquisitions roles: orders without invoices.
    const selector = caller(t, await bearer(t, ['Acquisitions_Read']));
    assert.equal((await selector.get(`/v6/orders/${first}`)).statusCode, 200);
    assert.equal((await selector.send('POST', '/v6/orders', order())).statusCode, 403);
    assert.equal((await selector.get('/v6/invoices')).statusCode, 403);
    const buyer = caller(t, await bearer(t, ['Acquisitions_Write']));
    assert.equal(
      (await buyer.send('POST', '/v6/orders', order({ copies: 1, location: [{ locationCode: 'mn', copies: 1 }] }))).statusCode,
      200,
    );
  });

  it('shows a bib’s orders (not cancelled ones) in its orders member', async () => {
    const bib = await addBib(t.testDb.db, 'Another');
    const id = await create(writer, '/v6/orders', order({ bibId: bib }));
    const cancelled = await create(writer, '/v6/orders', order({ bibId: bib, copies: 1, location: [{ locationCode: 'st', copies: 1 }] }));
    assert.equal((await writer.send('PUT', `/v6/orders/${cancelled}`, { status: 'z' })).statusCode, 204);
    const catalogue = caller(t, await bearer(t, ['Bibs_Read']));
    const got = (await catalogue.get(`/v6/bibs/${bib}?fields=orders`)).json();
    const date = (await reader.get(`/v6/orders/${id}`)).json().orderDate;
    assert.deepEqual(got.orders, [
      { orderId: id, location: { code: 'mn', name: 'Main' }, copies: 2, date },
      { orderId: id, location: { code: 'br', name: 'Riverside' }, copies: 1, date },
    ]);
    const listed = (await catalogue.get(`/v6/bibs?id=${bib}&fields=orders`)).json();
    assert.equal(listed.entries[0].orders.length, 2);
  });

  it('shows orders in Sierra’s order views, joined as Sierra’s reports join them', async () => {
    const bib = await addBib(t.testDb.db, 'Viewed');
    const id = await create(writer, '/v6/orders', order({ bibId: bib, fund: 'serials', estimatedPrice: '4.25', lineReference: 'VIEW-1' }));
    const invoice = await create(writer, '/v6/invoices', {
      invNum: `V-${id}`,
      invDate: '2026-11-03',
      vendorCode: 'ebsco',
      lineItems: [{ fund: 'serials', amount: '4.00', quantity: 1, order: 'VIEW-1' }],
    });
    assert.equal((await writer.send('POST', `/v6/invoices/${invoice}/pay`)).statusCode, 204);
    const db = t.testDb.db;
    const recordId = String(476741369856n + BigInt(id));
    const [record] = await db.query<Record<string, unknown>>(
      `select o.id::text, v.record_num, o.estimated_price::text, o.order_status_code, o.vendor_record_code, o.fund_copies_paid,
         sierra_view.id2reckey(o.id) as reckey
       from sierra_view.order_record o join sierra_view.order_view v on v.id = o.id where o.record_id = $1`,
      [recordId],
    );
    assert.deepEqual(record, {
      id: recordId,
      record_num: Number(id),
      estimated_price: '4.250000',
      order_status_code: 'q',
      vendor_record_code: 'ebsco',
      fund_copies_paid: 1,
      reckey: `o${id}`,
    });
    const [meta] = await db.query<{ record_type_code: string; record_num: number }>(
      'select m.record_type_code, m.record_num from sierra_view.record_metadata m where m.id = $1',
      [recordId],
    );
    assert.deepEqual({ ...meta }, { record_type_code: 'o', record_num: Number(id) });
    const cmf = await db.query<Record<string, unknown>>(
      `select c.display_order, c.fund_code, c.copies, c.location_code, f.code as fund
       from sierra_view.order_record_cmf c join sierra_view.fund_master f on f.code_num = c.fund_code::integer
       where c.order_record_id = $1 order by c.display_order`,
      [recordId],
    );
    assert.deepEqual(
      cmf.map((c) => [c.display_order, c.copies, c.location_code, c.fund]),
      [
        [0, 2, 'mn', 'serials'],
        [1, 1, 'br', 'serials'],
      ],
    );
    const links = await db.query<{ order_record_id: string }>(
      `select l.order_record_id::text from sierra_view.bib_record_order_record_link l
       join sierra_view.bib_view b on b.id = l.bib_record_id where b.record_num = $1`,
      [Number(bib)],
    );
    assert.deepEqual(
      links.map((l) => l.order_record_id),
      [recordId],
    );
    const paid = await db.query<Record<string, unknown>>(
      `select p.paid_amount::text, p.copies, p.invoice_code, l.order_record_metadata_id::text as line_order
       from sierra_view.order_record_paid p join sierra_view.invoice_record_line l on l.id = p.id where p.order_record_id = $1`,
      [recordId],
    );
    assert.deepEqual([...paid], [{ paid_amount: '4.000000', copies: 1, invoice_code: `V-${id}`, line_order: recordId }]);
  });
});
