// Sierra's JSON queries (issue 19): POST /bibs/query, /items/query, /patrons/query over real MARC
// records, as published clients send them (VuFind's password recovery, DCB's lookups), each
// answer checked against the records read here in JavaScript.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importFiles } from '../../src/bibs/import.ts';
import type { MarcInJson } from '../../src/marc/marc-in-json.ts';
import { assertRefused, caller, create, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addItem, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { parseQuery } from '../../src/query/parse.ts';
import { querySql } from '../../src/query/repository.ts';
import { chunks } from '../helpers/shared-data.ts';
import { bearer } from '../helpers/tokens.ts';

interface Bib {
  id: string;
  marc: MarcInJson;
  material_type: string | null;
  created: string;
}

/** The text of each field with this tag: a control field's value, a data field's subfields (those given) joined by spaces. */
function fieldTexts(marc: MarcInJson, tags: string[], codes?: string): string[] {
  const out: string[] = [];
  for (const field of marc.fields) {
    for (const [tag, value] of Object.entries(field)) {
      if (!tags.includes(tag)) continue;
      if (typeof value === 'string') out.push(value);
      else
        out.push(
          value.subfields
            .flatMap((s) => Object.entries(s))
            .filter(([code]) => !codes || codes.includes(code))
            .map(([, text]) => text)
            .join(' '),
        );
    }
  }
  return out;
}

const q = (type: string, target: object, op: string, operands: unknown[]) => ({
  target: { record: { type }, ...target },
  expr: { op, operands },
});

describe(`JSON queries on ${ENGINE}`, () => {
  let t: TestApp;
  let api: Caller;
  let bibs: Bib[];
  before(async () => {
    t = await createTestApp();
    await setUpLibrary(t.testDb.db);
    for (const file of ['brkrtest.mrc', 'pride-and-prejudice-fixed.mrc'])
      await importFiles(t.testDb.db, [{ name: file, open: () => chunks(file) }]);
    bibs = await t.testDb.db.query<Bib>(
      `select id::text, marc, material_type, to_char(created_date at time zone 'UTC', 'YYYY-MM-DD') as created from bibs order by id`,
    );
    api = caller(t, await bearer(t, ['all']));
  });
  after(() => t.close());

  async function ids(resource: string, body: unknown, paging = 'offset=0&limit=2000'): Promise<string[]> {
    const res = await api.send('POST', `/v6/${resource}/query?${paging}`, body);
    assert.equal(res.statusCode, 200, `${JSON.stringify(body)}: ${res.body}`);
    const answer = res.json();
    assert.equal(answer.total, answer.entries.length);
    return answer.entries.map((e: { link: string }) => {
      assert.match(e.link, new RegExp(`/v6/${resource}/\\d+$`));
      return e.link.split('/').pop()!;
    });
  }

  it('a MARC field and subfield, a varField group, a fixed field: the bibs the records say', async () => {
    assert.ok(bibs.length > 5);
    const word = fieldTexts(bibs[0]!.marc, ['245'], 'a')[0]!
      .split(/\s+/)
      .find((w) => w.length > 4)!
      .toLowerCase();
    const byTitle = bibs.filter((b) => fieldTexts(b.marc, ['245'], 'a').some((v) => v.toLowerCase().includes(word))).map((b) => b.id);
    assert.ok(byTitle.length >= 1);
    assert.deepEqual(await ids('bibs', q('bib', { field: { marcTag: '245', subfields: 'a' } }, 'has', [word.toUpperCase(), ''])), byTitle);
    const titled = bibs
      .filter((b) => fieldTexts(b.marc, ['245', '246', '130', '240', '730', '740']).some((v) => v.toLowerCase().includes(word)))
      .map((b) => b.id);
    assert.deepEqual(await ids('bibs', q('bib', { field: { tag: 't' } }, 'has', [word])), titled);
    const none = bibs.filter((b) => !titled.includes(b.id)).map((b) => b.id);
    assert.deepEqual(await ids('bibs', q('bib', { field: { tag: 't' } }, 'all_fields_not_have', [word, ''])), none);
    const type = bibs[0]!.material_type!;
    assert.deepEqual(
      await ids('bibs', q('bib', { id: 30 }, 'equals', [type, ''])),
      bibs.filter((b) => b.material_type === type).map((b) => b.id),
    );
    assert.deepEqual(
      await ids('bibs', q('bib', { id: 30 }, 'not_equal', [type])),
      bibs.filter((b) => b.material_type !== type).map((b) => b.id),
    );
    const created = bibs[0]!.created;
    const [y, m, d] = created.split('-');
    assert.deepEqual(
      await ids('bibs', q('bib', { id: 83 }, 'between', [`${m}-${d}-${y}`, `${m}-${d}-${y}`])),
      bibs.map((b) => b.id),
    );
    assert.deepEqual(await ids('bibs', q('bib', { id: 83 }, 'less_than', [created])), []);
    assert.deepEqual(
      await ids('bibs', q('bib', { id: 83 }, 'equals', [created])),
      bibs.map((b) => b.id),
    );
    assert.deepEqual(
      await ids('bibs', q('bib', { id: 83 }, 'less_than_or_equal', [created])),
      bibs.map((b) => b.id),
    );
    const dayAfter = new Date(Date.parse(`${created}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    assert.deepEqual(await ids('bibs', q('bib', { id: 83 }, 'greater_than_or_equal', [dayAfter])), []);
    assert.deepEqual(await ids('bibs', q('bib', { id: 83 }, 'greater_than', [created])), []);
    assert.deepEqual(
      await ids('bibs', q('bib', { id: 83 }, 'starts_with', [created.slice(0, 4)])),
      bibs.map((b) => b.id),
    );
  });

  it('identifier fields (001, 020, 022, 035) are found through their index as the records say', async () => {
    const cases: [object, string[], string | undefined][] = [
      [{ marcTag: '001' }, ['001'], undefined],
      [{ marcTag: '001', subfields: 'a' }, ['001'], undefined],
      [{ marcTag: '020', subfields: 'a' }, ['020'], 'a'],
      [{ marcTag: '020' }, ['020'], undefined],
      [{ marcTag: '035', subfields: 'a' }, ['035'], 'a'],
      [{ tag: 'i' }, ['020', '022'], undefined],
      [{ tag: 'o' }, ['001'], undefined],
    ];
    const norm = (v: string) => v.trim().toLowerCase();
    let tried = 0;
    for (const [field, tags, codes] of cases) {
      const values = [...new Set(bibs.flatMap((b) => fieldTexts(b.marc, tags, codes)).filter((v) => v.trim()))].slice(0, 4);
      for (const value of values) {
        tried++;
        const want = bibs.filter((b) => fieldTexts(b.marc, tags, codes).some((v) => norm(v) === norm(value))).map((b) => b.id);
        // Spelt as a person types it: other case, spaces around.
        const typed = ` ${value.toUpperCase()} `;
        assert.deepEqual(await ids('bibs', q('bib', { field }, 'equals', [typed])), want, `${JSON.stringify(field)} = ${value}`);
        assert.deepEqual(
          await ids('bibs', q('bib', { field }, 'not_equal', [typed])),
          bibs.filter((b) => !want.includes(b.id)).map((b) => b.id),
        );
        assert.deepEqual(await ids('bibs', q('bib', { field }, 'in', ['no such value', value])), want);
      }
    }
    assert.ok(tried >= 10, `only ${tried} identifier values in the test records`);
    // Joined with other conditions: "and" narrows the keyed matches, "or" adds to them.
    const holder = bibs.find((b) => fieldTexts(b.marc, ['020'], 'a').length > 0)!;
    const key = fieldTexts(holder.marc, ['020'], 'a')[0]!;
    const byKey = q('bib', { field: { marcTag: '020', subfields: 'a' } }, 'equals', [key]);
    const keyed = bibs.filter((b) => fieldTexts(b.marc, ['020'], 'a').some((v) => norm(v) === norm(key))).map((b) => b.id);
    const other = bibs.find((b) => !keyed.includes(b.id))!;
    const byType = q('bib', { id: 30 }, 'equals', [holder.material_type!]);
    assert.deepEqual(
      await ids('bibs', { queries: [byKey, 'and', byType] }),
      keyed.filter((id) => bibs.find((b) => b.id === id)!.material_type === holder.material_type),
    );
    assert.deepEqual(await ids('bibs', { queries: [byKey, 'and', q('bib', { id: 81 }, 'equals', [other.id])] }), []);
    assert.deepEqual(
      await ids('bibs', { queries: [byKey, 'or', q('bib', { id: 81 }, 'equals', [other.id])] }),
      [...keyed, other.id].sort(),
    );
    assert.deepEqual(
      await ids('bibs', {
        queries: [
          q('bib', { field: { marcTag: '020', subfields: 'a' } }, 'equals', ['no such isbn']),
          'or',
          q('bib', { id: 81 }, 'equals', [other.id]),
        ],
      }),
      [other.id],
    );
    // A part of a value is not the value.
    const isbn = bibs.flatMap((b) => fieldTexts(b.marc, ['020'])).find((v) => v.includes(' '))!;
    assert.ok(isbn, 'a 020 with more than one subfield');
    assert.deepEqual(
      await ids('bibs', q('bib', { field: { marcTag: '020' } }, 'equals', [isbn.split(' ')[0]!])),
      bibs.filter((b) => fieldTexts(b.marc, ['020']).some((v) => norm(v) === norm(isbn.split(' ')[0]!))).map((b) => b.id),
    );
    if (ENGINE === 'postgres') {
      // The index serves the query as the compiler writes it (the planner is kept off the table scan
      // a table this small would invite).
      const { sql, params } = querySql(
        'bib',
        parseQuery(q('bib', { field: { marcTag: '020', subfields: 'a' } }, 'equals', [isbn]), t.config.queryLimits),
        50,
        0,
      );
      const plan = await t.testDb.db.transaction(async (tx) => {
        await tx.exec('set local enable_seqscan = off');
        return tx.query<{ 'QUERY PLAN': string }>(`explain ${sql}`, params);
      });
      assert.match(plan.map((r) => r['QUERY PLAN']).join('\n'), /bibs_marc_keys/);
    }
  });

  it('compound queries and expressions, a bib query on its items, paging', async () => {
    const [first, second] = bibs;
    const item = await addItem(t.testDb.db, first!.id, 'br', '-', 'Q-1');
    const idQuery = (id: string) => q('bib', { id: 81 }, 'equals', [id]);
    assert.deepEqual(await ids('bibs', { queries: [idQuery(first!.id), 'or', idQuery(second!.id)] }), [first!.id, second!.id]);
    assert.deepEqual(await ids('bibs', { queries: [idQuery(first!.id), 'and', idQuery(second!.id)] }), []);
    assert.deepEqual(
      await ids('bibs', {
        target: { record: { type: 'bib' }, id: 81 },
        expr: [{ op: 'equals', operands: [first!.id] }, 'or', { op: 'equals', operands: [second!.id] }],
      }),
      [first!.id, second!.id],
    );
    assert.deepEqual(await ids('bibs', q('item', { id: 79 }, 'equals', ['br'])), [first!.id]);
    assert.deepEqual(await ids('items', q('bib', { id: 81 }, 'equals', [first!.id])), [item]);
    const all = bibs.map((b) => b.id);
    const everything = q('bib', { id: 81 }, 'greater_than', ['0']);
    assert.deepEqual(await ids('bibs', everything, 'offset=2&limit=3'), all.slice(2, 5));
    assert.deepEqual(await ids('bibs', q('bib', { id: 81 }, 'in', [all[3], all[1], '1'])), [all[1], all[3]]);
  });

  it('patron and item lookups as VuFind and DCB send them', async () => {
    const patron = await create(api, '/v6/patrons', {
      names: ['Finder, Fay'],
      barcodes: ['29000099'],
      emails: ['fay@example.org'],
      uniqueIds: ['fay@east'],
    });
    await create(api, '/v6/patrons', { names: ['Other, Oz'], barcodes: ['29000098'], emails: ['fay@example.org'] });
    // VuFind's password recovery: barcode and email, offset=0&limit=1 in the path.
    const recovery = {
      queries: [
        q('patron', { field: { tag: 'b' } }, 'equals', ['29000099']),
        'and',
        q('patron', { field: { tag: 'z' } }, 'equals', ['FAY@example.org']),
      ],
    };
    assert.deepEqual(await ids('patrons', recovery, 'offset=0&limit=1'), [patron]);
    // DCB: one query object, a singular operand.
    const dcb = { target: { record: { type: 'patron' }, field: { tag: 'u' } }, expr: { op: 'equals', operand: 'fay@east' } };
    assert.deepEqual(await ids('patrons', dcb, 'offset=0&limit=10'), [patron]);
    const item = await addItem(t.testDb.db, bibs[2]!.id, 'mn', '-', 'DCB-7');
    const byBarcode = { target: { record: { type: 'item' }, field: { tag: 'b' } }, expr: { op: 'equals', operand: 'DCB-7' } };
    assert.deepEqual(await ids('items', byBarcode, 'offset=0&limit=1'), [item]);
  });

  it('refuses a query it cannot read, naming where, with 400 code 108', async () => {
    for (const [resource, body, where] of [
      ['bibs', q('bib', { id: 30 }, 'resembles', ['a']), /expr\.op/],
      ['bibs', q('bib', { id: 30 }, 'between', ['a']), /expr\.operands/],
      ['bibs', q('bib', { id: 999 }, 'equals', ['a']), /fixed field 999/],
      ['bibs', q('bib', { id: 28 }, 'equals', ['31-31-2020']), /not a date/],
      ['bibs', q('bib', { id: 28 }, 'equals', ['01-01-0000']), /not a date/],
      ['bibs', q('bib', { id: 81 }, 'equals', ['ten']), /not a number/],
      ['patrons', q('patron', { field: { marcTag: '245' } }, 'equals', ['x']), /MARC/],
      ['patrons', q('bib', { id: 30 }, 'equals', ['a']), /cannot search bib/],
      ['bibs', { queries: [q('bib', { id: 30 }, 'equals', ['a']), 'nor', q('bib', { id: 30 }, 'equals', ['b'])] }, /queries\[1\]/],
      ['bibs', { target: { record: { type: 'order' }, id: 1 }, expr: { op: 'equals', operands: ['1'] } }, /record\.type/],
      ['bibs', ['title=war'], /query/],
    ] as const) {
      const res = await api.send('POST', `/v6/${resource}/query?offset=0&limit=10`, body);
      assertRefused(res, 400, 108);
      assert.match(res.json().description, where, JSON.stringify(body));
    }
  });
});
