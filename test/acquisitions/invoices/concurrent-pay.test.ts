// Concurrent requests cannot count a payment twice: many simultaneous pays of the same invoices
// (on PostgreSQL, over several connections at once), racing creates of one invoice number, and
// changes racing payment all leave every fund equal to the sum of its lines.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { caller, create, type Caller } from '../../helpers/api.ts';
import { setUpAcquisitions } from '../../helpers/acquisitions.ts';
import { ENGINE } from '../../helpers/db.ts';
import { bearer } from '../../helpers/tokens.ts';

/** Each fund's balances next to what its invoice lines add up to. */
async function fundsAgainstLines(t: TestApp) {
  return t.testDb.db.query<{ code: string; expenditure: string; encumbrance: string; paid: string; unpaid: string }>(
    `select f.code, f.expenditure::text, f.encumbrance::text,
       (select coalesce(sum(l.total), 0) from invoice_lines l join invoices i on i.id = l.invoice_id where l.fund_id = f.id and i.status = 'p')::numeric(18, 2)::text as paid,
       (select coalesce(sum(l.total), 0) from invoice_lines l join invoices i on i.id = l.invoice_id where l.fund_id = f.id and i.status <> 'p' and i.deleted_date is null)::numeric(18, 2)::text as unpaid
     from funds f order by f.code`,
  );
}

describe(`concurrent payments on ${ENGINE}`, () => {
  let t: TestApp;
  let writer: Caller;
  before(async () => {
    t = await createTestApp();
    writer = caller(t, await bearer(t, ['Invoices_Write']));
    await setUpAcquisitions(writer);
  });
  after(() => t.close());

  it('pays each invoice once however many pay it at the same moment', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      ids.push(
        await create(writer, '/v6/invoices', {
          invNum: `C-${i}`,
          invDate: '2026-11-02',
          vendorCode: 'ebsco',
          useTaxCode: 'c',
          shipping: '1.99',
          lineItems: [
            { fund: 'books', amount: `${i + 1}0.05`, quantity: 3 },
            { fund: 'serials', amount: '0.10' },
          ],
        }),
      );
    }
    const requests = ids.flatMap((id) =>
      Array.from({ length: 8 }, () => writer.send('POST', `/v6/invoices/${id}/pay`).then((res) => ({ id, res }))),
    );
    const results = await Promise.all(requests);
    for (const id of ids) {
      const mine = results.filter((r) => r.id === id);
      assert.equal(mine.filter((r) => r.res.statusCode === 204).length, 1, `invoice ${id} paid once`);
      for (const r of mine.filter((r) => r.res.statusCode !== 204)) {
        assert.equal(r.res.statusCode, 409, r.res.body);
        assert.equal(r.res.json().specificCode, 2);
      }
    }
    for (const f of await fundsAgainstLines(t)) {
      assert.equal(f.expenditure, f.paid, `${f.code}: expenditure is the paid lines, once`);
      assert.equal(f.encumbrance, f.unpaid, `${f.code}: encumbrance is the unpaid lines`);
    }
  });

  it('lets one of several simultaneous creates of the same invoice number through', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        writer.send('POST', '/v6/invoices', {
          invNum: 'SAME-1',
          invDate: '2026-11-02',
          vendorCode: 'ebsco',
          lineItems: [{ fund: 'books', amount: `${i}.00` }],
        }),
      ),
    );
    assert.equal(results.filter((r) => r.statusCode === 200).length, 1);
    assert.ok(results.filter((r) => r.statusCode !== 200).every((r) => r.statusCode === 409 && r.json().specificCode === 9));
    const rows = await t.testDb.db.query("select id from invoices where inv_num = 'SAME-1'");
    assert.equal(rows.length, 1);
  });

  it('keeps the funds equal to their lines when changes, deletions and payments race', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 8; i++)
      ids.push(
        await create(writer, '/v6/invoices', {
          invNum: `R-${i}`,
          invDate: '2026-11-02',
          vendorCode: 'ebsco',
          lineItems: [{ fund: 'books', amount: '10.00' }],
        }),
      );
    const racing = ids.flatMap((id, i) => [
      writer.send('PUT', `/v6/invoices/${id}`, { lineItems: [{ fund: i % 2 ? 'serials' : 'books', amount: '25.50', quantity: 2 }] }),
      writer.send('POST', `/v6/invoices/${id}/pay`),
      ...(i % 3 === 0 ? [writer.send('DELETE', `/v6/invoices/${id}`)] : []),
    ]);
    for (const res of await Promise.all(racing)) assert.ok([204, 404, 409].includes(res.statusCode), res.body);
    for (const f of await fundsAgainstLines(t)) {
      assert.equal(f.expenditure, f.paid, `${f.code}: expenditure`);
      assert.equal(f.encumbrance, f.unpaid, `${f.code}: encumbrance`);
    }
  });
});
