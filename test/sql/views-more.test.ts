// More Sierra-compatible views (migration 0032): acquisitions, authorities, holdings and bib
// locations, volumes, removed holds, phrase_entry, the user-defined code tables, review files and
// variable-field type names. Each answers with Sierra's columns, in Sierra's order, with Sierra's
// types (as SierraDNA documents them and published models of it give them), and the records
// Carrel keeps are there: an invoice made through the API, its funds and vendor, the demo
// catalogue's items by barcode and their locations per bib.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BibService } from '../../src/bibs/service.ts';
import { loadDemoIfEmpty } from '../../src/demo/load.ts';
import { ItemService } from '../../src/items/service.ts';
import { SqlService } from '../../src/sql/service.ts';
import { caller, create, type Caller } from '../helpers/api.ts';
import { setUpAcquisitions } from '../helpers/acquisitions.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';
import { assertViews, cols, objectRows } from '../helpers/sierra-columns.ts';

const USER_CODE = cols('code v, user_defined_category_id i, display_order i, name v');

// Sierra's columns of each view, in order.
const EXPECTED: Record<string, string[]> = {
  order_record: cols(`id b, record_id b, accounting_unit_code_num i, acq_type_code v, catalog_date_gmt t, claim_action_code v,
    ocode1 c, ocode2 c, ocode3 c, ocode4 c, estimated_price n, form_code v, order_date_gmt t, order_note_code v, order_type_code v,
    receiving_action_code v, received_date_gmt t, receiving_location_code v, billing_location_code v, order_status_code v,
    temporary_location_code v, vendor_record_code v, language_code v, blanket_purchase_order_num v, country_code v, volume_count i,
    fund_allocation_rule_code c, reopen_text v, list_price n, list_price_foreign_amt n, list_price_discount_amt n,
    list_price_service_charge n, is_suppressed f, fund_copies_paid i`),
  order_view: cols(`id b, record_type_code c, record_num i, record_id b, accounting_unit_code_num i, acq_type_code v,
    catalog_date_gmt t, claim_action_code v, ocode1 c, ocode2 c, ocode3 c, ocode4 c, estimated_price n, form_code v,
    order_date_gmt t, order_note_code v, order_type_code v, receiving_action_code v, received_date_gmt t,
    receiving_location_code v, billing_location_code v, order_status_code v, temporary_location_code v, vendor_record_code v,
    language_code v, blanket_purchase_order_num v, country_code v, volume_count i, fund_allocation_rule_code c, reopen_text v,
    list_price n, list_price_foreign_amt n, list_price_discount_amt n, list_price_service_charge n, is_suppressed f,
    record_creation_date_gmt t`),
  order_record_cmf: cols('id b, order_record_id b, display_order i, fund_code v, copies i, location_code v'),
  order_record_paid: cols(`id b, order_record_id b, display_order i, paid_date_gmt t, paid_amount n, foreign_paid_amount n,
    foreign_code v, voucher_num i, invoice_code v, invoice_date_gmt t, from_date_gmt t, to_date_gmt t, copies i, note v`),
  bib_record_order_record_link: cols('id b, bib_record_id b, order_record_id b, orders_display_order i'),
  invoice_record: cols(`id b, record_id b, accounting_unit_code_num i, invoice_date_gmt t, paid_date_gmt t, status_code v,
    posted_data_gmt t, is_paid_date_received_date f, ncode1 c, ncode2 c, ncode3 c, invoice_number_text v, iii_user_name v,
    foreign_currency_code v, foreign_currency_format v, foreign_currency_exchange_rate n, tax_fund_code v, tax_type_code v,
    discount_amt n, grand_total_amt n, subtotal_amt n, shipping_amt n, total_tax_amt n, use_tax_fund_code v,
    use_tax_percentage_rate n, use_tax_type_code v, use_tax_ship_service_code v, is_suppressed f`),
  invoice_record_line: cols(`id b, invoice_record_id b, order_record_metadata_id b, paid_amt n, lien_amt n, lien_flag i,
    list_price n, fund_code v, subfund_num i, copies_paid_cnt i, external_fund_code_num i, status_code v, note v,
    is_single_copy_partial_pmt f, title v, multiflag_code c, line_level_tax n, vendor_code v, accounting_transaction_voucher_num i,
    accounting_transaction_voucher_seq_num i, line_cnt i, invoice_record_vendor_summary_id b, is_use_tax f`),
  fund_master: cols('id i, accounting_unit_id i, code_num i, code v'),
  fund: cols(`acct_unit i, fund_type v, fund_code v, external_fund i, appropriation i, expenditure i, encumbrance i, num_orders i,
    num_payments i, warning_percent i, discount_percent i`),
  fund_property: cols(`id i, fund_master_id i, fund_type_id i, external_fund_property_id i, warning_percent i, discount_percent i,
    user_code1 v, user_code2 v, user_code3 v, is_active f`),
  fund_property_name: cols('fund_property_id i, iii_language_id i, name v, note1 v, note2 v'),
  accounting_unit: cols('id i, code_num i'),
  accounting_unit_myuser: cols('code i, name v'),
  vendor_record: cols(`id b, record_id b, accounting_unit_code_num i, code v, claim_cycle_code c, vcode1 c, vcode2 c, vcode3 c,
    order_cnt i, claim_cnt i, cancel_cnt i, receipt_cnt i, invoice_cnt i, orders_claimed_cnt i, copies_received_cnt i,
    order_total_amt n, invoice_total_amt n, estimated_received_price_amt n, estimated_cancelled_price_amt n, average_weeks i,
    discount i, vendor_message_code v, language_code v, gir_code i, is_suppressed f`),
  authority_record: cols('id b, record_id b, marc_type_code c, code1 c, code2 c, suppress_code c, is_suppressed f'),
  authority_view: cols(`id b, record_type_code c, record_num i, marc_type_code c, code1 c, code2 c, suppress_code c,
    record_creation_date_gmt t`),
  holding_record_location: cols('id b, holding_record_id b, copies i, location_code v, display_order i'),
  bib_record_location: cols('id b, bib_record_id b, copies i, location_code v, display_order i'),
  bib_record_volume_record_link: cols('id b, bib_record_id b, volume_record_id b, volumes_display_order i'),
  volume_record: cols('id b, record_id b, sort_order i, is_suppressed f'),
  hold_removed: cols(`id b, patron_record_id b, record_id b, placed_gmt t, removed_gmt t, is_frozen f, delay_days i,
    location_code v, expires_gmt t, status c, is_ir f, pickup_location_code v, is_ill f, note v, ir_pickup_location_code v,
    ir_print_name v, ir_delivery_stop_name v, is_ir_converted_request f, patron_records_display_order i, records_display_order i,
    removed_by_program v, removed_by_user v, on_holdshelf_gmt t, expire_holdshelf_gmt t, holdshelf_status c`),
  phrase_entry: cols(`id b, record_id b, index_tag v, varfield_type_code c, occurrence i, is_permuted f, type2 i, type3 c,
    index_entry v, insert_title v, phrase_rule_rule_num i, phrase_rule_operation c, phrase_rule_subfield_list v,
    original_content v, parent_record_id b, insert_title_tag c, insert_title_occ i`),
  statistic_group_myuser: cols('code i, location_code v, name v'),
  agency_property_myuser: cols('code i, display_order i, name v'),
  user_defined_pcode1_myuser: USER_CODE,
  user_defined_pcode2_myuser: USER_CODE,
  user_defined_pcode3_myuser: USER_CODE,
  user_defined_bcode1_myuser: USER_CODE,
  user_defined_bcode2_myuser: USER_CODE,
  user_defined_bcode3_myuser: USER_CODE,
  user_defined_scode1_myuser: USER_CODE,
  user_defined_scode2_myuser: USER_CODE,
  user_defined_scode3_myuser: USER_CODE,
  user_defined_scode4_myuser: USER_CODE,
  bool_info: cols(`id b, name v, max i, count i, record_type_code c, record_range v, bool_gmt t, bool_query x, sql_query x,
    is_lookup_call f, is_lookup_880 f, is_search_holdings f, sorter_spec x, lister_spec x, status_code c, iii_user_name v,
    list_export_spec x, owner_iii_user_name v, is_store_field f, is_card_search f`),
  bool_set: cols('id b, record_metadata_id b, bool_info_id b, display_order i, field_key v, occ_num i'),
  varfield_type: cols('id b, record_type_code c, code c, marc_tag v, is_enabled f, display_order i'),
  varfield_type_name: cols('varfield_type_id b, iii_language_id i, short_name v, name v'),
  // 0030's, unchanged by 0032 (which adds invoices and vendors to it).
  record_metadata: cols(`id b, record_type_code c, record_num i, creation_date_gmt t, deletion_date_gmt d, campus_code v,
    agency_code_num i, num_revisions i, record_last_updated_gmt t, previous_last_updated_gmt t`),
};
// Views of records Carrel does not keep: no rows.
const EMPTY = [
  'order_record',
  'order_view',
  'order_record_cmf',
  'order_record_paid',
  'bib_record_order_record_link',
  'authority_record',
  'authority_view',
  'volume_record',
  'bib_record_volume_record_link',
  'statistic_group_myuser',
  'agency_property_myuser',
  'bool_info',
  'bool_set',
];

describe(`more sierra_view views on ${ENGINE}`, () => {
  let t: TestApp;
  let sql: SqlService;
  let api: Caller;
  let vendorId: string;
  let bibId: string;
  const boughtItems: string[] = [];
  before(async () => {
    t = await createTestApp();
    await loadDemoIfEmpty(t.testDb.db);
    sql = new SqlService(t.testDb.db, { statementTimeoutMs: 30_000, rowCap: 100_000 });
    api = caller(t, await bearer(t, ['Invoices_Write', 'Invoices_Read']));
    ({ vendorId } = await setUpAcquisitions(api));
    const items = new ItemService(t.testDb.db);
    bibId = await new BibService(t.testDb.db, items).create({
      marc: {
        leader: '00000nam a2200000 a 4500',
        fields: [{ tag: '245', ind1: '0', ind2: '0', subfields: [{ code: 'a', value: 'Bought book' }] }],
      },
    });
    // Two copies at one location and one at another; barcodes with letters in both cases.
    for (const [barcode, location] of [
      ['BB-0001', 'mn'],
      ['BB-0002', 'ea'],
      ['bB-0003', 'mn'],
    ] as const)
      boughtItems.push(await items.create({ bibIds: [bibId], barcode, location }));
  });
  after(() => t.close());

  const rows = objectRows((statement) => sql.run(statement));

  it("answers every view with Sierra's columns, in Sierra's order, with Sierra's types", async () => {
    await assertViews((statement) => sql.run(statement), EXPECTED, EMPTY);
  });

  it('shows an invoice made through the API in invoice_record and its lines in invoice_record_line, to the cent', async () => {
    const res = await api.send('POST', '/iii/sierra-api/v6/invoices', {
      invNum: 'SQL-1',
      invDate: '2026-11-02',
      vendorCode: 'ebsco',
      useTaxCode: 'a',
      shipping: '5.00',
      discount: '1.00',
      lineItems: [
        { fund: 'books', amount: '19.99', quantity: 2, bibId, note: 'Bought book', order: 'o1000001' },
        { fund: 'serials', amount: '0.2', useTax: false },
      ],
    });
    assert.equal(res.statusCode, 200, res.body);
    const id = res.json().link.split('/').pop() as string;
    const invoice = (await api.get(`/v6/invoices/${id}`)).json();
    const [record] = await rows(`
      select r.id, id2reckey(r.id) as key, r.record_id, r.invoice_number_text, r.status_code, r.invoice_date_gmt::date::text as day,
        r.subtotal_amt::text as subtotal, r.total_tax_amt::text as tax, r.shipping_amt::text as shipping,
        r.discount_amt::text as discount, r.grand_total_amt::text as total, r.use_tax_type_code, r.use_tax_percentage_rate::text as rate,
        r.paid_date_gmt, m.record_type_code, m.record_num
      from invoice_record r join record_metadata m on m.id = r.id
      where r.id = reckey2id('n${id}')`);
    assert.ok(record, 'the invoice is in invoice_record');
    assert.deepEqual(
      { ...record, id: undefined, record_id: undefined },
      {
        id: undefined,
        key: `n${id}`,
        record_id: undefined,
        invoice_number_text: 'SQL-1',
        status_code: 'o',
        day: '2026-11-02',
        subtotal: '40.180000',
        tax: '3.100000',
        shipping: '5.000000',
        discount: '1.000000',
        total: '47.280000',
        use_tax_type_code: 'a',
        rate: '7.750000',
        paid_date_gmt: null,
        record_type_code: 'n',
        record_num: Number(id),
      },
    );
    assert.equal(String(record.record_id), String(record.id));
    // The API's own figures, in Sierra's scale.
    for (const [column, field] of [
      ['subtotal', 'subtotal'],
      ['tax', 'useTaxAmount'],
      ['total', 'total'],
    ] as const)
      assert.equal(record[column], `${String(invoice[field])}0000`, column);

    const lines = await rows(`
      select l.line_cnt, l.paid_amt::text as paid, l.list_price::text as price, l.copies_paid_cnt, l.line_level_tax::text as tax,
        l.is_use_tax, l.title, l.note, l.vendor_code, l.status_code, id2reckey(l.order_record_metadata_id) as order_key, f.code as fund
      from invoice_record_line l join fund_master f on f.code_num = l.fund_code::integer
      where l.invoice_record_id = reckey2id('n${id}') order by l.line_cnt`);
    assert.deepEqual(lines, [
      {
        line_cnt: 1,
        paid: '39.980000',
        price: '19.990000',
        copies_paid_cnt: 2,
        tax: '3.100000',
        is_use_tax: true,
        title: 'Bought book',
        note: 'Bought book',
        vendor_code: 'ebsco',
        status_code: 'o',
        order_key: 'o1000001',
        fund: 'books',
      },
      {
        line_cnt: 2,
        paid: '0.200000',
        price: '0.200000',
        copies_paid_cnt: 1,
        tax: '0.000000',
        is_use_tax: false,
        title: null,
        note: null,
        vendor_code: 'ebsco',
        status_code: 'o',
        order_key: null,
        fund: 'serials',
      },
    ]);

    // Paid, it is posted, and the vendor counts it.
    assert.equal((await api.send('POST', `/v6/invoices/${id}/pay`)).statusCode, 204);
    const [paid] = await rows(
      `select status_code, paid_date_gmt is not null as paid, posted_data_gmt = paid_date_gmt as posted from invoice_record where id = reckey2id('n${id}')`,
    );
    assert.deepEqual(paid, { status_code: 'p', paid: true, posted: true });
    const [vendor] = await rows(
      `select v.code, v.invoice_cnt, v.invoice_total_amt::text as total, m.record_type_code, m.record_num
       from vendor_record v join record_metadata m on m.id = v.record_id where v.id = reckey2id('v${vendorId}')`,
    );
    assert.deepEqual(vendor, { code: 'ebsco', invoice_cnt: 1, total: '47.280000', record_type_code: 'v', record_num: Number(vendorId) });

    // A deleted invoice leaves the views, and record_metadata keeps it with its deletion date.
    const gone = await create(api, '/iii/sierra-api/v6/invoices', {
      invNum: 'SQL-2',
      invDate: '2026-11-03',
      vendorCode: 'ebsco',
      lineItems: [{ fund: 'books', amount: '1.00' }],
    });
    assert.equal((await api.send('DELETE', `/v6/invoices/${gone}`)).statusCode, 204);
    assert.deepEqual(await rows(`select id from invoice_record where id = reckey2id('n${gone}')`), []);
    assert.deepEqual(await rows(`select id from invoice_record_line where invoice_record_id = reckey2id('n${gone}')`), []);
    const [deleted] = await rows(`select deletion_date_gmt is not null as deleted from record_metadata where id = reckey2id('n${gone}')`);
    assert.deepEqual(deleted, { deleted: true });
  });

  it('shows funds in fund_master, fund, fund_property and fund_property_name, and their accounting unit', async () => {
    await create(api, '/v6/funds', {
      code: 'maps',
      fundName: 'Maps and atlases',
      appropriation: '1234.56',
      encumbrance: '10.01',
      accountingUnit: 3,
      note: 'cartography',
    });
    const [fund] = await rows(`
      select m.code, m.code_num, a.code_num as unit, n.name, n.note1, n.iii_language_id, p.is_active, p.fund_type_id,
        f.appropriation, f.encumbrance, f.expenditure, f.acct_unit, u.code as myuser_code
      from fund_master m
      join accounting_unit a on a.id = m.accounting_unit_id
      join accounting_unit_myuser u on u.code = a.code_num
      join fund_property p on p.fund_master_id = m.id
      join fund_property_name n on n.fund_property_id = p.id
      join fund f on f.fund_code = m.code
      where m.code = 'maps'`);
    const [own] = await t.testDb.db.query<{ id: number }>(`select id from funds where code = 'maps'`);
    assert.deepEqual(fund, {
      code: 'maps',
      code_num: Number(own!.id),
      unit: 3,
      name: 'Maps and atlases',
      note1: 'cartography',
      iii_language_id: 1,
      is_active: true,
      fund_type_id: 1,
      appropriation: 123456,
      encumbrance: 1001,
      expenditure: 0,
      acct_unit: 3,
      myuser_code: 3,
    });
    const funds = await rows(`select code from fund_master order by code`);
    assert.deepEqual(
      funds.map((f) => f.code),
      ['books', 'euro', 'maps', 'serials'],
    );
  });

  it('finds an item and a patron by barcode in phrase_entry (index b), through an index, and answers their record keys', async () => {
    const [item] = await t.testDb.db.query<{ id: string; barcode: string }>(
      `select id::text, barcode from items where barcode is not null and deleted_date is null order by id limit 1`,
    );
    const found = await rows(`
      select record_id, id2reckey(record_id) as key, varfield_type_code, original_content
      from phrase_entry where index_tag = 'b' and index_entry = lower('${item!.barcode.toUpperCase()}')`);
    assert.deepEqual(
      found.map((f) => [f.key, f.varfield_type_code, f.original_content]),
      [[`i${item!.id}`, 'b', item!.barcode]],
    );
    // Sierra's index is in lower case: a barcode written in capitals is found by its lower-case key.
    const lettered = await rows(`
      select id2reckey(record_id) as key, original_content from phrase_entry
      where index_tag = 'b' and index_entry in ('bb-0001', 'bb-0003') order by record_id`);
    assert.deepEqual(lettered, [
      { key: `i${boughtItems[0]}`, original_content: 'BB-0001' },
      { key: `i${boughtItems[2]}`, original_content: 'bB-0003' },
    ]);
    const patronId = await t.services.patrons.create({ names: ['Reader, Rita'], barcodes: ['PB-7730'] });
    const byPatron = await rows(`select id2reckey(record_id) as key from phrase_entry where index_tag = 'b' and index_entry = 'pb-7730'`);
    assert.deepEqual(byPatron, [{ key: `p${patronId}` }]);
    // The same statement reads the indexes on the view's expressions (sequential scans off, so a
    // handful of demo rows cannot make a scan the cheaper plan).
    const plan = await t.testDb.db.transaction(async (tx) => {
      await tx.query('set local enable_seqscan = off');
      await tx.query('set local search_path = sierra_view, public, pg_catalog');
      return tx.query<{ 'QUERY PLAN': string }>(`explain select * from phrase_entry where index_tag = 'b' and index_entry = 'pb-7730'`);
    });
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    // Looked up in the index by the key, not read whole through it.
    assert.match(
      text,
      /(Index Scan using items_sierra_phrase_barcode on items|Bitmap Index Scan on items_sierra_phrase_barcode)[^\n]*\n\s*Index Cond: .*lower\(barcode\).*'pb-7730'/,
    );
    assert.match(
      text,
      /(Index Scan using patron_barcodes_sierra_phrase on patron_barcodes|Bitmap Index Scan on patron_barcodes_sierra_phrase)[^\n]*\n\s*Index Cond: .*lower\(barcode\).*'pb-7730'/,
    );
    assert.doesNotMatch(text, /on bibs/, 'the title, author and ISBN parts are left out');
    // Titles are Sierra's normalized form.
    const [title] = await rows(
      `select index_entry, insert_title from phrase_entry where index_tag = 't' and record_id = reckey2id('b${bibId}')`,
    );
    assert.deepEqual(title, { index_entry: 'bought book', insert_title: 'Bought book' });
  });

  it("lists each location of a bib's items once in bib_record_location, with its copies, in code order", async () => {
    const view = await rows(`
      select id2reckey(bib_record_id) as key, location_code, copies, display_order from bib_record_location
      order by bib_record_id, display_order`);
    const direct = await t.testDb.db.query<{ bib_id: string; location_code: string; n: number }>(`
      select ib.bib_id::text, i.location_code, count(*)::integer as n from item_bibs ib join items i on i.id = ib.item_id
        join bibs b on b.id = ib.bib_id
      where i.deleted_date is null and b.deleted_date is null and i.location_code is not null
      group by ib.bib_id, i.location_code order by ib.bib_id, i.location_code collate "C"`);
    assert.ok(direct.length > 10);
    assert.ok(
      direct.some((d, k) => k > 0 && direct[k - 1]!.bib_id === d.bib_id),
      'the demo has a bib with items in two locations',
    );
    const places = new Map<string, number>();
    assert.deepEqual(
      view,
      direct.map((d) => {
        const place = places.get(d.bib_id) ?? 0;
        places.set(d.bib_id, place + 1);
        return { key: `b${d.bib_id}`, location_code: d.location_code, copies: Number(d.n), display_order: place };
      }),
    );
    assert.deepEqual(
      await rows(`select location_code, copies, display_order from bib_record_location where bib_record_id = reckey2id('b${bibId}')`),
      [
        { location_code: 'ea', copies: 1, display_order: 0 },
        { location_code: 'mn', copies: 2, display_order: 1 },
      ],
    );
    const [unique] = await rows(`select count(*) = count(distinct id) as ids from bib_record_location`);
    assert.deepEqual(unique, { ids: true });
  });

  it('names the variable-field types Carrel uses and the user-defined codes its records carry', async () => {
    const names = await rows(`
      select t.record_type_code, t.code, n.short_name from varfield_type t join varfield_type_name n on n.varfield_type_id = t.id
      where n.iii_language_id = 1 order by t.id`);
    const used = await rows(`select distinct record_type_code, varfield_type_code from varfield_view`);
    for (const u of used)
      assert.ok(
        names.some((n) => n.record_type_code === u.record_type_code && n.code === u.varfield_type_code),
        `${String(u.record_type_code)} ${String(u.varfield_type_code)}`,
      );
    const [mat] = await rows(`
      select count(*)::integer as bibs, count(u.code)::integer as named from bib_record b left join user_defined_bcode2_myuser u on u.code = b.bcode2`);
    assert.equal(mat!.named, mat!.bibs, 'every bib’s bcode2 (material type) has a name');
    const [codes] = await rows(`
      select count(*)::integer as n, (count(u1.code) + count(u3.code))::integer as named from bib_record b
      left join user_defined_bcode1_myuser u1 on u1.code = b.bcode1 left join user_defined_bcode3_myuser u3 on u3.code = b.bcode3`);
    assert.equal(codes!.named, 2 * Number(codes!.n));
  });
});
