// The keys JSON queries find 001, 020, 022 and 035 by (migration 0076): written by the import from
// its own reading of each record, they must be those migration 0028 read from the stored MARC.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { deriveBib } from '../../src/bibs/derive.ts';
import { importFiles } from '../../src/bibs/import.ts';
import { listMigrations, migrate } from '../../src/db/migrate.ts';
import { openPGlite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import type { Queryable } from '../../src/db/types.ts';
import { fromMarcInJson } from '../../src/marc/marc-in-json.ts';
import { createEmptyPgDatabase, createTestDb, ENGINE, PG_URL, type TestDb } from '../helpers/db.ts';
import { chunks, MARC_DIR } from '../helpers/shared-data.ts';

/** Migration 0028's carrel_marc_keys(marc), as it was: the keys of a record read from its MARC. */
const KEYS_0028 = `coalesce((
  select array_agg(distinct k.key order by k.key)
  from jsonb_array_elements((b.marc::jsonb) -> 'fields') fe, jsonb_each(fe) f,
    lateral (
      select f.key || ':' || lower(trim(f.value #>> '{}')) as key where jsonb_typeof(f.value) = 'string'
      union all
      select f.key || 'a:' || lower(trim(string_agg(s.value, ' '))) from jsonb_array_elements(f.value -> 'subfields') sf, jsonb_each_text(sf) s
        where jsonb_typeof(f.value) = 'object' and s.key = 'a' having count(*) > 0
      union all
      select f.key || ':' || lower(trim(string_agg(s.value, ' '))) from jsonb_array_elements(f.value -> 'subfields') sf, jsonb_each_text(sf) s
        where jsonb_typeof(f.value) = 'object' having count(*) > 0
    ) k
  where f.key in ('001', '020', '022', '035')), '{}')`;

const field = (tag: string, ...subfields: [string, string][]) => ({
  [tag]: { ind1: ' ', ind2: ' ', subfields: subfields.map(([code, value]) => ({ [code]: value })) },
});
const title = (text: string) => field('245', ['a', text]);

/** Records whose keys need care: spaces and a tab around values, letters beyond ASCII, several $a, a field without $a. */
const EDGE_RECORDS = [
  [{ '001': '  Ed-1 ' }, { '003': 'XX' }, field('020', ['a', ' 978-0-ÉTÉ '], ['q', '(Pbk.) ']), field('020', ['z', 'ZZ9'])],
  [{ '001': 'Ed-2\t' }, field('022', ['a', '1234-5678'], ['a', 'ΣΟΦΙΑΣ ']), field('035', ['a', '(OCoLC)Ärger  '], ['9', 'X'])],
  [{ '001': 'Ed-3' }, field('035', ['b', 'only b']), field('035', ['a', 'Δ'], ['a', ' İstanbul'])],
].map((fields, i) => ({ leader: '00000nam a2200000 a 4500', fields: [...fields, title(`Edge ${i + 1}`)] }));

/** Bibs (not deleted) whose indexed keys are not those 0028 read from their MARC: their ids and both sets, for the message. */
async function differing(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ id: string; now: string[]; then: string[] }>(
    `select b.id::text as id, carrel_marc_keys(b.marc_keys) as now, ${KEYS_0028} as then from bibs b
     where b.deleted_date is null and carrel_marc_keys(b.marc_keys) is distinct from ${KEYS_0028}`,
  );
  return rows.slice(0, 5).map((r) => `${r.id}: ${JSON.stringify(r.now)} against ${JSON.stringify(r.then)}`);
}

describe(`the JSON queries' MARC keys on ${ENGINE}`, () => {
  let t: TestDb;
  let dir: string;
  before(async () => {
    t = await createTestDb();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-marc-keys-'));
  });
  after(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await t.drop();
  });

  it('an import writes the keys migration 0028 read from the MARC, for every shared record and the edge cases', async () => {
    const edge = path.join(dir, 'edge.json');
    fs.writeFileSync(edge, JSON.stringify(EDGE_RECORDS));
    const names = fs.readdirSync(MARC_DIR).filter((name) => /\.(mrc|dat|marc|xml|json)$/.test(name));
    await importFiles(t.db, [
      ...names.map((name) => ({ name, open: () => chunks(name, 64 * 1024) })),
      { name: 'edge.json', open: () => fs.createReadStream(edge) },
    ]);
    const [counted] = await t.db.query<{ bibs: number; keyed: number }>(
      "select count(*)::int as bibs, count(*) filter (where marc_keys <> '{}')::int as keyed from bibs where deleted_date is null",
    );
    assert.ok(counted!.keyed >= 300, `only ${counted!.keyed} of ${counted!.bibs} bibs have keys`);
    const wrong = await differing(t.db);
    assert.ok(wrong.length === 0, `keys unlike 0028's:\n${wrong.join('\n')}`);
    const [ed1] = await t.db.query<{ keys: string[] }>(
      "select carrel_marc_keys(marc_keys) as keys from bibs where control_number = 'Ed-1' and deleted_date is null",
    );
    assert.ok(ed1?.keys.includes('020a:978-0-été'), `Ed-1's keys: ${JSON.stringify(ed1?.keys)}`);
  });
});

describe(`upgrading to 0076 on ${ENGINE}`, () => {
  it("fills each bib's keys as the import would write them, in the same order", async () => {
    const empty = PG_URL ? await createEmptyPgDatabase() : undefined;
    const db = empty ? openPostgres(empty.url, { max: 2, connectTimeoutSec: 5 }) : await openPGlite({});
    try {
      const all = listMigrations();
      await migrate(
        db,
        all.filter((m) => m.version < 76),
      );
      const ids: string[] = [];
      for (const marc of EDGE_RECORDS) {
        const [row] = await db.query<{ id: string }>(
          'insert into bibs (marc, created_date, updated_date) values ($1::text::json, now(), now()) returning id::text',
          [JSON.stringify(marc)],
        );
        ids.push(row!.id);
      }
      await migrate(db, all);
      const rows = await db.query<{ id: string; marc_keys: string[] }>('select id::text, marc_keys from bibs order by id');
      // In the same order too: a bib's columns are compared as they are when its record is loaded again.
      assert.deepEqual(
        rows.map((r) => [r.id, r.marc_keys]),
        EDGE_RECORDS.map((marc, i) => [ids[i], deriveBib(fromMarcInJson(marc)).marcKeys]),
      );
      assert.deepEqual(await differing(db), []);
    } finally {
      await db.close();
      await empty?.drop();
    }
  });
});
