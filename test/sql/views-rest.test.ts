// The rest of Sierra's views that published report SQL names (migrations 0049, 0050): course
// reserves, serial check-in, staff logins, agencies, bookings, catalogue maintenance and order
// statuses, there with Sierra's columns and no rows; holding_view over Carrel's holdings records;
// invoices' vendor summaries; the types of patrons' phones and addresses; and the names and types
// Sierra gives item_view's check-in statistics group and circ_trans.ptype_code, which reports
// written for Sierra compare the way Sierra lets them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BibService } from '../../src/bibs/service.ts';
import { ItemService } from '../../src/items/service.ts';
import { SqlService } from '../../src/sql/service.ts';
import { caller, create, type Caller } from '../helpers/api.ts';
import { setUpAcquisitions } from '../helpers/acquisitions.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, addItem, addPatron, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { assertViews, cols, objectRows } from '../helpers/sierra-columns.ts';
import { bearer } from '../helpers/tokens.ts';

// Sierra's columns of each view, in order.
const EXPECTED: Record<string, string[]> = {
  course_record: cols('id b, record_id b, begin_date w, end_date w, location_code v, ccode1 c, ccode2 c, ccode3 c'),
  course_view: cols(`id b, record_type_code c, record_num i, begin_date w, end_date w, location_code v, ccode1 c, ccode2 c,
    ccode3 c, record_creation_date_gmt t`),
  course_record_bib_record_link: cols(
    'id b, course_record_id b, bib_record_id b, bibs_display_order i, status_change_date w, status_code c',
  ),
  course_record_item_record_link: cols(
    'id b, course_record_id b, item_record_id b, items_display_order i, status_change_date w, status_code c',
  ),
  holding_view: cols(`id b, record_type_code c, record_num i, is_inherit_loc f, allocation_rule_code c, accounting_unit_code_num i,
    label_code c, scode1 c, scode2 c, claimon_date_gmt t, receiving_location_code v, vendor_code v, scode3 c, scode4 c, update_cnt c,
    piece_cnt i, echeckin_code c, media_type_code c, is_suppressed f, record_creation_date_gmt t`),
  holding_record_card: cols(`id b, holding_record_id b, status_code c, display_mode c, is_suppress_opac_display f, order_record_id b,
    is_create_item f, is_usmarc f, is_marc f, is_use_default_enum f, is_use_default_date f, update_method_code c`),
  holding_record_cardlink: cols(`id b, holding_record_card_id b, card_type_code c, link_count i, enum_level_count i,
    alt_enum_level_count i, chron_level_count i, alt_chron_level_count i, is_use_autumn f, enum_level_a v, enum_level_b v,
    enum_level_c v, enum_level_d v, enum_level_e v, enum_level_f v, alt_enum_level_g v, alt_enum_level_h v, chron_level_i v,
    chron_level_j v, chron_level_k v, chron_level_l v, alt_chron_level_m v, calendar_change v, frequency_code c`),
  holding_record_box: cols(`id b, holding_record_cardlink_id b, box_count i, enum_level_a v, enum_level_b v, enum_level_c v,
    enum_level_d v, enum_level_e v, enum_level_f v, enum_level_g v, enum_level_h v, chron_level_i v, chron_level_j v,
    chron_level_k v, chron_level_l v, chron_level_m v, chron_level_i_trans_date v, chron_level_j_trans_date v,
    chron_level_k_trans_date v, chron_level_l_trans_date v, chron_level_m_trans_date v, note v, box_status_code c, claim_cnt i,
    copies_cnt i, url v, is_suppressed f, staff_note v`),
  holding_record_item_record_link: cols('id b, holding_record_id b, item_record_id b, items_display_order i'),
  agency_property: cols('id i, code_num i, display_order i'),
  agency_property_name: cols('agency_property_id i, iii_language_id i, name v'),
  iii_user: cols(`id b, name v, full_name v, iii_language_id i, account_unit i, statistic_group_code_num i,
    system_option_group_code_num i, is_new_account f, last_password_change_gmt t, is_suspended f`),
  iii_user_desktop_option: cols('id b, iii_user_id b, desktop_option_id i, value v'),
  iii_user_permission_myuser: cols('user_name v, permission_num i, permission_name v, permission_category_name v, permission_value v'),
  iii_user_application_myuser: cols('iii_user_id b, user_name v, application_name v, is_enabled f'),
  booking: cols(`id b, item_record_id b, patron_record_id b, created_gmt t, start_gmt t, end_gmt t, type_code c, prep_period i,
    location_code v, delivery_code s, location_note v, note v, event_name v`),
  catmaint: cols(`id b, is_locked f, is_viewed f, condition_code_num i, index_tag v, index_entry v, record_metadata_id b,
    statistics_group_code_num i, process_gmt t, program_code v, iii_user_name v, one_xx_entry v, authority_record_metadata_id b,
    old_field v, new_240_field v, field v, cataloging_date_gmt t, index_prev v, index_next v, correct_heading v, author v, title v,
    phrase_entry_id b`),
  order_status_property: cols('id i, code v, display_order i'),
  order_status_property_name: cols('order_status_property_id i, iii_language_id i, name v'),
  order_status_property_myuser: cols('code v, display_order i, name v'),
  invoice_record_vendor_summary: cols(`id b, invoice_record_id b, vendor_code v, vendor_address_line1 v, vendor_address_line2 v,
    vendor_address_line3 v, vendor_address_line4 v, voucher_num i, voucher_total n`),
  patron_record_phone_type: cols('id b, code c'),
  patron_record_address_type: cols('id b, code c'),
  user_defined_pcode4_myuser: cols('code v, user_defined_category_id i, display_order i, name v'),
  record_range: cols(`id i, record_type_code c, accounting_unit_code_num i, start_num i, last i, current_count i, deleted_count i,
    max_num i, size i`),
  circ_loan_rule: cols('id i, loan_rule_num i, name v, loan_period i, max_renewal i, holds_allowed i'),
  record_lock: cols('id b, iii_user_name v, lock_gmt t'),
};
// Views of what Carrel does not keep: no rows.
const EMPTY = [
  'course_record',
  'course_view',
  'course_record_bib_record_link',
  'course_record_item_record_link',
  'holding_record_card',
  'holding_record_cardlink',
  'holding_record_box',
  'holding_record_item_record_link',
  'agency_property',
  'agency_property_name',
  'iii_user',
  'iii_user_desktop_option',
  'iii_user_permission_myuser',
  'iii_user_application_myuser',
  'booking',
  'catmaint',
  'circ_loan_rule',
  'record_lock',
];

describe(`the rest of the sierra_view views on ${ENGINE}`, () => {
  let t: TestApp;
  let sql: SqlService;
  let api: Caller;
  before(async () => {
    t = await createTestApp();
    await setUpLibrary(t.testDb.db);
    sql = new SqlService(t.testDb.db, { statementTimeoutMs: 30_000, rowCap: 100_000 });
    api = caller(t, await bearer(t, ['all']));
  });
  after(() => t.close());

  const rows = objectRows((statement) => sql.run(statement));

  it("answers every view with Sierra's columns, in Sierra's order, with Sierra's types", async () => {
    await assertViews((statement) => sql.run(statement), EXPECTED, EMPTY);
  });

  it('runs course-reserve, check-in card and staff-login reports as written for Sierra, finding nothing', async () => {
    // As libraries write them: courses joined to their items and bibs and to their varfields, an
    // item left on reserve, check-in boxes by status, logins by their settings.
    const reports = [
      `select id2reckey(c.id) || 'a' as course, r.field_content as course_name, c.begin_date::date, c.end_date::date,
         id2reckey(l.item_record_id) as item, l.status_code, l.status_change_date::date, i.location_code
       from course_record c
       join course_record_item_record_link l on l.course_record_id = c.id
       join item_record i on i.id = l.item_record_id
       left join varfield r on r.record_id = c.id and r.varfield_type_code = 'r'
       where c.location_code ~ '^mn' and c.end_date >= now() - interval '1 year'`,
      `select b.best_title, cv.record_num from course_view cv
       join course_record_bib_record_link l on l.course_record_id = cv.id
       join bib_record_property b on b.bib_record_id = l.bib_record_id where l.status_code = 'a'`,
      `select b.best_title, box.enum_level_a, box.chron_level_i || '-' || box.chron_level_j as cover_date
       from bib_record_property b
       join bib_record_holding_record_link l on l.bib_record_id = b.bib_record_id
       join holding_record h on h.id = l.holding_record_id and h.accounting_unit_code_num = '29'
       join holding_record_card card on card.holding_record_id = h.id and card.is_suppress_opac_display = 't'
       join holding_record_cardlink link on link.holding_record_card_id = card.id and link.card_type_code = 's'
       join holding_record_box box on box.holding_record_cardlink_id = link.id
       where box.box_status_code = 'E' order by 1`,
      `select u.name, o.value from iii_user u join iii_user_desktop_option o on o.iii_user_id = u.id and o.desktop_option_id = '899'
       join iii_user_permission_myuser p on p.user_name = u.name where p.permission_num between 1 and 500`,
      `select a.code_num, n.name, count(p.id) from patron_record p join agency_property a on a.code_num = p.patron_agency_code_num
       join agency_property_name n on n.agency_property_id = a.id group by 1, 2`,
      `select m.record_num, c.index_tag, c.process_gmt, c.field from catmaint c join record_metadata m on m.id = c.record_metadata_id
       where c.process_gmt > now() - interval '7 days'`,
      `select b.*, i.barcode from booking b left join item_view i on i.id = b.item_record_id`,
    ];
    for (const report of reports) assert.deepEqual((await sql.run(report)).rows, [], report);
  });

  it('names the order statuses Carrel sets, in code order', async () => {
    const report = `select s.code, n.name, s.display_order from order_status_property s
      join order_status_property_name n on n.order_status_property_id = s.id order by s.display_order`;
    assert.deepEqual((await sql.run(report)).rows, [
      ['1', 'selection list', 0],
      ['a', 'fully paid', 1],
      ['o', 'on order', 2],
      ['q', 'partly paid', 3],
      ['z', 'cancelled', 4],
    ]);
    assert.deepEqual((await sql.run("select name from order_status_property_myuser where code = 'z'")).rows, [['cancelled']]);
  });

  it("shows Carrel's holdings records in holding_view, as holding_record has them", async () => {
    const bib = await new BibService(t.testDb.db, new ItemService(t.testDb.db)).create({
      marc: {
        leader: '00000cas a2200000 a 4500',
        fields: [
          { tag: '245', ind1: '0', ind2: '0', subfields: [{ code: 'a', value: 'Serial with holdings' }] },
          { tag: '852', ind1: '0', ind2: ' ', subfields: [{ code: 'b', value: 'mn' }] },
          { tag: '866', ind1: '4', ind2: '1', subfields: [{ code: 'a', value: 'v.1-v.40 (1950-1989)' }] },
        ],
      },
    });
    const [own] = await t.testDb.db.query<{ id: string; created: Date }>(
      'select id::text, created_date as created from holdings where bib_id = $1 and deleted_date is null',
      [bib],
    );
    assert.ok(own, 'the bib has a holdings record');
    const view = await rows(`
      select id2reckey(v.id) as key, v.record_type_code, v.record_num, v.record_creation_date_gmt, v.scode3, v.is_suppressed,
        h.id = v.id as same
      from holding_view v join holding_record h on h.id = v.id
      join bib_record_holding_record_link l on l.holding_record_id = v.id
      where l.bib_record_id = reckey2id('b${bib}')`);
    assert.deepEqual(view, [
      {
        key: `c${own.id}`,
        record_type_code: 'c',
        record_num: Number(own.id),
        record_creation_date_gmt: own.created,
        scode3: '-',
        is_suppressed: false,
        same: true,
      },
    ]);
    const [counts] = await rows('select (select count(*) from holding_view) = (select count(*) from holding_record) as same');
    assert.deepEqual(counts, { same: true });
  });

  it("gives each invoice its vendor's code and address in invoice_record_vendor_summary", async () => {
    const { vendorId } = await setUpAcquisitions(api);
    assert.equal(
      (await api.send('PUT', `/v6/vendors/${vendorId}`, { address1: '10 Estes Street', address2: 'Ipswich, MA 01938' })).statusCode,
      204,
    );
    const invoice = await create(api, '/v6/invoices', {
      invNum: 'VS-1',
      invDate: '2026-11-02',
      vendorCode: 'ebsco',
      lineItems: [
        { fund: 'books', amount: '12.50', note: 'large print' },
        { fund: 'books', amount: '2.00' },
      ],
    });
    const total = (await api.get(`/v6/invoices/${invoice}`)).json().total as string;
    // An invoice report as written for Sierra: invoices with their vendor and lines.
    const memos = await rows(`
      select id2reckey(i.id) as key, i.invoice_number_text, v.vendor_code, v.vendor_address_line1, v.vendor_address_line2,
        v.voucher_total::text as voucher_total, i.grand_total_amt::text as grand_total, count(l.id)::integer as lines
      from invoice_record i
      join invoice_record_vendor_summary v on i.id = v.invoice_record_id
      join invoice_record_line l on i.id = l.invoice_record_id
      where i.grand_total_amt > 0 group by 1, 2, 3, 4, 5, 6, 7`);
    assert.deepEqual(memos, [
      {
        key: `n${invoice}`,
        invoice_number_text: 'VS-1',
        vendor_code: 'ebsco',
        vendor_address_line1: '10 Estes Street',
        vendor_address_line2: 'Ipswich, MA 01938',
        voucher_total: `${total}0000`,
        grand_total: `${total}0000`,
        lines: 2,
      },
    ]);
    assert.equal((await api.send('DELETE', `/v6/invoices/${invoice}`)).statusCode, 204);
    assert.deepEqual(await rows(`select id from invoice_record_vendor_summary where invoice_record_id = reckey2id('n${invoice}')`), []);
  });

  it('counts each record type in record_range: first and last numbers, live and deleted records', async () => {
    const db = t.testDb.db;
    const gone = await addBib(db, 'Deleted soon');
    await db.query('update bibs set deleted_date = now() where id = $1', [gone]);
    const ranges = await rows(`
      select record_type_code, start_num, last, current_count, deleted_count, size - (last - start_num) as remaining
      from record_range order by record_type_code`);
    const own = await rows(`
      select record_type_code, min(record_num) as start_num, max(record_num) as last,
        (count(*) filter (where deletion_date_gmt is null))::integer as current_count,
        (count(*) filter (where deletion_date_gmt is not null))::integer as deleted_count,
        2147483647 - max(record_num) as remaining
      from record_metadata group by 1 order by 1`);
    assert.deepEqual(ranges, own);
    const [bibs] = await t.testDb.db.query<{ first: number; last: number; live: number; deleted: number }>(
      `select min(id)::integer as first, max(id)::integer as last, (count(*) filter (where deleted_date is null))::integer as live,
         (count(*) filter (where deleted_date is not null))::integer as deleted from bibs`,
    );
    assert.deepEqual(
      ranges.find((r) => r.record_type_code === 'b'),
      {
        record_type_code: 'b',
        start_num: bibs!.first,
        last: bibs!.last,
        current_count: bibs!.live,
        deleted_count: bibs!.deleted,
        remaining: 2147483647 - bibs!.last,
      },
    );
    assert.ok(bibs!.deleted >= 1);
  });

  it("names the types of patrons' phones and addresses as patron_record_phone and patron_record_address number them", async () => {
    const patron = await create(api, '/v6/patrons', {
      names: ['Caller, Cass'],
      phones: [
        { number: '555-0100', type: 't' },
        { number: '555-0199', type: 'p' },
      ],
      addresses: [{ lines: ['1 Main St', 'Springfield, IL 62701'], type: 'a' }],
    });
    const phones = await rows(`
      select ph.phone_number, ty.code from patron_record_phone ph
      join patron_record_phone_type ty on ty.id = ph.patron_record_phone_type_id
      where ph.patron_record_id = reckey2id('p${patron}') order by ph.display_order`);
    assert.deepEqual(phones, [
      { phone_number: '555-0100', code: 't' },
      { phone_number: '555-0199', code: 'p' },
    ]);
    const addresses = await rows(`
      select a.city, ty.code from patron_record_address a join patron_record_address_type ty on ty.id = a.patron_record_address_type_id
      where a.patron_record_id = reckey2id('p${patron}')`);
    assert.deepEqual(addresses, [{ city: 'Springfield', code: 'a' }]);
  });

  it("names every patron's pcode4: 0 until the library lists codes for field 126, then those", async () => {
    const db = t.testDb.db;
    const named = () =>
      rows(`
        select p.pcode4, u.name from patron_record p left join user_defined_pcode4_myuser u on p.pcode4::varchar = u.code
        group by 1, 2 order by 1`);
    await addPatron(db);
    assert.deepEqual(await named(), [{ pcode4: 0, name: 'none' }]);
    await db.query(`insert into patron_fixed_fields (number, label, short) values (126, 'Patron code 4', 'PCODE4')`);
    await db.query(`insert into patron_fixed_field_codes (field_number, code, name) values (126, '0', 'none'), (126, '1102', 'Watertown')`);
    const patron = await addPatron(db);
    await db.query(`insert into patron_fixed_values (patron_id, field_number, value) values ($1, 126, '1102')`, [patron]);
    assert.deepEqual(await named(), [
      { pcode4: 0, name: 'none' },
      { pcode4: 1102, name: 'Watertown' },
    ]);
    assert.deepEqual(await rows(`select code, display_order from user_defined_pcode4_myuser order by display_order`), [
      { code: '0', display_order: 0 },
      { code: '1102', display_order: 1 },
    ]);
  });

  it("compares circ_trans.ptype_code as Sierra's text, and reads item_view's checkin_statistics_group_code_num", async () => {
    const db = t.testDb.db;
    const item = await addItem(db, await addBib(db, 'Typed'), 'mn', '-', 'TY-1');
    const patron = await addPatron(db);
    assert.equal((await api.send('POST', `/v6/patrons/${patron}/checkouts`, { itemBarcode: 'TY-1' })).statusCode, 200);
    const [own] = await db.query<{ patron_type: number }>('select patron_type from patrons where id = $1', [patron]);
    // The published form: the code table's number cast to text to meet circ_trans's text column.
    const byType = await rows(`
      select t.ptype_code, p.name is not null as named, pg_typeof(t.ptype_code)::text as type
      from circ_trans t join ptype_property_myuser p on t.ptype_code = p.value::varchar
      where t.item_record_id = reckey2id('i${item}')`);
    assert.deepEqual(byType, [{ ptype_code: String(own!.patron_type), named: true, type: 'character varying' }]);
    // Compared with a number or a string, as Sierra's columns allow.
    for (const condition of [`t.ptype_code = '${own!.patron_type}'`, `t.ptype_code in ('${own!.patron_type}', '999')`]) {
      assert.equal((await rows(`select 1 from circ_trans t where t.item_record_id = reckey2id('i${item}') and ${condition}`)).length, 1);
    }
    const [view] = await rows(`select checkin_statistics_group_code_num from item_view where id = reckey2id('i${item}')`);
    assert.deepEqual(view, { checkin_statistics_group_code_num: null });
  });
});
