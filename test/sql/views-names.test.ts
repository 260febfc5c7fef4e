// The code tables' base and name views (migration 0035): item types, patron types, item statuses,
// branches, statistics groups, languages, countries, bib levels, material types, the user-defined
// codes, iii_language and the fixed-field types. Each answers with Sierra's columns, in Sierra's
// order, with Sierra's types (as SierraDNA documents them and published models of it give them);
// joined by id as Sierra's are (x_property.id = x_property_name.x_property_id) it names every code
// as its _myuser view does, and it shows the library's own profile: its item and patron types,
// branches and locations, and Carrel's item statuses.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadDemoIfEmpty } from '../../src/demo/load.ts';
import type { Profile } from '../../src/library/profile.ts';
import { MARC_LANGUAGES, marcLanguageName, OBSOLETE_MARC_LANGUAGES } from '../../src/marc/languages.ts';
import { FIXED_FIELDS } from '../../src/shared/fixed-fields.ts';
import { SqlService } from '../../src/sql/service.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { cols, columnsOf } from '../helpers/sierra-columns.ts';

// Sierra's columns of each view, in order.
const EXPECTED: Record<string, string[]> = {
  itype_property_name: cols('itype_property_id i, iii_language_id i, name v'),
  ptype_property: cols(`id i, value s, tagging_allowed f, display_order i, is_force_right_result_exact_allowed f,
    is_comment_auto_approved f, ptype_category_id i`),
  ptype_property_name: cols('ptype_id i, description v, iii_language_id i'),
  item_status_property: cols('id b, code c, display_order i'),
  item_status_property_name: cols('item_status_property_id b, iii_language_id i, name v'),
  branch: cols('id i, address v, email_source v, email_reply_to v, address_latitude v, address_longitude v, code_num i'),
  branch_name: cols('branch_id i, name v, iii_language_id i'),
  branch_myuser: cols('code i, address v, email_source v, email_reply_to v, address_latitude v, address_longitude v, name v'),
  statistic_group: cols('id i, code_num i, location_code v'),
  statistic_group_name: cols('statistic_group_id i, iii_language_id i, name v'),
  language_property: cols('id i, code v, display_order i, is_public f'),
  language_property_name: cols('language_property_id i, iii_language_id i, name v'),
  country_property: cols('id i, code v, display_order i'),
  country_property_name: cols('country_property_id i, iii_language_id i, name v'),
  bib_level_property: cols('id i, code v, display_order i'),
  bib_level_property_name: cols('bib_level_property_id i, iii_language_id i, name v'),
  material_property_name: cols('material_property_id i, iii_language_id i, name v, facet_text v'),
  user_defined_category: cols('id i, code v'),
  user_defined_property: cols('id i, user_defined_category_id i, code v, display_order i'),
  user_defined_property_name: cols('user_defined_property_id i, iii_language_id i, name v'),
  iii_language: cols('id i, code v, description v, staff_enabled f, public_enabled f, display_order i, is_right_to_left f'),
  fixfld_type_myuser: cols('code v, display_order i, name v'),
};
// Statistics groups: Carrel keeps none.
const EMPTY = ['statistic_group', 'statistic_group_name'];

// Each code table read through its base and name views joined by id, and through its _myuser view:
// the same codes with the same names (and display order where both have one).
const AGREE: Record<string, { byId: string; myuser: string }> = {
  itype: {
    byId: `select p.code_num as code, p.display_order, n.name from itype_property p
           join itype_property_name n on n.itype_property_id = p.id and n.iii_language_id = 1`,
    myuser: 'select code, display_order, name from itype_property_myuser',
  },
  ptype: {
    byId: `select p.value as code, p.display_order, n.description as name from ptype_property p
           join ptype_property_name n on n.ptype_id = p.id and n.iii_language_id = 1`,
    myuser: 'select value as code, display_order, name from ptype_property_myuser',
  },
  'item status': {
    byId: `select p.code, p.display_order, n.name from item_status_property p
           join item_status_property_name n on n.item_status_property_id = p.id and n.iii_language_id = 1`,
    myuser: 'select code, display_order, name from item_status_property_myuser',
  },
  branch: {
    byId: `select b.code_num as code, b.address, n.name from branch b join branch_name n on n.branch_id = b.id and n.iii_language_id = 1`,
    myuser: 'select code, address, name from branch_myuser',
  },
  'statistic group': {
    byId: `select g.code_num as code, g.location_code, n.name from statistic_group g
           join statistic_group_name n on n.statistic_group_id = g.id and n.iii_language_id = 1`,
    myuser: 'select code, location_code, name from statistic_group_myuser',
  },
  language: {
    byId: `select p.code, p.display_order, p.is_public, n.name from language_property p
           join language_property_name n on n.language_property_id = p.id and n.iii_language_id = 1`,
    myuser: 'select code, display_order, is_public, name from language_property_myuser',
  },
  country: {
    byId: `select p.code, p.display_order, n.name from country_property p
           join country_property_name n on n.country_property_id = p.id and n.iii_language_id = 1`,
    myuser: 'select code, display_order, name from country_property_myuser',
  },
  'bib level': {
    byId: `select p.code, p.display_order, n.name from bib_level_property p
           join bib_level_property_name n on n.bib_level_property_id = p.id and n.iii_language_id = 1`,
    myuser: 'select code, display_order, name from bib_level_property_myuser',
  },
  material: {
    byId: `select p.code, p.display_order, p.is_public, n.name from material_property p
           join material_property_name n on n.material_property_id = p.id and n.iii_language_id = 1`,
    myuser: 'select code, display_order, is_public, name from material_property_myuser',
  },
  'user-defined': {
    byId: `select c.code || ' ' || p.code as code, p.display_order, n.name from user_defined_category c
           join user_defined_property p on p.user_defined_category_id = c.id
           join user_defined_property_name n on n.user_defined_property_id = p.id and n.iii_language_id = 1`,
    myuser: ['bcode1', 'bcode2', 'bcode3', 'pcode1', 'pcode2', 'pcode3', 'scode1', 'scode2', 'scode3', 'scode4']
      .map((c) => `select '${c} ' || code as code, display_order, name from user_defined_${c}_myuser`)
      .join(' union all '),
  },
};

// The library: the demo's two branches and the starter's types, and more of its own.
const RIVERSIDE = {
  id: 7,
  name: 'Riverside',
  address: '2 River Rd',
  institution: null,
  locations: [{ code: 'riv', name: 'Riverside', pickup: true, holdShelfDays: 5, openDays: ['mon' as const], closedDates: [] }],
};

describe(`sierra_view code names on ${ENGINE}`, () => {
  let t: TestApp;
  let sql: SqlService;
  let profile: Profile;
  before(async () => {
    t = await createTestApp();
    await loadDemoIfEmpty(t.testDb.db);
    sql = new SqlService(t.testDb.db, { statementTimeoutMs: 30_000, rowCap: 100_000 });
    const current = await t.services.library.profile();
    const result = await t.services.library.apply({
      ...current,
      branches: [...current.branches, RIVERSIDE],
      itemTypes: [
        ...current.itemTypes.map((type) => (type.code === 'dvd' ? { ...type, name: 'DVD video' } : type)),
        { code: 'reference-only-items', name: 'Reference', sip2MediaType: null },
      ],
      patronTypes: [...current.patronTypes, { code: 9, name: 'Visitor' }],
    });
    assert.ok(result.applied);
    profile = await t.services.library.profile();
  });
  after(() => t.close());

  /** Rows as objects, as the reader role reads them through the SQL door. */
  const rows = async (statement: string) => {
    const answer = await sql.run(statement);
    return answer.rows.map((row) => Object.fromEntries(row.map((v, i) => [answer.columns[i]!, v])));
  };
  const byCode = (list: Record<string, unknown>[]) => [...list].sort((a, b) => (String(a.code) < String(b.code) ? -1 : 1));

  it("answers every view with Sierra's columns, in Sierra's order, with Sierra's types, to the reader role", async () => {
    for (const [view, expected] of Object.entries(EXPECTED)) {
      assert.deepEqual(await columnsOf(rows, view), expected, view);
      // Run as the reader role: it may read the view, and gets Sierra's column names.
      const answer = await sql.run(`select * from ${view}`);
      assert.deepEqual(
        answer.columns,
        expected.map((c) => c.split(' ')[0]),
        view,
      );
      assert.equal(answer.rows.length > 0, !EMPTY.includes(view), `${view} has rows`);
    }
  });

  it('names every code by id as its _myuser view names it by code', async () => {
    for (const [table, { byId, myuser }] of Object.entries(AGREE)) {
      const joined = byCode(await rows(byId));
      const named = byCode(await rows(myuser));
      assert.deepEqual(joined, named, table);
      assert.equal(new Set(named.map((r) => String(r.code))).size, named.length, `${table}: each code once`);
    }
    // Ids are unique and every name row has its property row: nothing is lost in the joins above.
    for (const [base, name, key] of [
      ['itype_property', 'itype_property_name', 'itype_property_id'],
      ['ptype_property', 'ptype_property_name', 'ptype_id'],
      ['item_status_property', 'item_status_property_name', 'item_status_property_id'],
      ['branch', 'branch_name', 'branch_id'],
      ['language_property', 'language_property_name', 'language_property_id'],
      ['country_property', 'country_property_name', 'country_property_id'],
      ['bib_level_property', 'bib_level_property_name', 'bib_level_property_id'],
      ['material_property', 'material_property_name', 'material_property_id'],
      ['user_defined_property', 'user_defined_property_name', 'user_defined_property_id'],
    ] as const) {
      const [counts] = await rows(`
        select (select count(*) from ${base})::integer as base, (select count(distinct id) from ${base})::integer as ids,
          (select count(*) from ${name})::integer as names,
          (select count(*) from ${name} n join ${base} b on b.id = n.${key})::integer as joined`);
      assert.ok(Number(counts!.base) > 0, base);
      assert.deepEqual(counts, { base: counts!.base, ids: counts!.base, names: counts!.base, joined: counts!.base }, name);
    }
    // Every name is in a language iii_language lists: English, 1.
    const languages = await rows(`
      select distinct n.iii_language_id, l.code, l.description from (
        select iii_language_id from itype_property_name union all select iii_language_id from ptype_property_name
        union all select iii_language_id from item_status_property_name union all select iii_language_id from branch_name
        union all select iii_language_id from language_property_name union all select iii_language_id from country_property_name
        union all select iii_language_id from bib_level_property_name union all select iii_language_id from material_property_name
        union all select iii_language_id from user_defined_property_name union all select iii_language_id from location_name
      ) n left join iii_language l on l.id = n.iii_language_id`);
    assert.deepEqual(languages, [{ iii_language_id: 1, code: 'eng', description: 'English' }]);
  });

  it('names every MARC language code, discontinued ones too, as src/marc/languages.ts and the REST API do', async () => {
    const named = await rows(`
      select p.code, p.display_order, n.name from language_property p
      join language_property_name n on n.language_property_id = p.id and n.iii_language_id = 1 order by p.display_order`);
    const codes = [...Object.keys(MARC_LANGUAGES), ...Object.keys(OBSOLETE_MARC_LANGUAGES)].sort();
    assert.deepEqual(
      named,
      codes.map((code, i) => ({ code, display_order: i, name: marcLanguageName(code) })),
    );
    const [tagalog] = await rows(`select code, name from language_property_myuser where code = 'tag'`);
    assert.deepEqual(tagalog, { code: 'tag', name: 'Tagalog' }, 'a discontinued code, by its name');
  });

  it("shows the library profile's item types, patron types and branches, and Carrel's item statuses", async () => {
    // Item types: by their number, the profile's names (a renamed one as renamed).
    const itemTypes = await t.testDb.db.query<{ code: string; code_num: number }>('select code, code_num from item_types');
    const itypes = await rows(`
      select p.code_num, n.name from itype_property p join itype_property_name n on n.itype_property_id = p.id order by p.code_num`);
    assert.deepEqual(
      itypes,
      profile.itemTypes
        .map((type) => ({ code_num: itemTypes.find((row) => row.code === type.code)!.code_num, name: type.name }))
        .sort((a, b) => a.code_num - b.code_num),
    );
    assert.ok(itypes.some((type) => type.name === 'DVD video'));
    assert.ok(itypes.some((type) => type.name === 'Reference'));

    // Patron types: value and description, id the type + 1 (reports join ptype_id = ptype_code + 1).
    const ptypes = await rows(`
      select p.value, n.description, p.id = p.value + 1 as sierra_id from ptype_property p join ptype_property_name n on n.ptype_id = p.id
      order by p.value`);
    assert.deepEqual(
      ptypes,
      [...profile.patronTypes]
        .sort((a, b) => a.code - b.code)
        .map((type) => ({ value: type.code, description: type.name, sierra_id: true })),
    );
    assert.ok(ptypes.some((type) => type.value === 9 && type.description === 'Visitor'));

    // Branches: number, name and address; each location's branch_code_num finds its branch.
    const branches = await rows(`
      select b.code_num, n.name, b.address from branch b join branch_name n on n.branch_id = b.id order by b.code_num`);
    assert.deepEqual(
      branches,
      [...profile.branches].sort((a, b) => a.id - b.id).map((b) => ({ code_num: b.id, name: b.name, address: b.address })),
    );
    assert.ok(branches.some((b) => b.code_num === 7 && b.name === 'Riverside' && b.address === '2 River Rd'));
    const locations = await rows(`
      select l.code, n.name as branch from location l join branch b on b.code_num = l.branch_code_num join branch_name n on n.branch_id = b.id
      order by l.code`);
    assert.deepEqual(
      locations,
      profile.branches
        .flatMap((b) => b.locations.map((l) => ({ code: l.code, branch: b.name })))
        .sort((a, b) => (a.code < b.code ? -1 : 1)),
    );
    const [mine] = await rows(
      `select m.name from location_myuser l join branch_myuser m on m.code = l.branch_code_num where l.code = 'riv'`,
    );
    assert.deepEqual(mine, { name: 'Riverside' });

    // Item statuses: Carrel's, code and name, and every item's status has one.
    const statuses = await t.testDb.db.query<{ code: string; display: string }>('select code, display from item_statuses');
    const named = await rows(`
      select p.code, n.name from item_status_property p join item_status_property_name n on n.item_status_property_id = p.id`);
    assert.deepEqual(byCode(named), byCode(statuses.map((s) => ({ code: s.code, name: s.display }))));
    const [items] = await rows(`
      select count(*)::integer as items, count(n.name)::integer as named from item_record i
      left join item_status_property p on p.code = i.item_status_code
      left join item_status_property_name n on n.item_status_property_id = p.id`);
    assert.ok(Number(items!.items) > 10);
    assert.equal(items!.named, items!.items);
  });

  it('answers reports written the way Sierra libraries write them', async () => {
    const visitor = await t.services.patrons.create({ names: ['Visitor, Vera'], barcodes: ['PV-0009'], patronType: 9 });
    // Patrons by type name, joined as published reports join them.
    const byType = await rows(`
      select n.description, count(*)::integer as patrons from patron_record p
      join ptype_property t on t.value = p.ptype_code join ptype_property_name n on n.ptype_id = t.id
      group by n.description order by n.description collate "C"`);
    const direct = await t.testDb.db.query<{ description: string; n: number }>(`
      select t.description, count(*)::integer as n from patrons p join patron_types t on t.code = p.patron_type
      where p.deleted_date is null group by t.description order by t.description collate "C"`);
    assert.deepEqual(
      byType,
      direct.map((d) => ({ description: d.description, patrons: d.n })),
    );
    const [vera] = await rows(`
      select n.description from patron_view p join ptype_property_name n on n.ptype_id = p.ptype_code + 1
      where p.id = reckey2id('p${visitor}')`);
    assert.deepEqual(vera, { description: 'Visitor' });

    // A bib's codes by name through the user-defined tables, as such reports find them.
    const [codes] = await rows(`
      select count(*)::integer as bibs, count(n2.name)::integer as mat, count(n3.name)::integer as bcode3 from bib_record b
      join user_defined_category c2 on c2.code = 'bcode2'
      left join user_defined_property p2 on p2.user_defined_category_id = c2.id and p2.code = b.bcode2::varchar
      left join user_defined_property_name n2 on n2.user_defined_property_id = p2.id and n2.iii_language_id = 1
      join user_defined_category c3 on c3.code = 'bcode3'
      left join user_defined_property p3 on p3.user_defined_category_id = c3.id and p3.code = b.bcode3::varchar
      left join user_defined_property_name n3 on n3.user_defined_property_id = p3.id and n3.iii_language_id = 1`);
    assert.ok(Number(codes!.bibs) > 10);
    assert.deepEqual(codes, { bibs: codes!.bibs, mat: codes!.bibs, bcode3: codes!.bibs });

    // Languages, countries, bib levels and material types of the catalogue, by name.
    const [bibs] = await rows(`
      select count(*)::integer as bibs, count(ln.name)::integer as languages, count(mn.name)::integer as materials,
        count(bn.name)::integer as levels
      from bib_record_property p join bib_record b on b.id = p.bib_record_id
      left join language_property l on l.code = b.language_code left join language_property_name ln on ln.language_property_id = l.id
      left join material_property m on m.code = p.material_code left join material_property_name mn on mn.material_property_id = m.id
      left join bib_level_property v on v.code = p.bib_level_code left join bib_level_property_name bn on bn.bib_level_property_id = v.id`);
    const have = await t.testDb.db.query<{ lang: number; mat: number; level: number }>(`
      select count(lang)::integer as lang, count(material_type)::integer as mat, count(bib_level)::integer as level
      from bibs where deleted_date is null`);
    assert.deepEqual(bibs, { bibs: bibs!.bibs, languages: have[0]!.lang, materials: have[0]!.mat, levels: have[0]!.level });
    assert.ok(Number(bibs.languages) > 0 && Number(bibs.materials) > 0);
    const [country] = await rows(`
      select n.name from country_property c join country_property_name n on n.country_property_id = c.id where c.code = 'xxk'`);
    assert.deepEqual(country, { name: 'United Kingdom' });
  });

  it('lists the fixed-field types Carrel gives, by number, with their short labels', async () => {
    const listed = await rows('select code, display_order, name from fixfld_type_myuser order by code::integer');
    const defined = new Map<number, string>();
    for (const fields of Object.values(FIXED_FIELDS))
      for (const [number, def] of Object.entries(fields)) defined.set(Number(number), def.short);
    assert.deepEqual(
      listed,
      [...defined.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([number, short]) => ({ code: String(number), display_order: number - 1, name: short })),
    );
  });

  it("gives each _myuser code its category's id, joining user_defined_category and user_defined_property as Sierra's do", async () => {
    for (const category of ['bcode1', 'bcode2', 'bcode3', 'pcode1', 'pcode2', 'pcode3', 'scode1', 'scode2', 'scode3', 'scode4']) {
      const view = `user_defined_${category}_myuser`;
      // As reports join them: the _myuser row's category id finds its category, and with its code
      // its user_defined_property row, whose name (English) is the _myuser row's.
      const joined = await rows(`
        select m.code, c.code as category, p.display_order, n.name from ${view} m
        left join user_defined_category c on c.id = m.user_defined_category_id
        left join user_defined_property p on p.user_defined_category_id = m.user_defined_category_id and p.code = m.code
        left join user_defined_property_name n on n.user_defined_property_id = p.id and n.iii_language_id = 1`);
      const named = await rows(`select code, display_order, name from ${view}`);
      assert.ok(named.length > 0, view);
      assert.deepEqual(
        byCode(joined),
        byCode(named.map((row) => ({ code: row.code, category, display_order: row.display_order, name: row.name }))),
        view,
      );
      // And the other way: the category's properties by id are the _myuser view's rows, ids and all.
      const byId = await rows(`
        select p.user_defined_category_id, p.code, p.display_order, n.name from user_defined_category c
        join user_defined_property p on p.user_defined_category_id = c.id
        join user_defined_property_name n on n.user_defined_property_id = p.id and n.iii_language_id = 1
        where c.code = '${category}'`);
      const mine = await rows(`select user_defined_category_id, code, display_order, name from ${view}`);
      assert.deepEqual(byCode(mine), byCode(byId), view);
    }
  });
});
