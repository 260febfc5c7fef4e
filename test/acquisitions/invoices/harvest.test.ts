// The harvest guarantee for invoices: a client walking closed updatedDate windows (paged by id
// range) sees every change, payment and deletion exactly once, and one walking paidDate windows
// sees every payment exactly once, while writers keep creating, changing, paying and deleting,
// one of them stamping its change and committing only later.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stamp } from '../../../src/db/change-clock.ts';
import { openPostgres } from '../../../src/db/postgres.ts';
import * as repo from '../../../src/acquisitions/invoices/repository.ts';
import { servicesOn } from '../../helpers/services.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { caller } from '../../helpers/api.ts';
import { setUpAcquisitions } from '../../helpers/acquisitions.ts';
import { ENGINE } from '../../helpers/db.ts';
import { bearer } from '../../helpers/tokens.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const second = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

describe(`harvesting invoices while writing on ${ENGINE}`, () => {
  let t: TestApp;
  let token: string;
  let vendorId: string;
  before(async () => {
    t = await createTestApp();
    token = await bearer(t, ['Invoices_Read']);
    ({ vendorId } = await setUpAcquisitions(caller(t, await bearer(t, ['Invoices_Write']))));
  });
  after(() => t.close());

  it('sees every change once by updatedDate, and every payment once by paidDate', async () => {
    // On PostgreSQL the writers have a pool of their own, as other processes would: the harvester's
    // requests must not wait for a connection while the slow writer holds the clock (see the bibs' test).
    const writerDb = t.testDb.url ? openPostgres(t.testDb.url, { max: 6, connectTimeoutSec: 10 }) : t.testDb.db;
    const service = servicesOn(writerDb).invoices;
    let writing = true;
    let n = 0;
    let payments = 0;
    const writer = async (slow: boolean) => {
      const open: string[] = []; // each writer changes only its own invoices
      while (writing) {
        const roll = Math.random();
        if (slow) {
          await writerDb.transaction(async (tx) => {
            const at = await stamp(tx);
            await sleep(1500); // stamped now, committed 1.5 s later: after its window would be read, but for the clock
            await repo.insertInvoice(
              tx,
              {
                invNum: `SLOW-${++n}`,
                invDate: '2026-11-02',
                status: 'o',
                vendorId,
                accountingUnit: 0,
                currency: 'USD',
                useTaxCode: null,
                useTaxRate: null,
                shipping: '0.00',
                tax: '0.00',
                discount: '0.00',
                note: null,
              },
              at,
            );
          });
          await sleep(1000); // and leaves the clock to the others for a while
        } else if (roll < 0.4 || open.length < 3) {
          open.push(
            await service.create({
              invNum: `H-${++n}`,
              invDate: '2026-11-02',
              vendorCode: 'ebsco',
              useTaxCode: 'a',
              lineItems: [{ fund: 'books', amount: `${n}.99` }],
            }),
          );
        } else if (roll < 0.6) {
          await service.update(open[Math.floor(Math.random() * open.length)]!, { note: `change ${++n}` });
        } else if (roll < 0.85) {
          await service.pay(open.splice(Math.floor(Math.random() * open.length), 1)[0]!);
          payments++;
        } else {
          await service.delete(open.splice(Math.floor(Math.random() * open.length), 1)[0]!);
        }
        await sleep(Math.random() * 20);
      }
    };

    const walk = (param: 'updatedDate' | 'paidDate') => {
      const seen: { id: string; state: string }[] = [];
      let from = Date.parse('2000-01-01T00:00:00Z');
      let windows = 0;
      const upTo = async (untilMs: number) => {
        const to = Math.floor(untilMs / 1000) * 1000 - 1000;
        if (to < from) return;
        windows++;
        let lastId = 0;
        for (;;) {
          const res = await t.app.inject({
            method: 'GET',
            url: `/v6/invoices?${param}=[${second(from)},${second(to)}]&id=[${lastId + 1},]&limit=5&fields=updatedDate,status`,
            headers: { authorization: token },
          });
          assert.equal(res.statusCode, 200, res.body);
          const page = res.json();
          for (const e of page.entries) seen.push({ id: e.id, state: e.deleted ? 'deleted' : `${e.updatedDate}/${e.status.code}` });
          if (page.entries.length < 5) break;
          lastId = Number(page.entries.at(-1).id);
        }
        from = to + 1000;
      };
      return { seen, upTo, windows: () => windows };
    };
    const updated = walk('updatedDate');
    const paid = walk('paidDate');

    const writers = [writer(false), writer(false), writer(true)];
    // Until the writers have written enough (some payments among it) and several windows were walked, however long the
    // machine takes for it (the file's time-out bounds it).
    while (n <= 40 || payments <= 3 || updated.windows() <= 4) {
      await updated.upTo(Date.now());
      await paid.upTo(Date.now());
      await sleep(150);
    }
    writing = false;
    await Promise.all(writers);
    if (writerDb !== t.testDb.db) await writerDb.close();
    await sleep(1100);
    await updated.upTo(Date.now());
    await paid.upTo(Date.now());

    const keys = updated.seen.map((s) => `${s.id}@${s.state}`);
    assert.equal(new Set(keys).size, keys.length, 'no state of an invoice is seen twice');
    const rows = await t.testDb.db.query<{ id: string; updated: Date; status: string; deleted: boolean }>(
      'select id::text, updated_date as updated, status, deleted_date is not null as deleted from invoices',
    );
    const last = new Map(updated.seen.map((s) => [s.id, s.state]));
    for (const row of rows) {
      assert.equal(
        last.get(row.id),
        row.deleted ? 'deleted' : `${second(row.updated.getTime())}/${row.status}`,
        `invoice ${row.id}: the last view is its final state`,
      );
    }
    const paidIds = rows
      .filter((r) => r.status === 'p')
      .map((r) => r.id)
      .sort();
    assert.ok(paidIds.length > 3, `invoices were paid (${paidIds.length})`);
    assert.deepEqual(paid.seen.map((s) => s.id).sort(), paidIds, 'each payment seen exactly once by paidDate');
    assert.ok(paid.seen.every((s) => s.state.endsWith('/p')));
  });
});
