// The Sierra-compatible views (schema sierra_view, migrations 0030 and 0031): Sierra's names and
// types over the demo catalogue, record keys both ways, and queries written the way libraries
// write them, checked against Carrel's own tables.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadDemoIfEmpty } from '../../src/demo/load.ts';
import { SqlService } from '../../src/sql/service.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';

describe(`sierra_view on ${ENGINE}`, () => {
  let testDb: TestDb;
  let sql: SqlService;
  before(async () => {
    testDb = await createTestDb();
    await loadDemoIfEmpty(testDb.db);
    sql = new SqlService(testDb.db, { statementTimeoutMs: 30_000, rowCap: 100_000 });
  });
  after(() => testDb.drop());

  const rows = async (statement: string) => {
    const answer = await sql.run(statement);
    return answer.rows.map((row) => Object.fromEntries(row.map((v, i) => [answer.columns[i]!, v])));
  };

  it('has every view, each answering, with Sierra column names and types', async () => {
    const views = (await rows(`select table_name from information_schema.views where table_schema = 'sierra_view' order by 1`)).map(
      (r) => r.table_name,
    );
    for (const name of [
      'record_metadata',
      'bib_record',
      'bib_record_property',
      'item_record',
      'varfield',
      'subfield',
      'patron_record',
      'hold',
      'checkout',
      'fine',
      'circ_trans',
      'location',
    ]) {
      assert.ok(views.includes(name), name);
    }
    for (const view of views) await sql.run(`select * from sierra_view.${String(view)} limit 3`);
    const columns = await rows(
      `select column_name, data_type from information_schema.columns where table_schema = 'sierra_view' and table_name = 'record_metadata' order by ordinal_position`,
    );
    assert.deepEqual(
      columns.map((c) => `${String(c.column_name)} ${String(c.data_type)}`),
      [
        'id bigint',
        'record_type_code character',
        'record_num integer',
        'creation_date_gmt timestamp with time zone',
        'deletion_date_gmt date',
        'campus_code character varying',
        'agency_code_num integer',
        'num_revisions integer',
        'record_last_updated_gmt timestamp with time zone',
        'previous_last_updated_gmt timestamp with time zone',
      ],
    );
  });

  it('turns record ids into keys and back, check digits included', async () => {
    const [bib] = await testDb.db.query<{ id: string }>('select min(id)::text as id from bibs');
    const [r] = await rows(
      `select m.id, id2reckey(m.id) as key, check_digit(m.record_num) as digit from bib_record_property p join record_metadata m on m.id = p.bib_record_id where m.record_num = ${bib!.id}`,
    );
    assert.equal(r!.key, `b${bib!.id}`);
    // Sierra's check digit: digits right to left, weights 2, 3, 4…, sum mod 11, 10 written x.
    const digits = [...bib!.id].reverse().reduce((sum, d, i) => sum + Number(d) * (i + 2), 0) % 11;
    assert.equal(r!.digit, digits === 10 ? 'x' : String(digits));
    const [back] = await rows(
      `select reckey2id('b${bib!.id}') as plain, reckey2id('.b${bib!.id}${String(r!.digit)}') as checked, reckey2id('b${bib!.id}a') as wildcard, reckey2id('.b${bib!.id}${digits === 0 ? 1 : 0}') as wrong`,
    );
    assert.deepEqual(back, { plain: r!.id, checked: r!.id, wildcard: r!.id, wrong: null });
  });

  it('answers a library report: items by location and status with their titles, the same as the tables', async () => {
    const report = await rows(`
      with shelf as (
        select i.location_code, i.item_status_code, p.best_title, ip.barcode
        from sierra_view.item_record i
        join sierra_view.item_record_property ip on ip.item_record_id = i.id
        join sierra_view.bib_record_item_record_link l on l.item_record_id = i.id
        join sierra_view.bib_record_property p on p.bib_record_id = l.bib_record_id
      )
      select location_code, item_status_code, count(*) as items, rank() over (order by count(*) desc) as place
      from shelf group by 1, 2 order by 1, 2`);
    const direct = await testDb.db.query<{ location_code: string; status: string; n: string }>(
      `select i.location_code, i.status, count(*)::text as n from items i join item_bibs ib on ib.item_id = i.id join bibs b on b.id = ib.bib_id
       where i.deleted_date is null and b.deleted_date is null group by 1, 2 order by 1, 2`,
    );
    assert.ok(direct.length > 1);
    assert.deepEqual(
      report.map((r) => [r.location_code, r.item_status_code, String(r.items)]),
      direct.map((d) => [d.location_code, d.status, d.n]),
    );
  });

  it('shows the MARC as varfields and subfields, as Sierra stores them', async () => {
    const [bib] = await testDb.db.query<{ id: string; title: string }>(
      `select id::text, title from bibs where title = 'Pride and prejudice'`,
    );
    const fields = await rows(`
      select v.marc_tag, v.varfield_type_code, v.field_content, s.tag, s.content
      from sierra_view.varfield v join sierra_view.subfield s on s.varfield_id = v.id
      where v.record_id = reckey2id('b${bib!.id}') and v.marc_tag = '245' order by s.display_order`);
    assert.equal(fields[0]!.varfield_type_code, 't');
    assert.match(String(fields[0]!.field_content), /^\|aPride and prejudice/);
    assert.equal(fields[0]!.tag, 'a');
    assert.match(String(fields[0]!.content), /^Pride and prejudice/);
  });
});
