// Items read from bibs' item fields on import (949, 945, 852 by default; a mapping can say otherwise).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importRecords, type ImportOptions } from '../../src/bibs/import.ts';
import { ensureDemoLocations } from '../../src/demo/load.ts';
import { DEFAULT_ITEM_MAP, itemsFromRecord, parseItemMap } from '../../src/items/from-marc.ts';
import type { DataField, MarcRecord } from '../../src/marc/record.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';

const df = (tag: string, ...subfields: [string, string][]): DataField => ({
  tag,
  ind1: ' ',
  ind2: ' ',
  subfields: subfields.map(([code, value]) => ({ code, value })),
});

function bib(control: string, ...fields: DataField[]): MarcRecord {
  return {
    leader: '00000nam a2200000 i 4500',
    fields: [{ tag: '001', value: control }, { tag: '003', value: 'ItemTest' }, df('245', ['a', `Title ${control}`]), ...fields],
  };
}

const load = (t: TestDb, records: MarcRecord[], options: ImportOptions = { itemMap: DEFAULT_ITEM_MAP }) =>
  importRecords(t.db, [{ name: 'test', records: records.map((record, i) => ({ position: `record ${i + 1}`, record })) }], options);

interface Row {
  barcode: string | null;
  call_number: string | null;
  location_code: string | null;
  status: string;
  item_type: string | null;
  control_number: string;
}

const items = (t: TestDb, control: string) =>
  t.db.query<Row>(
    `select i.barcode, i.call_number, i.location_code, i.status, i.item_type, b.control_number
   from items i join item_bibs ib on ib.item_id = i.id join bibs b on b.id = ib.bib_id
   where b.control_number = $1 and i.deleted_date is null order by i.barcode nulls last, i.id`,
    [control],
  );

describe('item fields in records', () => {
  it('reads the first mapped field a record has, trimming values and lower-casing locations', () => {
    const record = bib(
      'x',
      df('852', ['b', 'EA'], ['h', 'QA76.73'], ['i', '.J38'], ['p', '999']),
      df('949', ['a', ' FIC SMI '], ['i', '111'], ['l', 'MN'], ['t', 'book']),
    );
    assert.deepEqual(itemsFromRecord(record, DEFAULT_ITEM_MAP), [
      { callNumber: 'FIC SMI', barcode: '111', location: 'mn', itemType: 'book' },
    ]);
    const only852 = parseItemMap({ fields: [{ tag: '852', barcode: 'p', location: 'b', callNumber: 'hi' }] });
    assert.deepEqual(itemsFromRecord(record, only852), [{ barcode: '999', location: 'ea', callNumber: 'QA76.73 .J38' }]);
    assert.deepEqual(itemsFromRecord(bib('y'), DEFAULT_ITEM_MAP), []);
  });

  it('refuses a mapping that is not one, saying what is wrong', () => {
    assert.throws(() => parseItemMap({}), /at least one field/);
    assert.throws(() => parseItemMap({ fields: [{ tag: '001', barcode: 'a' }] }), /data field tag/);
    assert.throws(() => parseItemMap({ fields: [{ tag: '949', shelf: 'a' }] }), /shelf is not one of/);
    assert.throws(() => parseItemMap({ fields: [{ tag: '949', barcode: 'A!' }] }), /subfield codes/);
  });
});

describe(`items on import on ${ENGINE}`, () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb();
    await t.db.transaction((tx) => ensureDemoLocations(tx));
  });
  after(() => t.drop());

  it('creates the items of each record, linked to its bib', async () => {
    const summary = await load(t, [
      bib(
        'a1',
        df('949', ['a', 'FIC AUS'], ['i', '31001'], ['l', 'mn'], ['s', '-'], ['t', 'book']),
        df('949', ['a', 'FIC AUS'], ['i', '31002'], ['l', 'ea'], ['s', 'o'], ['t', 'book']),
      ),
      bib('a2', df('852', ['b', 'mnref'], ['h', '914.2'], ['i', 'B67'], ['p', '31003'])),
      bib('a3'),
    ]);
    assert.equal(summary.created, 3);
    assert.deepEqual(summary.items, { created: 3, updated: 0 });
    assert.deepEqual(summary.warnings, []);
    assert.deepEqual(
      (await items(t, 'a1')).map((i) => [i.barcode, i.call_number, i.location_code, i.status, i.item_type]),
      [
        ['31001', 'FIC AUS', 'mn', '-', 'book'],
        ['31002', 'FIC AUS', 'ea', 'o', 'book'],
      ],
    );
    assert.deepEqual(
      (await items(t, 'a2')).map((i) => [i.barcode, i.call_number, i.location_code, i.status]),
      [['31003', '914.2 B67', 'mnref', '-']],
    );
  });

  it('updates items by barcode on re-import, leaving their circulation status alone', async () => {
    await t.db.query("update items set status = 't' where barcode = '31001'");
    const summary = await load(t, [
      bib(
        'a1',
        df('949', ['a', 'FIC AUSTEN'], ['i', '31001'], ['l', 'ea'], ['s', '-'], ['t', 'book']),
        df('949', ['a', 'FIC AUSTEN'], ['i', '31002'], ['l', 'ea'], ['s', 'o'], ['t', 'book']),
      ),
    ]);
    assert.equal(summary.updated, 1);
    assert.deepEqual(summary.items, { created: 0, updated: 2 });
    assert.deepEqual(
      (await items(t, 'a1')).map((i) => [i.barcode, i.call_number, i.location_code, i.status]),
      [
        ['31001', 'FIC AUSTEN', 'ea', 't'],
        ['31002', 'FIC AUSTEN', 'ea', 'o'],
      ],
    );
  });

  it('loads an item with an unknown location, item type or status without them, counting each unknown code once', async () => {
    const summary = await load(t, [
      bib('a4', df('949', ['i', '31004'], ['l', 'zz'], ['s', '?'], ['t', 'laserdisc'])),
      bib('a4b', df('949', ['i', '31005'], ['l', 'zz'], ['t', 'laserdisc']), df('949', ['i', '31006'], ['l', 'zz'], ['t', 'book'])),
    ]);
    assert.equal(summary.created, 2);
    assert.equal(summary.warningCount, 1);
    assert.match(summary.warnings[0]!.reason, /status "\?" is not an item status/);
    assert.equal(summary.warnings[0]!.position, 'record 1');
    assert.deepEqual(summary.unknownCodes, [
      { kind: 'location', code: 'zz', items: 3, created: false },
      { kind: 'itemType', code: 'laserdisc', items: 2, created: false },
    ]);
    assert.deepEqual(
      (await items(t, 'a4')).map((i) => [i.barcode, i.location_code, i.status, i.item_type]),
      [['31004', null, '-', null]],
    );
  });

  it('adds items without a barcode with a new bib only (they cannot be recognised again)', async () => {
    const record = bib('a5', df('949', ['a', 'REF 030 ENC'], ['l', 'mnref']));
    await load(t, [record]);
    await load(t, [record]);
    assert.equal((await items(t, 'a5')).length, 1);
  });

  it('loads no items when told not to', async () => {
    const summary = await load(t, [bib('a6', df('949', ['i', '31006'], ['l', 'mn']))], { itemMap: null });
    assert.deepEqual(summary.items, { created: 0, updated: 0 });
    assert.equal((await items(t, 'a6')).length, 0);
  });

  it('sees what the batch before wrote: a record or barcode again in the next batch updates, never duplicates', async () => {
    // A batch is planned (matched, barcodes checked) while the one before it is still being
    // written; these records straddle the boundary of 500.
    const filler = Array.from({ length: 498 }, (_, i) => bib(`f${i}`));
    const records = [
      bib('b1', df('949', ['i', '32001'], ['l', 'mn'])),
      ...filler,
      bib('b2', df('949', ['i', '32002'], ['l', 'mn'])),
      {
        ...bib('b1', df('949', ['i', '32001'], ['l', 'ea'])),
        fields: [
          ...bib('b1').fields.filter((f) => f.tag !== '245'),
          df('245', ['a', 'Title b1, revised']),
          df('949', ['i', '32001'], ['l', 'ea']),
        ],
      },
      bib('b3', df('949', ['i', '32002'], ['l', 'ea'], ['a', 'MOVED'])),
    ];
    const summary = await load(t, records);
    assert.equal(summary.created, 501);
    assert.equal(summary.updated, 1);
    assert.deepEqual(summary.items, { created: 2, updated: 2 });
    const titles = await t.db.query<{ title: string }>("select title from bibs where control_number = 'b1' and deleted_date is null");
    assert.deepEqual(
      titles.map((r) => r.title),
      ['Title b1, revised'],
    );
    assert.deepEqual(
      (await items(t, 'b1')).map((i) => [i.barcode, i.location_code]),
      [['32001', 'ea']],
    );
    const moved = await t.db.query<{ n: number }>("select count(*)::int as n from items where barcode = '32002' and deleted_date is null");
    assert.equal(moved[0]!.n, 1);
    assert.deepEqual(
      (await items(t, 'b3')).map((i) => [i.barcode, i.location_code, i.call_number]),
      [['32002', 'ea', 'MOVED']],
    );
    const order = await t.db.query<{ control_number: string }>(
      "select control_number from bibs where control_number in ('b1', 'f0', 'f497', 'b2', 'b3') order by id",
    );
    assert.deepEqual(
      order.map((r) => r.control_number),
      ['b1', 'f0', 'f497', 'b2', 'b3'],
      'numbered in the order of the file',
    );
  });

  it('sees what a batch two back wrote, though it may be written side by side with the one between', async () => {
    // Batches are written two at a time: the third is planned while the first and second may both
    // be in their transactions. Its record and barcode from the first must wait for that one and
    // update; the second, which shares nothing, goes on beside it.
    const filler = (from: number) => Array.from({ length: 500 }, (_, i) => bib(`g${from + i}`));
    const records = [
      bib('d1', df('949', ['i', '33001'], ['l', 'mn'])),
      ...filler(0).slice(1),
      ...filler(1000),
      {
        ...bib('d1'),
        fields: [
          ...bib('d1').fields.filter((f) => f.tag !== '245'),
          df('245', ['a', 'Title d1, revised']),
          df('949', ['i', '33001'], ['l', 'ea']),
        ],
      },
      bib('d2', df('949', ['i', '33001'], ['l', 'ea'], ['a', 'MOVED AGAIN'])),
    ];
    const summary = await load(t, records);
    assert.equal(summary.created, 1001);
    assert.equal(summary.updated, 1);
    assert.deepEqual(summary.items, { created: 1, updated: 1 }); // one barcode twice in a batch: the later wins
    const titles = await t.db.query<{ title: string }>("select title from bibs where control_number = 'd1' and deleted_date is null");
    assert.deepEqual(
      titles.map((r) => r.title),
      ['Title d1, revised'],
    );
    assert.deepEqual(
      (await items(t, 'd2')).map((i) => [i.barcode, i.location_code, i.call_number]),
      [['33001', 'ea', 'MOVED AGAIN']],
    );
    const live = await t.db.query<{ n: number }>("select count(*)::int as n from items where barcode = '33001' and deleted_date is null");
    assert.equal(live[0]!.n, 1);
    const order = await t.db.query<{ control_number: string }>(
      "select control_number from bibs where control_number in ('d1', 'g1', 'g499', 'g1000', 'g1499', 'd2') order by id",
    );
    assert.deepEqual(
      order.map((r) => r.control_number),
      ['d1', 'g1', 'g499', 'g1000', 'g1499', 'd2'],
      'numbered in the order of the file',
    );
  });

  it('starts no batch once one has failed, and fails the import', async () => {
    // A trigger refuses one record of the second batch of five; the batches after it must not be
    // written (one may already be in flight beside it, and it finishes first).
    await t.db.exec(`create function refuse_poison() returns trigger language plpgsql as $$
      begin raise exception 'poisoned record'; end $$;
      create trigger poison before insert on bibs for each row when (new.title = 'Title p700') execute function refuse_poison()`);
    try {
      const records = Array.from({ length: 2500 }, (_, i) => bib(`p${i}`));
      await assert.rejects(load(t, records, { itemMap: null }), /poisoned record/);
      const written = await t.db.query<{ n: number; last: number }>(
        "select count(*)::int as n, count(*) filter (where control_number in ('p2000', 'p2499'))::int as last from bibs where control_number like 'p%'",
      );
      assert.equal(written[0]!.last, 0, 'the last batch is not written');
      assert.ok(written[0]!.n <= 1000, `at most the first and third batches are written (${written[0]!.n})`);
      const poisoned = await t.db.query<{ n: number }>("select count(*)::int as n from bibs where control_number in ('p500', 'p999')");
      assert.equal(poisoned[0]!.n, 0, 'nothing of the failed batch');
    } finally {
      await t.db.exec('drop trigger poison on bibs; drop function refuse_poison()');
    }
  });

  it('takes turns with another import of the same records: each record once, one creates and the other updates', async () => {
    const records = Array.from({ length: 1200 }, (_, i) => bib(`q${i}`, df('949', ['i', `34${String(i).padStart(4, '0')}`], ['l', 'mn'])));
    let waits = 0;
    const options = { itemMap: DEFAULT_ITEM_MAP, onWaiting: () => waits++ };
    const [a, b] = await Promise.all([load(t, records, options), load(t, records, options)]);
    assert.deepEqual([a.created + b.created, a.updated + b.updated].sort(), [1200, 1200]);
    assert.equal(waits, 1, 'the second import was told once that it waits');
    const counts = await t.db.query<{ bibs: number; controls: number; items: number }>(
      `select count(*)::int as bibs, count(distinct control_number)::int as controls,
         (select count(*)::int from items where barcode like '34%' and deleted_date is null) as items
       from bibs where control_number like 'q%' and deleted_date is null`,
    );
    assert.deepEqual(counts[0], { bibs: 1200, controls: 1200, items: 1200 });
  });

  it('leaves a bib or item loaded again unchanged as it was, updatedDate too, and updates what changed', async () => {
    const dates = async () =>
      (
        await t.db.query<{ bib: Date; item: Date; location: string }>(
          `select b.updated_date as bib, i.updated_date as item, i.location_code as location from bibs b
       join item_bibs ib on ib.bib_id = b.id join items i on i.id = ib.item_id where b.control_number = 'c1' and b.deleted_date is null`,
        )
      )[0]!;
    const record = bib('c1', df('949', ['i', '33001'], ['l', 'mn']));
    await load(t, [record]);
    const first = await dates();
    const again = await load(t, [record]);
    assert.equal(again.updated, 1);
    assert.deepEqual(again.items, { created: 0, updated: 1 });
    assert.deepEqual(await dates(), first);
    await load(t, [bib('c1', df('949', ['i', '33001'], ['l', 'ea']))]);
    const moved = await dates();
    assert.equal(moved.location, 'ea');
    assert.ok(moved.item > first.item);
    assert.ok(moved.bib > first.bib, 'the 949 is part of the record');
    const retitled = bib('c1', df('949', ['i', '33001'], ['l', 'ea']));
    retitled.fields = retitled.fields.map((f) => (f.tag === '245' ? df('245', ['a', 'Another title']) : f));
    await load(t, [retitled]);
    const after = await dates();
    assert.ok(after.bib > moved.bib);
    assert.equal(after.item.getTime(), moved.item.getTime(), 'the item is as it was');
  });
});

describe(`unknown codes on import on ${ENGINE}`, () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb();
    await t.db.transaction((tx) => ensureDemoLocations(tx));
  });
  after(() => t.drop());

  it('--create-missing adds the codes (locations under the first branch, not for pickup), keeping them on the items', async () => {
    const long = 'hunt-audio-listening';
    const summary = await load(
      t,
      [
        bib('cm1', df('949', ['i', '34001'], ['l', long], ['t', 'laserdisc'])),
        bib('cm2', df('949', ['i', '34002'], ['l', long], ['t', 'book']), df('949', ['i', '34003'], ['l', 'no such code!'])),
      ],
      { itemMap: DEFAULT_ITEM_MAP, createMissing: true },
    );
    assert.deepEqual(summary.unknownCodes, [
      { kind: 'location', code: long, items: 2, created: true },
      { kind: 'location', code: 'no such code!', items: 1, created: false },
      { kind: 'itemType', code: 'laserdisc', items: 1, created: true },
    ]);
    assert.deepEqual(
      (await items(t, 'cm1')).map((i) => [i.location_code, i.item_type]),
      [[long, 'laserdisc']],
    );
    assert.deepEqual(
      (await items(t, 'cm2')).map((i) => [i.barcode, i.location_code]),
      [
        ['34002', long],
        ['34003', null],
      ],
    );
    const [location] = await t.db.query<{ name: string; pickup: boolean; first: boolean }>(
      'select name, pickup, branch_id = (select min(id) from branches) as first from locations where code = $1',
      [long],
    );
    assert.deepEqual({ ...location }, { name: long, pickup: false, first: true });
    // Known from now on: a second import has nothing to report.
    const again = await load(t, [bib('cm3', df('949', ['i', '34004'], ['l', long], ['t', 'laserdisc']))]);
    assert.deepEqual(again.unknownCodes, []);
  });
});
