// The harvest guarantee: a client that walks closed updatedDate windows, paging each by id range,
// sees every change and every deletion exactly once while writers keep writing, including a
// writer whose transaction stamps its change and commits only later.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deriveBib } from '../../src/bibs/derive.ts';
import * as repo from '../../src/bibs/repository.ts';
import { BibService } from '../../src/bibs/service.ts';
import { ItemService } from '../../src/items/service.ts';
import { importRecords } from '../../src/bibs/import.ts';
import { stamp } from '../../src/db/change-clock.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { toMarcInJson } from '../../src/marc/marc-in-json.ts';
import type { MarcRecord } from '../../src/marc/record.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const record = (n: number): MarcRecord => ({
  leader: '00000nam a2200000 a 4500',
  fields: [{ tag: '245', ind1: '0', ind2: '0', subfields: [{ code: 'a', value: `Harvest test ${n}` }] }],
});
const controlled = (n: number, title: string): MarcRecord => ({
  leader: '00000nam a2200000 a 4500',
  fields: [
    { tag: '001', value: `h${n}` },
    { tag: '003', value: 'TEST' },
    { tag: '245', ind1: '0', ind2: '0', subfields: [{ code: 'a', value: title }] },
  ],
});
const second = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

describe(`harvesting while writing on ${ENGINE}`, () => {
  let t: TestApp;
  let token: string;
  before(async () => {
    t = await createTestApp();
    token = await bearer(t, ['Bibs_Read']);
  });
  after(() => t.close());

  it('sees every change and deletion exactly once, none lost to late commits', async () => {
    // On PostgreSQL the writers have a pool of their own, as other processes would: the harvester's
    // requests must not wait for a connection while the slow writer holds the clock, or they could
    // not go ahead of its commit, which is what the clock must make them wait for.
    const writerDb = t.testDb.url ? openPostgres(t.testDb.url, { max: 8, connectTimeoutSec: 10 }) : t.testDb.db;
    const service = new BibService(writerDb, new ItemService(writerDb));
    let writing = true;
    let n = 0;
    const writer = async (slow: boolean) => {
      const live: string[] = []; // each writer changes only its own records, so writers never race each other
      while (writing) {
        const roll = Math.random();
        if (slow) {
          // Stamp first, commit 1.5 s later, after the harvester would have read its window but for
          // the clock: the case statement-time ordering gets wrong.
          await writerDb.transaction(async (tx) => {
            const at = await stamp(tx);
            await sleep(1500);
            const marc = record(++n);
            live.push(await repo.insertBib(tx, toMarcInJson(marc), deriveBib(marc), false, at));
          });
          await sleep(1000); // and leaves the clock to the others for a while
        } else if (roll < 0.6 || live.length < 5) {
          live.push(await service.create({ marc: record(++n) }));
        } else if (roll < 0.85) {
          await service.replace(live[Math.floor(Math.random() * live.length)]!, { marc: record(++n) });
        } else {
          const [id] = live.splice(Math.floor(Math.random() * live.length), 1);
          await service.delete(id!);
        }
        await sleep(Math.random() * 20);
      }
    };

    // An import: runs of 1,200 records, three batches written side by side (src/bibs/import.ts),
    // half of each run new and half loaded again changed.
    let runs = 0;
    const importer = async () => {
      for (let run = 0; writing; run = ++runs) {
        const records = Array.from({ length: 1200 }, (_, i) => {
          const number = i % 2 === 0 ? run * 600 + i / 2 : Math.max(0, run - 1) * 600 + (i - 1) / 2;
          return { position: `record ${i + 1}`, record: controlled(number, `Imported ${number}, run ${run}`) };
        });
        await importRecords(writerDb, [{ name: `run ${run}`, records }], { itemMap: null });
        await sleep(Math.random() * 100);
      }
    };

    // The harvester: closed windows [L, U] of whole seconds already over, each paged by id.
    const seen: { id: string; state: string; window: number }[] = [];
    let from = Date.parse('2000-01-01T00:00:00Z');
    let window = 0;
    const harvestUpTo = async (untilMs: number) => {
      const to = Math.floor(untilMs / 1000) * 1000 - 1000; // the last whole second that is over
      if (to < from) return;
      window++;
      let lastId = 0;
      for (;;) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/v6/bibs?updatedDate=[${second(from)},${second(to)}]&id=[${lastId + 1},]&limit=7&fields=updatedDate`,
          headers: { authorization: token },
        });
        assert.equal(res.statusCode, 200, res.body);
        const page = res.json();
        for (const e of page.entries) seen.push({ id: e.id, state: e.deleted ? 'deleted' : e.updatedDate, window });
        if (page.entries.length < 7) break;
        lastId = Number(page.entries.at(-1).id);
      }
      from = to + 1000;
    };

    const writers = [writer(false), writer(false), writer(true), importer()];
    // At least 6 s of writing, and on until there is enough to check: on a loaded machine (PGlite takes
    // one statement at a time) 6 s may not be enough for the counts asserted below. The runner's
    // time-out ends a run that never gets there.
    const stopAt = Date.now() + 6000;
    const enough = () => n > 20 && runs >= 2 && window > 3;
    while (Date.now() < stopAt || !enough()) {
      await harvestUpTo(Date.now());
      await sleep(150);
    }
    writing = false;
    await Promise.all(writers);
    if (writerDb !== t.testDb.db) await writerDb.close();
    await sleep(1100); // let the last second end
    await harvestUpTo(Date.now());

    assert.ok(n > 20, `writers wrote (${n})`);
    assert.ok(runs >= 2, `the importer loaded runs of records (${runs})`);
    assert.ok(window > 3, `harvester walked several windows (${window})`);
    const keys = seen.map((s) => `${s.id}@${s.state}`);
    assert.equal(new Set(keys).size, keys.length, 'no state of a record is seen twice');

    const finalRows = await t.testDb.db.query<{ id: string; updated: Date; deleted: boolean }>(
      'select id::text, updated_date as updated, deleted_date is not null as deleted from bibs',
    );
    const lastSeen = new Map(seen.map((s) => [s.id, s.state]));
    for (const row of finalRows) {
      const expected = row.deleted ? 'deleted' : second(row.updated.getTime());
      assert.equal(lastSeen.get(row.id), expected, `bib ${row.id}: the harvester's last view is its final state`);
    }
  });
});
