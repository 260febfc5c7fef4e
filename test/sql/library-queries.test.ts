// Report SQL as Sierra libraries write and share it (issue 20), run through the SQL door over the
// sierra_view views, on a catalogue loaded by the real `carrel import` and by the REST API, with a
// circulation scenario driven through the REST API on a test clock: loans, a renewal, overdue
// returns with their fines, holds at bib and item level, a check-in that traps a hold, payments
// and a manual charge. Each report is checked against Carrel's own answer for the same question:
// the REST API's, or a query on Carrel's own tables worked out here; and the columns a report
// hands on (keys, dates, money) have the names and PostgreSQL types a Sierra report expects.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp, type BuiltApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openPGlite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import type { Db } from '../../src/db/types.ts';
import { toMarcInJson } from '../../src/marc/marc-in-json.ts';
import type { DataField, MarcRecord } from '../../src/marc/record.ts';
import { addDays, FixedClock } from '../../src/shared/calendar.ts';
import { SqlService, type SqlAnswer } from '../../src/sql/service.ts';
import { childDatabase, ENGINE } from '../helpers/db.ts';
import { cents, money } from '../helpers/money.ts';
import { carrel } from '../helpers/process.ts';
import { marcFile } from '../helpers/shared-data.ts';

// PostgreSQL's type oids.
const INT2 = 21;
const INT4 = 23;
const INT8 = 20;
const TEXT = 25;
const BPCHAR = 1042;
const VARCHAR = 1043;
const NUMERIC = 1700;
const MONEY = 790;
const TIMESTAMPTZ = 1184;

const IMPORTED_FILES = ['brkrtest_UTF8.mrc', 'pymarc-test.dat'];

type Row = Record<string, unknown>;
interface Response {
  statusCode: number;
  body: string;
  json(): any;
}

/** The answer's rows as objects by column name. */
const rowsOf = (answer: SqlAnswer): Row[] => answer.rows.map((row) => Object.fromEntries(row.map((v, i) => [answer.columns[i]!, v])));

/** The answer's columns must be these, in this order, and those given a type must have it. */
function assertColumns(answer: SqlAnswer, columns: string[], types: Record<string, number>): void {
  assert.deepEqual(answer.columns, columns);
  for (const [column, oid] of Object.entries(types)) assert.equal(answer.types[answer.columns.indexOf(column)], oid, column);
}

/** A money answer ('$1,234.50') in cents. */
const moneyCents = (value: unknown): bigint => cents(String(value).replace(/[$,]/g, ''));
/** A date or timestamp answer as its UTC day. */
const day = (value: unknown): string | null => (value === null ? null : (value as Date).toISOString().slice(0, 10));
/** n of total as a percentage to one decimal, halves up (PostgreSQL's round of a positive numeric). */
const pct = (n: number, total: number): string => {
  const tenths = Math.floor((2000 * n + total) / (2 * total));
  return `${Math.floor(tenths / 10)}.${tenths % 10}`;
};
const key = (letter: string, id: string) => `${letter}${id}a`;
const idOf = (link: string) => link.split('/').pop()!;

function marc(title: string, author: string, year: string, isbns: string[]): MarcRecord {
  const field = (tag: string, ind1: string, ind2: string, ...subfields: [string, string][]): DataField => ({
    tag,
    ind1,
    ind2,
    subfields: subfields.map(([code, value]) => ({ code, value })),
  });
  return {
    leader: '00000nam a2200000 a 4500',
    fields: [
      { tag: '008', value: `250101s${year}    xxu           000 0 eng d` },
      ...isbns.map((isbn) => field('020', ' ', ' ', ['a', isbn])),
      field('100', '1', ' ', ['a', author]),
      field('245', '1', '0', ['a', title]),
      field('264', ' ', '1', ['a', 'Springfield :'], ['b', 'Carrel Press,'], ['c', year]),
    ],
  };
}

describe(`library report SQL over sierra_view on ${ENGINE}`, () => {
  let database: Awaited<ReturnType<typeof childDatabase>>;
  let db: Db;
  let built: BuiltApp;
  let sql: SqlService;
  let token: string;
  const imports: { read: number; created: number; failed: unknown[] }[] = [];
  // Real days, so that reports written with now() and current_date see the scenario as the API does.
  const today = new Date().toISOString().slice(0, 10);
  const clock = new FixedClock(addDays(today, -30));
  const bibs: Record<string, string> = {};
  const items: Record<string, string> = {};
  const patrons: Record<string, string> = {};
  const checkouts: Record<string, string> = {};
  /** What the scenario did, in order, as circ_trans should log it: [op, patron, item barcode or bib]. */
  const events: [string, string, string | null][] = [];

  const request = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown): Promise<Response> =>
    built.app.inject({
      method,
      url,
      headers: { authorization: token },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const get = async (url: string): Promise<any> => {
    const res = await request('GET', url);
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    return res.json();
  };
  const ok = async (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown): Promise<Response> => {
    const res = await request(method, url, payload);
    assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res;
  };
  const created = async (url: string, payload: unknown): Promise<string> => idOf((await ok('POST', url, payload)).json().link);
  const run = (statement: string, params?: string[]) => sql.run(statement, params ? { params } : {});

  before(async () => {
    // The catalogue's first part, through the real command on this test's own database.
    database = await childDatabase();
    for (const file of IMPORTED_FILES) {
      const loaded = await carrel(['import', marcFile(file), '--json'], database.env);
      assert.equal(loaded.code, 0, loaded.stderr);
      imports.push(JSON.parse(loaded.stdout));
    }
    db = database.env.DATABASE_URL
      ? openPostgres(database.env.DATABASE_URL, { max: 5, connectTimeoutSec: 10, poolWaitSec: 120 })
      : await openPGlite({ dataDir: path.join(database.env.CARREL_DATA_DIR!, 'pglite') });
    built = await buildApp({ config: loadConfig({ LOG_LEVEL: 'info' }), db, logStream: false, clock });
    built.state.schemaReady = true;
    const apiKey = await built.services.auth.createKey('library queries', ['all'], 0);
    const issued = await built.app.inject({
      method: 'POST',
      url: '/v6/token',
      headers: { authorization: `Basic ${Buffer.from(`${apiKey.key}:${apiKey.secret}`).toString('base64')}` },
    });
    token = `Bearer ${issued.json().access_token as string}`;
    sql = new SqlService(db, { statementTimeoutMs: 60_000, rowCap: 100_000 });

    // The library, through the REST API: Main (mn, and its stacks st, no pickup) and Riverside (br),
    // open every day; 14-day loans, 7 for DVDs, two renewals, 0.25 a day overdue from the first day.
    const profile = await get('/v6/library/profile');
    const location = (code: string, name: string, pickup: boolean, holdShelfDays: number) => ({ code, name, pickup, holdShelfDays });
    await ok('PUT', '/v6/library/profile', {
      ...profile,
      branches: [
        { id: 1, name: 'Main Library', locations: [location('mn', 'Main Library', true, 7), location('st', 'Main stacks', false, 7)] },
        { id: 2, name: 'Riverside', locations: [location('br', 'Riverside', true, 3)] },
      ],
      circulationRules: [
        { loanDays: 14, renewals: 2, holdable: true, finePerDay: '0.25', graceDays: 0 },
        { itemType: 'dvd', loanDays: 7 },
      ],
    });

    // The rest of the catalogue through the REST API: MARC-in-JSON bibs, then items on them and on
    // two of the imported bibs.
    const [first, second] = await db.query<{ id: string }>('select id::text from bibs where deleted_date is null order by id limit 2');
    bibs.imported1 = first!.id;
    bibs.imported2 = second!.id;
    bibs.salt = await created(
      '/v6/bibs',
      toMarcInJson(marc('Salt and light :', 'Okafor, Ngozi.', '2024', ['9780306406157 (hardcover)', '0306406152 (pbk.)'])),
    );
    bibs.harbour = await created('/v6/bibs', toMarcInJson(marc('The quiet harbour', 'Lindqvist, Maja.', '2025', ['9781566199094'])));
    bibs.sky = await created('/v6/bibs', toMarcInJson(marc('Maps of the northern sky', 'Ahn, Ji-woo.', '2023', [])));
    for (const [name, bib, barcode, location, itemType, more] of [
      ['salt1', bibs.salt, 'LQ-0001', 'mn', 'book', { callNumber: '641.5 OKA' }],
      ['salt2', bibs.salt, 'LQ-0002', 'br', 'book', { callNumber: '641.5 OKA c.2' }],
      ['harbourDvd', bibs.harbour, 'LQ-0003', 'mn', 'dvd', {}],
      ['imported1a', bibs.imported1, 'LQ-0004', 'br', 'book', {}],
      ['imported2', bibs.imported2, 'LQ-0005', 'mn', 'book', {}],
      ['sky', bibs.sky, 'LQ-0006', 'st', 'book', { callNumber: '523.8 AHN' }],
      ['imported1b', bibs.imported1, 'LQ-0007', 'mn', 'book', {}],
      ['harbourMissing', bibs.harbour, 'LQ-0008', 'mn', 'book', { status: 'm' }],
    ] as const)
      items[name] = await created('/v6/items', { bibIds: [bib], barcodes: [barcode], location, itemType, ...more });

    for (const [name, names, barcode, patronType] of [
      ['ada', 'Reader, Ada', 'LQP-1', 0],
      ['ben', 'Young, Ben', 'LQP-2', 1],
      ['cora', 'Elder, Cora', 'LQP-3', 2],
      ['dan', 'Waite, Dan', 'LQP-4', 0],
    ] as const)
      patrons[name] = await created('/v6/patrons', { names: [names], barcodes: [barcode], patronType, homeLibraryCode: 'mn' });

    const checkout = async (name: string, patron: string, barcode: string) => {
      checkouts[name] = await created(`/v6/patrons/${patrons[patron]}/checkouts`, { itemBarcode: barcode });
      events.push(['o', patron, barcode]);
    };
    const hold = async (patron: string, recordType: 'b' | 'i', recordNumber: string, pickupLocation: string) => {
      await ok('POST', `/v6/patrons/${patrons[patron]}/holds/requests`, { recordType, recordNumber: Number(recordNumber), pickupLocation });
      events.push([recordType === 'b' ? 'nb' : 'ni', patron, null]);
    };

    // Thirty days ago: four loans.
    await checkout('adaSalt', 'ada', 'LQ-0001');
    await checkout('adaDvd', 'ada', 'LQ-0003');
    await checkout('benImported', 'ben', 'LQ-0004');
    await checkout('coraImported', 'cora', 'LQ-0005');

    // Ten days ago: Ben renews six days late (a fine), Ada returns the DVD thirteen days late (a
    // fine), and holds are placed: two on Salt and light's bib, one on the copy Cora has, one on
    // the other imported bib.
    clock.set(addDays(today, -10));
    await ok('POST', `/v6/patrons/checkouts/${checkouts.benImported}/renewal`);
    events.push(['$', 'ben', 'LQ-0004'], ['r', 'ben', 'LQ-0004']);
    await ok('POST', `/v6/items/${items.harbourDvd}/checkin`, {});
    events.push(['$', 'ada', 'LQ-0003'], ['i', 'ada', 'LQ-0003']);
    await hold('dan', 'b', bibs.salt, 'mn');
    await hold('cora', 'b', bibs.salt, 'br');
    await hold('ben', 'i', items.imported2!, 'br');
    await hold('ada', 'b', bibs.imported2, 'mn');

    // Today: Ada returns Salt and light sixteen days late (a fine); the copy is trapped for Dan's
    // hold. Ada pays the DVD's fine and part of the other; Cora is charged for a damaged label;
    // Dan borrows.
    clock.set(today);
    assert.equal((await ok('DELETE', '/v6/items/checkouts/LQ-0001')).statusCode, 204);
    events.push(['$', 'ada', 'LQ-0001'], ['i', 'ada', 'LQ-0001']);
    const owedByAda = (await get(`/v6/patrons/${patrons.ada}/fines?fields=item,invoiceNumber`)).entries as {
      invoiceNumber: number;
      item: string;
    }[];
    const fineOf = (item: string) => String(owedByAda.find((f) => f.item.endsWith(`/items/${item}`))!.invoiceNumber);
    await ok('POST', `/v6/patrons/${patrons.ada}/fines/payment`, {
      payments: [
        { amount: 325, paymentType: 1, invoiceNumber: fineOf(items.harbourDvd!) },
        { amount: 150, paymentType: 3, invoiceNumber: fineOf(items.salt1!) },
      ],
    });
    await created(`/v6/patrons/${patrons.cora}/fines/charge`, { amount: 275, reason: 'Damaged barcode label', location: 'mn' });
    events.push(['$', 'cora', null]);
    await checkout('danImported', 'dan', 'LQ-0007');
  });

  after(async () => {
    await built?.app.close();
    await db?.close();
    await database?.remove();
  });

  it('loads the catalogue through `carrel import` and the REST API, and the circulation scenario happened as planned', async () => {
    assert.equal(imports.length, IMPORTED_FILES.length);
    for (const summary of imports) assert.deepEqual([summary.failed, summary.created], [[], summary.read]);
    const trapped = (await get(`/v6/patrons/${patrons.dan}/holds?fields=status,recordType`)).entries as { status: { code: string } }[];
    assert.deepEqual(
      trapped.map((h) => h.status.code),
      ['b'],
      'the check-in trapped Dan’s bib hold',
    );
    assert.equal((await get(`/v6/items/${items.salt1}?fields=status`)).status.code, '!');
  });

  it('logs the scenario in circ_trans, with Sierra’s columns and types', async () => {
    const patronKeys = Object.values(patrons).map((id) => `'p${id}'`);
    const answer = await run(
      `select t.*, id2reckey(t.patron_record_id) as patron_key, ip.barcode
       from sierra_view.circ_trans t left join sierra_view.item_record_property ip on ip.item_record_id = t.item_record_id
       where t.patron_record_id in (select reckey2id(k) from unnest(array[${patronKeys.join(', ')}]) k)
       order by t.id`,
    );
    // Sierra's columns of circ_trans, in its order and types (0049_sierra_view_rest.sql).
    assertColumns(
      answer,
      [
        'id',
        'transaction_gmt',
        'application_name',
        'source_code',
        'op_code',
        'patron_record_id',
        'item_record_id',
        'volume_record_id',
        'bib_record_id',
        'stat_group_code_num',
        'due_date_gmt',
        'count_type_code_num',
        'itype_code_num',
        'icode1',
        'icode2',
        'item_location_code',
        'item_agency_code_num',
        'ptype_code',
        'pcode1',
        'pcode2',
        'pcode3',
        'pcode4',
        'patron_home_library_code',
        'patron_agency_code_num',
        'loanrule_code_num',
        'patron_key',
        'barcode',
      ],
      {
        id: INT4,
        transaction_gmt: TIMESTAMPTZ,
        application_name: VARCHAR,
        op_code: VARCHAR,
        patron_record_id: INT8,
        item_record_id: INT8,
        bib_record_id: INT8,
        due_date_gmt: TIMESTAMPTZ,
        itype_code_num: INT4,
        item_location_code: VARCHAR,
        ptype_code: VARCHAR,
        patron_home_library_code: VARCHAR,
      },
    );
    const byId = Object.fromEntries(Object.entries(patrons).map(([name, id]) => [`p${id}`, name]));
    const logged = rowsOf(answer);
    assert.deepEqual(
      logged.map((e) => [e.op_code, byId[String(e.patron_key)], e.op_code === 'nb' || e.op_code === 'ni' ? null : e.barcode]),
      events,
    );
    // Each row as Carrel's own log has it.
    const own = await db.query<{ id: number; op_code: string; patron_type: number; item_type: string | null; code_num: number | null }>(
      `select c.id::integer as id, c.op_code, c.patron_type, c.item_type, t.code_num
       from circ_transactions c left join item_types t on t.code = c.item_type where c.patron_id = any($1::bigint[]) order by c.id`,
      [Object.values(patrons)],
    );
    assert.deepEqual(
      logged.map((e) => [e.id, e.op_code, e.ptype_code, e.itype_code_num]),
      own.map((o) => [o.id, o.op_code, String(o.patron_type), o.code_num]),
    );
    // The loans carry their due dates as the API gave them.
    const loans = logged.filter((e) => e.op_code === 'o');
    for (const [name, barcode] of [
      ['benImported', 'LQ-0004'],
      ['danImported', 'LQ-0007'],
    ] as const) {
      const loan = loans.find((e) => e.barcode === barcode)!;
      const due = (await get(`/v6/patrons/checkouts/${checkouts[name]}?fields=dueDate,numberOfRenewals`)) as { dueDate: string };
      if (name === 'danImported') assert.equal(day(loan.due_date_gmt), due.dueDate);
      else assert.ok(day(loan.due_date_gmt)! < due.dueDate, 'the renewal moved the due date on');
    }
  });

  it('reports circulation by patron type and item type for a month (CTE, filtered counts, share of the month)', async () => {
    const statement = `
      -- Checkouts, renewals and check-ins in the month of $1, by patron type and item type.
      with month_trans as (
        select t.op_code, t.ptype_code, t.itype_code_num
        from sierra_view.circ_trans t
        where t.transaction_gmt >= date_trunc('month', $1::date)
          and t.transaction_gmt < date_trunc('month', $1::date) + interval '1 month'
          and t.op_code in ('o', 'r', 'i')
      )
      select m.ptype_code, pt.name as ptype_name, m.itype_code_num, it.name as itype_name,
        count(*) filter (where m.op_code = 'o') as checkouts,
        count(*) filter (where m.op_code = 'r') as renewals,
        count(*) filter (where m.op_code = 'i') as checkins,
        round(100.0 * count(*) / sum(count(*)) over (), 1) as pct_of_month
      from month_trans m
      -- Sierra's circ_trans keeps the patron type as text, its code table as a number.
      left join sierra_view.ptype_property_myuser pt on pt.value::varchar = m.ptype_code
      left join sierra_view.itype_property_myuser it on it.code = m.itype_code_num
      group by 1, 2, 3, 4
      order by m.ptype_code::integer, 3`;
    const lastMonth = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 2, 15)).toISOString().slice(0, 10);
    for (const month of [today, lastMonth]) {
      const answer = await run(statement, [month]);
      assertColumns(
        answer,
        ['ptype_code', 'ptype_name', 'itype_code_num', 'itype_name', 'checkouts', 'renewals', 'checkins', 'pct_of_month'],
        {
          ptype_code: VARCHAR,
          ptype_name: VARCHAR,
          itype_code_num: INT4,
          itype_name: VARCHAR,
          checkouts: INT8,
          pct_of_month: NUMERIC,
        },
      );
      const own = await db.query<{ patron_type: number; ptype: string; code_num: number; itype: string; op: string; n: number }>(
        `select c.patron_type, pt.description as ptype, t.code_num, t.name as itype, c.op_code as op, count(*)::integer as n
         from circ_transactions c left join patron_types pt on pt.code = c.patron_type left join item_types t on t.code = c.item_type
         where c.transaction_date >= date_trunc('month', $1::date) and c.transaction_date < date_trunc('month', $1::date) + interval '1 month'
           and c.op_code in ('o', 'r', 'i')
         group by 1, 2, 3, 4, 5`,
        [month],
      );
      const total = own.reduce((sum, o) => sum + o.n, 0);
      const groups = new Map<string, Row>();
      for (const o of own) {
        const k = `${o.patron_type}|${o.code_num}`;
        const g = groups.get(k) ?? {
          ptype_code: String(o.patron_type),
          ptype_name: o.ptype,
          itype_code_num: o.code_num,
          itype_name: o.itype,
          o: 0,
          r: 0,
          i: 0,
        };
        g[o.op] = (g[o.op] as number) + o.n;
        groups.set(k, g);
      }
      const expected = [...groups.values()]
        .sort((a, b) => Number(a.ptype_code) - Number(b.ptype_code) || (a.itype_code_num as number) - (b.itype_code_num as number))
        .map(({ o, r, i, ...g }): Row => ({
          ...g,
          checkouts: String(o),
          renewals: String(r),
          checkins: String(i),
          pct_of_month: pct((o as number) + (r as number) + (i as number), total),
        }));
      assert.deepEqual(rowsOf(answer), expected, month);
      if (month === today) {
        assert.ok(expected.length >= 3, 'this month has the scenario: several patron and item types');
        assert.ok(expected.some((g) => g.itype_name === 'DVD' && g.ptype_name === 'Adult'));
      }
    }
  });

  it('lists the items checked out, with titles, due dates and days overdue, as the API has the loans', async () => {
    const answer = await run(`
      select id2reckey(p.id) || 'a' as patron_num, pv.barcode as patron_barcode, p.ptype_code,
        id2reckey(i.id) || 'a' as item_num, ip.barcode as item_barcode, brp.best_title as title,
        c.checkout_gmt, c.due_gmt, c.renewal_count,
        case when c.due_gmt::date < current_date then current_date - c.due_gmt::date else 0 end as days_overdue
      from sierra_view.checkout c
      join sierra_view.patron_record p on p.id = c.patron_record_id
      join sierra_view.patron_view pv on pv.id = p.id
      join sierra_view.item_record i on i.id = c.item_record_id
      join sierra_view.record_metadata rm on rm.id = i.id and rm.record_type_code = 'i'
      join sierra_view.item_record_property ip on ip.item_record_id = i.id
      join sierra_view.bib_record_item_record_link l on l.item_record_id = i.id and l.bibs_display_order = 0
      join sierra_view.bib_record_property brp on brp.bib_record_id = l.bib_record_id
      order by c.due_gmt, ip.barcode`);
    assertColumns(
      answer,
      [
        'patron_num',
        'patron_barcode',
        'ptype_code',
        'item_num',
        'item_barcode',
        'title',
        'checkout_gmt',
        'due_gmt',
        'renewal_count',
        'days_overdue',
      ],
      {
        patron_num: TEXT,
        patron_barcode: VARCHAR,
        ptype_code: INT2,
        item_num: TEXT,
        title: VARCHAR,
        checkout_gmt: TIMESTAMPTZ,
        due_gmt: TIMESTAMPTZ,
        renewal_count: INT4,
        days_overdue: INT4,
      },
    );
    const expected: Row[] = [];
    for (const id of Object.values(patrons)) {
      const patron = await get(`/v6/patrons/${id}?fields=barcodes,patronType`);
      const loans = (await get(`/v6/patrons/${id}/checkouts?fields=item,barcode,dueDate,numberOfRenewals,outDate`)).entries;
      for (const loan of loans) {
        const item = idOf(loan.item);
        const [bib] = (await get(`/v6/items/${item}?fields=bibIds`)).bibIds as string[];
        const overdue = loan.dueDate < today ? Math.round((Date.parse(today) - Date.parse(loan.dueDate)) / 86_400_000) : 0;
        expected.push({
          patron_num: key('p', id),
          patron_barcode: patron.barcodes[0],
          ptype_code: patron.patronType,
          item_num: key('i', item),
          item_barcode: loan.barcode,
          title: (await get(`/v6/bibs/${bib}?fields=title`)).title,
          checkout_gmt: loan.outDate,
          due_gmt: loan.dueDate,
          renewal_count: loan.numberOfRenewals,
          days_overdue: overdue,
        });
      }
    }
    expected.sort(
      (a, b) => String(a.due_gmt).localeCompare(String(b.due_gmt)) || String(a.item_barcode).localeCompare(String(b.item_barcode)),
    );
    const report = rowsOf(answer).map((r): Row => ({
      ...r,
      checkout_gmt: (r.checkout_gmt as Date).toISOString().replace(/\.\d+Z$/, 'Z'),
      due_gmt: day(r.due_gmt),
    }));
    assert.equal(report.length, 3, 'Ben’s renewed loan, Cora’s overdue one and Dan’s new one');
    assert.deepEqual(report, expected);
    assert.ok(report.some((r) => (r.days_overdue as number) > 0 && r.patron_barcode === 'LQP-3'));
  });

  it('ranks each hold queue, bib and item holds rolled up to their title, as the API places them', async () => {
    const answer = await run(`
      with hold_bib as (
        select h.id as hold_id, h.patron_record_id, h.record_id, rm.record_type_code as hold_level, h.status, h.placed_gmt,
          h.pickup_location_code, h.records_display_order, coalesce(l.bib_record_id, h.record_id) as bib_record_id
        from sierra_view.hold h
        join sierra_view.record_metadata rm on rm.id = h.record_id
        left join sierra_view.bib_record_item_record_link l on l.item_record_id = h.record_id and rm.record_type_code = 'i'
      )
      select id2reckey(hb.bib_record_id) || 'a' as bib_num, brp.best_title, id2reckey(hb.record_id) || 'a' as held_num,
        hb.hold_level, id2reckey(hb.patron_record_id) || 'a' as patron_num, hb.status, hb.pickup_location_code, hb.placed_gmt,
        rank() over (partition by hb.record_id order by hb.placed_gmt, hb.hold_id) as queue_position,
        count(*) over (partition by hb.record_id) as queue_length,
        count(*) over (partition by hb.bib_record_id) as holds_on_title,
        hb.records_display_order
      from hold_bib hb
      join sierra_view.bib_record_property brp on brp.bib_record_id = hb.bib_record_id
      order by hb.bib_record_id, hb.record_id, queue_position`);
    assertColumns(
      answer,
      [
        'bib_num',
        'best_title',
        'held_num',
        'hold_level',
        'patron_num',
        'status',
        'pickup_location_code',
        'placed_gmt',
        'queue_position',
        'queue_length',
        'holds_on_title',
        'records_display_order',
      ],
      { bib_num: TEXT, hold_level: BPCHAR, status: BPCHAR, pickup_location_code: VARCHAR, placed_gmt: TIMESTAMPTZ, queue_position: INT8 },
    );
    const expected: (Row & { bibId: string; heldId: string })[] = [];
    for (const id of Object.values(patrons)) {
      const holds = (
        await get(`/v6/patrons/${id}/holds?fields=record,recordType,status,pickupLocation,placed,priority,priorityQueueLength`)
      ).entries;
      for (const h of holds) {
        const heldId = idOf(h.record);
        const bibId = h.recordType === 'b' ? heldId : ((await get(`/v6/items/${heldId}?fields=bibIds`)).bibIds[0] as string);
        expected.push({
          bibId,
          heldId,
          bib_num: key('b', bibId),
          best_title: (await get(`/v6/bibs/${bibId}?fields=title`)).title,
          held_num: key(h.recordType, heldId),
          hold_level: h.recordType,
          patron_num: key('p', id),
          status: h.status.code,
          pickup_location_code: h.pickupLocation.code,
          placed_gmt: h.placed,
          queue_position: String(h.priority),
          queue_length: String(h.priorityQueueLength),
          holds_on_title: '',
          records_display_order: h.priority - 1,
        });
      }
    }
    for (const e of expected) e.holds_on_title = String(expected.filter((o) => o.bibId === e.bibId).length);
    // Sierra's record ids put a bib's own holds before its items' (b before i).
    expected.sort(
      (a, b) =>
        Number(a.bibId) - Number(b.bibId) ||
        String(a.hold_level).localeCompare(String(b.hold_level)) ||
        Number(a.heldId) - Number(b.heldId) ||
        Number(a.queue_position) - Number(b.queue_position),
    );
    const report = rowsOf(answer).map((r): Row => ({ ...r, placed_gmt: day(r.placed_gmt) }));
    assert.equal(report.length, 4);
    assert.deepEqual(
      report,
      expected.map(({ bibId: _b, heldId: _h, ...e }) => e),
    );
    const salt = report.filter((r) => r.bib_num === key('b', bibs.salt!));
    assert.deepEqual(
      salt.map((r) => [r.patron_num, r.status, r.queue_position]),
      [
        [key('p', patrons.dan!), 'b', '1'],
        [key('p', patrons.cora!), '0', '2'],
      ],
    );
  });

  it('sums the fines each patron owes as money, with a running total and a rank, as the API counts them', async () => {
    const answer = await run(`
      with owed as (
        select f.patron_record_id, count(*) as fines,
          sum(f.item_charge_amt + f.processing_fee_amt + f.billing_fee_amt - f.paid_amt) as owed_amt
        from sierra_view.fine f
        group by f.patron_record_id
      )
      select id2reckey(o.patron_record_id) || 'a' as patron_num, pv.barcode, n.last_name, n.first_name, o.fines,
        o.owed_amt::money as owed, pv.owed_amt::money as money_owed,
        sum(o.owed_amt) over (order by o.owed_amt desc, o.patron_record_id)::money as running_total,
        rank() over (order by o.owed_amt desc) as place
      from owed o
      join sierra_view.patron_view pv on pv.id = o.patron_record_id
      left join sierra_view.patron_record_fullname n on n.patron_record_id = o.patron_record_id and n.display_order = 0
      order by place, o.patron_record_id`);
    assertColumns(answer, ['patron_num', 'barcode', 'last_name', 'first_name', 'fines', 'owed', 'money_owed', 'running_total', 'place'], {
      patron_num: TEXT,
      barcode: VARCHAR,
      last_name: VARCHAR,
      fines: INT8,
      owed: MONEY,
      money_owed: MONEY,
      running_total: MONEY,
    });
    const expected: { id: string; barcode: string; last: string; first: string; fines: number; owed: bigint }[] = [];
    for (const id of Object.values(patrons)) {
      const patron = await get(`/v6/patrons/${id}?fields=barcodes,names,moneyOwed`);
      const fines = (await get(`/v6/patrons/${id}/fines?fields=itemCharge,processingFee,billingFee,paidAmount`)).entries as {
        itemCharge: number;
        processingFee: number;
        billingFee: number;
        paidAmount: number;
      }[];
      if (fines.length === 0) continue;
      const owed = fines.reduce(
        (sum, f) =>
          sum +
          cents(f.itemCharge.toFixed(2)) +
          cents(f.processingFee.toFixed(2)) +
          cents(f.billingFee.toFixed(2)) -
          cents(f.paidAmount.toFixed(2)),
        0n,
      );
      assert.equal(owed, cents(patron.moneyOwed), 'the fines add up to the money the patron owes');
      const [last, first] = (patron.names[0] as string).split(', ');
      expected.push({ id, barcode: patron.barcodes[0], last: last!, first: first!, fines: fines.length, owed });
    }
    expected.sort((a, b) => (a.owed === b.owed ? Number(a.id) - Number(b.id) : a.owed > b.owed ? -1 : 1));
    let running = 0n;
    const report = rowsOf(answer).map((r): Row => ({
      ...r,
      owed: moneyCents(r.owed),
      money_owed: moneyCents(r.money_owed),
      running_total: moneyCents(r.running_total),
    }));
    assert.deepEqual(
      report,
      expected.map((e) => {
        running += e.owed;
        return {
          patron_num: key('p', e.id),
          barcode: e.barcode,
          last_name: e.last,
          first_name: e.first,
          fines: String(e.fines),
          owed: e.owed,
          money_owed: e.owed,
          running_total: running,
          place: String(expected.filter((o) => o.owed > e.owed).length + 1),
        };
      }),
    );
    assert.equal(report.length, 3, 'Ada (part paid), Ben (renewed late) and Cora (charged)');
    assert.match(String(rowsOf(answer)[0]!.owed), /^\$\d+\.\d\d$/, 'money as Sierra reports print it');
  });

  it('lists the payments taken, each and running, as money, with the fine each paid', async () => {
    const answer = await run(`
      select fp.paid_date_gmt, id2reckey(fp.patron_record_metadata_id) || 'a' as patron_num, fp.invoice_num, fp.charge_type_code,
        fp.item_charge_amt::money as charged, fp.paid_now_amt::money as paid, fp.payment_status_code, fp.payment_type_code,
        sum(fp.paid_now_amt) over (order by fp.paid_date_gmt, fp.id)::money as running_total,
        sum(fp.paid_now_amt) over (partition by fp.patron_record_metadata_id order by fp.paid_date_gmt, fp.id)::money as patron_running_total
      from sierra_view.fines_paid fp
      where fp.paid_date_gmt >= now() - interval '90 days'
      order by fp.paid_date_gmt, fp.id`);
    assertColumns(
      answer,
      [
        'paid_date_gmt',
        'patron_num',
        'invoice_num',
        'charge_type_code',
        'charged',
        'paid',
        'payment_status_code',
        'payment_type_code',
        'running_total',
        'patron_running_total',
      ],
      {
        paid_date_gmt: TIMESTAMPTZ,
        invoice_num: INT4,
        charge_type_code: BPCHAR,
        paid: MONEY,
        running_total: MONEY,
        payment_status_code: BPCHAR,
      },
    );
    const own = await db.query<{ id: string; fine_id: string; patron_id: string; amount: string; payment_type: number }>(
      `select id::text, fine_id::text, patron_id::text, amount::text, payment_type from fine_payments
       where paid_date >= now() - interval '90 days' order by paid_date, id`,
    );
    assert.equal(own.length, 2);
    let running = 0n;
    const perPatron = new Map<string, bigint>();
    const expected = [];
    for (const p of own) {
      const fine = await get(`/v6/patrons/fines/${p.fine_id}?fields=chargeType,itemCharge,paidAmount,invoiceNumber`);
      running += cents(p.amount);
      perPatron.set(p.patron_id, (perPatron.get(p.patron_id) ?? 0n) + cents(p.amount));
      expected.push({
        patron_num: key('p', p.patron_id),
        invoice_num: fine.invoiceNumber,
        charge_type_code: fine.chargeType.code,
        charged: cents(fine.itemCharge.toFixed(2)),
        paid: cents(p.amount),
        // Paid off by this payment ('1') or in part ('2'): this scenario pays each fine once.
        payment_status_code: fine.paidAmount >= fine.itemCharge ? '1' : '2',
        payment_type_code: String(p.payment_type),
        running_total: running,
        patron_running_total: perPatron.get(p.patron_id),
      });
    }
    const report = rowsOf(answer).map(({ paid_date_gmt, ...r }): Row => {
      assert.equal(day(paid_date_gmt), today);
      return {
        ...r,
        charged: moneyCents(r.charged),
        paid: moneyCents(r.paid),
        running_total: moneyCents(r.running_total),
        patron_running_total: moneyCents(r.patron_running_total),
      };
    });
    assert.deepEqual(report, expected);
    assert.deepEqual(
      report.map((r) => [r.payment_status_code, money(r.paid)]),
      [
        ['1', '3.25'],
        ['2', '1.50'],
      ],
    );
  });

  it('lists the titles added this month with their first ISBN from 020 $a, for imported and API-made bibs alike', async () => {
    const answer = await run(`
      with new_bibs as (
        select rm.id, rm.creation_date_gmt
        from sierra_view.record_metadata rm
        where rm.record_type_code = 'b' and rm.deletion_date_gmt is null
          and rm.creation_date_gmt >= date_trunc('month', now())
      ), isbns as (
        select v.record_id, substring(s.content from '^([0-9Xx-]{10,17})') as isbn,
          row_number() over (partition by v.record_id order by v.occ_num, s.display_order) as n
        from new_bibs nb
        join sierra_view.varfield v on v.record_id = nb.id and v.marc_tag = '020'
        join sierra_view.subfield s on s.record_id = v.record_id and s.varfield_id = v.id and s.tag = 'a'
      )
      select id2reckey(nb.id) || 'a' as bib_num, brp.best_title, brp.best_author, nb.creation_date_gmt, i.isbn as first_isbn,
        (select count(*) from isbns x where x.record_id = nb.id) as isbn_count
      from new_bibs nb
      join sierra_view.bib_record_property brp on brp.bib_record_id = nb.id
      left join isbns i on i.record_id = nb.id and i.n = 1
      order by nb.id`);
    assertColumns(answer, ['bib_num', 'best_title', 'best_author', 'creation_date_gmt', 'first_isbn', 'isbn_count'], {
      bib_num: TEXT,
      best_title: VARCHAR,
      best_author: VARCHAR,
      creation_date_gmt: TIMESTAMPTZ,
      first_isbn: TEXT,
      isbn_count: INT8,
    });
    // The MARC as Carrel keeps it, read here.
    const own = await db.query<{ id: string; title: string | null; author: string | null; created: Date; marc: string }>(
      `select id::text, title, author, created_date as created, marc::text as marc from bibs
       where deleted_date is null and created_date >= date_trunc('month', now()) order by id`,
    );
    const expected = own.map((b) => {
      const isbns: string[] = [];
      for (const field of (JSON.parse(b.marc) as { fields: Record<string, { subfields?: Record<string, string>[] }>[] }).fields) {
        const f = field['020'];
        for (const sub of f?.subfields ?? []) if (sub.a !== undefined) isbns.push(sub.a);
      }
      return {
        bib_num: key('b', b.id),
        best_title: b.title,
        best_author: b.author,
        creation_date_gmt: b.created.toISOString(),
        first_isbn: isbns.length ? (/^([0-9Xx-]{10,17})/.exec(isbns[0]!)?.[1] ?? null) : null,
        isbn_count: String(isbns.length),
      };
    });
    const report = rowsOf(answer).map((r): Row => ({ ...r, creation_date_gmt: (r.creation_date_gmt as Date).toISOString() }));
    assert.deepEqual(report, expected);
    const importedCount = imports.reduce((n, s) => n + s.created, 0);
    assert.equal(report.length, importedCount + 3, 'every imported bib and the three made through the API');
    assert.ok(report.filter((r) => r.first_isbn !== null).length > importedCount / 2, 'most imported records have an ISBN');
    assert.deepEqual(
      report
        .filter((r) => [bibs.salt, bibs.harbour, bibs.sky].map((id) => key('b', id!)).includes(String(r.bib_num)))
        .map((r) => [r.first_isbn, r.isbn_count]),
      [
        ['9780306406157', '2'],
        ['9781566199094', '1'],
        [null, '0'],
      ],
    );
  });

  it('counts items by location and status, with those out on loan and each status’s share of its location', async () => {
    const answer = await run(`
      select i.location_code, coalesce(ln.name, i.location_code) as location_name, i.item_status_code, sn.name as status_name,
        count(*) as items, count(c.id) as checked_out,
        round(100.0 * count(*) / sum(count(*)) over (partition by i.location_code), 1) as pct_of_location
      from sierra_view.item_record i
      left join sierra_view.location_myuser ln on ln.code = i.location_code
      left join sierra_view.item_status_property_myuser sn on sn.code = i.item_status_code
      left join sierra_view.checkout c on c.item_record_id = i.id
      group by 1, 2, 3, 4
      order by 1, 3`);
    assertColumns(
      answer,
      ['location_code', 'location_name', 'item_status_code', 'status_name', 'items', 'checked_out', 'pct_of_location'],
      {
        location_code: VARCHAR,
        location_name: VARCHAR,
        item_status_code: BPCHAR,
        status_name: VARCHAR,
        items: INT8,
        checked_out: INT8,
        pct_of_location: NUMERIC,
      },
    );
    const own = await db.query<{ location_code: string; location: string; status: string; display: string; n: number; out: number }>(
      `select i.location_code, l.name as location, i.status, s.display, count(*)::integer as n,
         count(*) filter (where exists (select from checkouts c where c.item_id = i.id and c.returned_date is null))::integer as out
       from items i join locations l on l.code = i.location_code join item_statuses s on s.code = i.status
       where i.deleted_date is null group by 1, 2, 3, 4`,
    );
    const perLocation = new Map<string, number>();
    for (const o of own) perLocation.set(o.location_code, (perLocation.get(o.location_code) ?? 0) + o.n);
    const expected = own
      .map((o) => ({
        location_code: o.location_code,
        location_name: o.location,
        item_status_code: o.status,
        status_name: o.display,
        items: String(o.n),
        checked_out: String(o.out),
        pct_of_location: pct(o.n, perLocation.get(o.location_code)!),
      }))
      .sort((a, b) => a.location_code.localeCompare(b.location_code) || a.item_status_code.localeCompare(b.item_status_code));
    const report = rowsOf(answer).sort(
      (a, b) =>
        String(a.location_code).localeCompare(String(b.location_code)) ||
        String(a.item_status_code).localeCompare(String(b.item_status_code)),
    );
    assert.deepEqual(report, expected);
    // The API's own view of the same items.
    for (const [name, id] of Object.entries(items)) {
      const item = await get(`/v6/items/${id}?fields=location,status`);
      const row = report.find((r) => r.location_code === item.location.code && r.item_status_code === item.status.code);
      assert.ok(row, `${name}: ${item.location.code} ${item.status.code}`);
    }
    assert.deepEqual(
      report.filter((r) => r.item_status_code !== '-').map((r) => [r.location_code, r.item_status_code]),
      [
        ['mn', '!'],
        ['mn', 'm'],
      ],
    );
  });

  it('ranks the most borrowed titles of the year from circ_trans with dense_rank, beside their items’ checkout totals', async () => {
    const answer = await run(`
      with circ as (
        select t.bib_record_id,
          count(*) filter (where t.op_code = 'o') as checkouts,
          count(*) filter (where t.op_code = 'r') as renewals
        from sierra_view.circ_trans t
        where t.op_code in ('o', 'r') and t.transaction_gmt >= now() - interval '1 year'
        group by t.bib_record_id
      )
      select dense_rank() over (order by c.checkouts + c.renewals desc) as place, id2reckey(c.bib_record_id) || 'a' as bib_num,
        b.best_title, c.checkouts, c.renewals,
        (select sum(ir.checkout_total) from sierra_view.bib_record_item_record_link l
           join sierra_view.item_record ir on ir.id = l.item_record_id
         where l.bib_record_id = c.bib_record_id) as item_checkout_total
      from circ c
      join sierra_view.bib_record_property b on b.bib_record_id = c.bib_record_id
      order by place, c.bib_record_id`);
    assertColumns(answer, ['place', 'bib_num', 'best_title', 'checkouts', 'renewals', 'item_checkout_total'], {
      place: INT8,
      bib_num: TEXT,
      best_title: VARCHAR,
      checkouts: INT8,
      item_checkout_total: INT8,
    });
    const own = await db.query<{ bib_id: string; title: string; o: number; r: number; loans: number }>(
      `select c.bib_id::text, b.title, count(*) filter (where c.op_code = 'o')::integer as o, count(*) filter (where c.op_code = 'r')::integer as r,
         (select count(*) from item_bibs ib join checkouts k on k.item_id = ib.item_id join items i on i.id = ib.item_id
          where ib.bib_id = c.bib_id and i.deleted_date is null)::integer as loans
       from circ_transactions c join bibs b on b.id = c.bib_id
       where c.op_code in ('o', 'r') and c.transaction_date >= now() - interval '1 year' group by c.bib_id, b.title`,
    );
    const expected = own
      .map((o) => ({ ...o, use: o.o + o.r }))
      .sort((a, b) => b.use - a.use || Number(a.bib_id) - Number(b.bib_id))
      .map((o, _, all) => ({
        place: String(new Set(all.filter((x) => x.use > o.use).map((x) => x.use)).size + 1),
        bib_num: key('b', o.bib_id),
        best_title: o.title,
        checkouts: String(o.o),
        renewals: String(o.r),
        item_checkout_total: String(o.loans),
      }));
    assert.deepEqual(rowsOf(answer), expected);
    assert.ok(expected.length >= 3 && expected[0]!.place === '1');
    assert.deepEqual(
      expected.filter((e) => e.place === '1').map((e) => e.bib_num),
      [key('b', bibs.imported1!)],
      'the imported title lent twice and renewed once comes first',
    );
  });

  it("follows an item's history in circ_trans, each due date beside the one before it (lag), as the API gave them", async () => {
    const answer = await run(`
      select id2reckey(t.item_record_id) || 'a' as item_num, t.op_code, id2reckey(t.patron_record_id) || 'a' as patron_num,
        t.ptype_code, t.item_location_code, t.due_date_gmt,
        lag(t.due_date_gmt) over (partition by t.item_record_id order by t.transaction_gmt, t.id) as previous_due,
        row_number() over (partition by t.item_record_id order by t.transaction_gmt, t.id) as event_no
      from sierra_view.circ_trans t
      where t.item_record_id in (select ip.item_record_id from sierra_view.item_record_property ip where ip.barcode in ('LQ-0001', 'LQ-0004'))
        and t.op_code in ('o', 'r', 'i')
      order by t.item_record_id, event_no`);
    assertColumns(
      answer,
      ['item_num', 'op_code', 'patron_num', 'ptype_code', 'item_location_code', 'due_date_gmt', 'previous_due', 'event_no'],
      { op_code: VARCHAR, ptype_code: VARCHAR, due_date_gmt: TIMESTAMPTZ, previous_due: TIMESTAMPTZ, event_no: INT8 },
    );
    const renewed = await get(`/v6/patrons/checkouts/${checkouts.benImported}?fields=dueDate,numberOfRenewals`);
    assert.equal(renewed.numberOfRenewals, 1);
    const [ada, ben] = [
      await get(`/v6/patrons/${patrons.ada}?fields=patronType`),
      await get(`/v6/patrons/${patrons.ben}?fields=patronType`),
    ];
    const report = rowsOf(answer).map((r): Row => ({ ...r, due_date_gmt: day(r.due_date_gmt), previous_due: day(r.previous_due) }));
    // Ada's loan of Salt and light was due 14 days after it went out, 30 days ago; Ben's the same day, then renewed.
    const firstDue = addDays(addDays(today, -30), 14);
    assert.deepEqual(report, [
      {
        item_num: key('i', items.salt1!),
        op_code: 'o',
        patron_num: key('p', patrons.ada!),
        ptype_code: String(ada.patronType),
        item_location_code: 'mn',
        due_date_gmt: firstDue,
        previous_due: null,
        event_no: '1',
      },
      {
        item_num: key('i', items.salt1!),
        op_code: 'i',
        patron_num: key('p', patrons.ada!),
        ptype_code: String(ada.patronType),
        item_location_code: 'mn',
        due_date_gmt: null,
        previous_due: firstDue,
        event_no: '2',
      },
      {
        item_num: key('i', items.imported1a!),
        op_code: 'o',
        patron_num: key('p', patrons.ben!),
        ptype_code: String(ben.patronType),
        item_location_code: 'br',
        due_date_gmt: firstDue,
        previous_due: null,
        event_no: '1',
      },
      {
        item_num: key('i', items.imported1a!),
        op_code: 'r',
        patron_num: key('p', patrons.ben!),
        ptype_code: String(ben.patronType),
        item_location_code: 'br',
        due_date_gmt: renewed.dueDate,
        previous_due: firstDue,
        event_no: '2',
      },
    ]);
  });

  it('lists the hold shelf: holds ready for pickup, with patron, title and the days left to collect', async () => {
    const answer = await run(`
      select h.pickup_location_code, id2reckey(h.patron_record_id) || 'a' as patron_num, pv.barcode as patron_barcode, fn.last_name,
        brp.best_title, h.status, h.expire_holdshelf_gmt, h.expire_holdshelf_gmt::date - current_date as days_left
      from sierra_view.hold h
      join sierra_view.patron_view pv on pv.id = h.patron_record_id
      left join sierra_view.patron_record_fullname fn on fn.patron_record_id = h.patron_record_id and fn.display_order = 0
      left join sierra_view.bib_record_item_record_link l on l.item_record_id = h.record_id
      join sierra_view.bib_record_property brp on brp.bib_record_id = coalesce(l.bib_record_id, h.record_id)
      where h.status in ('b', 'i', 'j')
      order by h.pickup_location_code, fn.last_name`);
    assertColumns(
      answer,
      ['pickup_location_code', 'patron_num', 'patron_barcode', 'last_name', 'best_title', 'status', 'expire_holdshelf_gmt', 'days_left'],
      { status: BPCHAR, expire_holdshelf_gmt: TIMESTAMPTZ, days_left: INT4 },
    );
    const expected = [];
    for (const id of Object.values(patrons)) {
      const patron = await get(`/v6/patrons/${id}?fields=barcodes,names`);
      for (const h of (await get(`/v6/patrons/${id}/holds?fields=record,recordType,status,pickupLocation,pickupByDate`)).entries) {
        if (h.status.code !== 'b' && h.status.code !== 'i') continue;
        const bib = h.recordType === 'b' ? idOf(h.record) : (await get(`/v6/items/${idOf(h.record)}?fields=bibIds`)).bibIds[0];
        const by = (h.pickupByDate as string).slice(0, 10);
        expected.push({
          pickup_location_code: h.pickupLocation.code,
          patron_num: key('p', id),
          patron_barcode: patron.barcodes[0],
          last_name: (patron.names[0] as string).split(',')[0],
          best_title: (await get(`/v6/bibs/${bib}?fields=title`)).title,
          status: h.status.code,
          expire_holdshelf_gmt: by,
          days_left: Math.round((Date.parse(by) - Date.parse(today)) / 86_400_000),
        });
      }
    }
    const report = rowsOf(answer).map((r): Row => ({ ...r, expire_holdshelf_gmt: day(r.expire_holdshelf_gmt) }));
    assert.deepEqual(report, expected);
    assert.deepEqual(
      report.map((r) => [r.patron_barcode, r.days_left]),
      [['LQP-4', 7]],
      'Dan’s hold, seven shelf days at Main',
    );
  });

  it('sums patrons by patron type: loans out, loans ever, money owed, and what all patrons owe (a window over the groups)', async () => {
    const answer = await run(`
      select p.ptype_code, pt.name as ptype_name, count(*) as patrons, sum(p.checkout_count) as loans_out,
        sum(p.checkout_total) as loans_ever, count(*) filter (where p.owed_amt > 0) as owing, sum(p.owed_amt)::money as owed,
        sum(sum(p.owed_amt)) over ()::money as owed_by_all
      from sierra_view.patron_record p
      left join sierra_view.ptype_property_myuser pt on pt.value = p.ptype_code
      group by 1, 2
      order by 1`);
    assertColumns(answer, ['ptype_code', 'ptype_name', 'patrons', 'loans_out', 'loans_ever', 'owing', 'owed', 'owed_by_all'], {
      ptype_code: INT2,
      patrons: INT8,
      loans_out: INT8,
      loans_ever: INT8,
      owed: MONEY,
      owed_by_all: MONEY,
    });
    const groups = new Map<number, { name: string; n: number; out: number; ever: number; owing: number; owed: bigint }>();
    let all = 0n;
    for (const id of Object.values(patrons)) {
      const p = await get(`/v6/patrons/${id}?fields=patronType,moneyOwed`);
      const out = (await get(`/v6/patrons/${id}/checkouts`)).total as number;
      const { ever } = (await db.query<{ ever: number }>('select count(*)::integer as ever from checkouts where patron_id = $1', [id]))[0]!;
      const { name } = (
        await db.query<{ name: string }>('select description as name from patron_types where code = $1', [p.patronType])
      )[0]!;
      const g = groups.get(p.patronType) ?? { name, n: 0, out: 0, ever: 0, owing: 0, owed: 0n };
      const owed = cents(p.moneyOwed);
      groups.set(p.patronType, {
        name,
        n: g.n + 1,
        out: g.out + out,
        ever: g.ever + ever,
        owing: g.owing + (owed > 0n ? 1 : 0),
        owed: g.owed + owed,
      });
      all += owed;
    }
    const expected = [...groups.entries()]
      .sort(([a], [b]) => a - b)
      .map(([ptype, g]) => ({
        ptype_code: ptype,
        ptype_name: g.name,
        patrons: String(g.n),
        loans_out: String(g.out),
        loans_ever: String(g.ever),
        owing: String(g.owing),
        owed: g.owed,
        owed_by_all: all,
      }));
    const report = rowsOf(answer).map((r): Row => ({ ...r, owed: moneyCents(r.owed), owed_by_all: moneyCents(r.owed_by_all) }));
    assert.deepEqual(report, expected);
    assert.equal(money(all), '6.75', 'Ada 2.50, Ben 1.50, Cora 2.75');
  });
});
