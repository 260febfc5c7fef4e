// The catalogue's references are checked per statement (migration 0013), not by foreign keys:
// they must refuse what a foreign key refuses, on both engines, and hold against a concurrent
// delete on PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { copyText } from '../../src/db/copy-text.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';

/** The statement's error, with its SQLSTATE: PGlite and postgres.js both give `code`. */
async function refused(run: () => Promise<unknown>): Promise<{ code: string; message: string; detail?: string }> {
  try {
    await run();
  } catch (error) {
    return error as { code: string; message: string; detail?: string };
  }
  assert.fail('the statement was not refused');
}

describe(`catalogue references on ${ENGINE}`, () => {
  let t: TestDb;
  let bib: string;
  let item: string;
  before(async () => {
    t = await createTestDb();
    await t.db.exec(`insert into branches (name) values ('Main');
      insert into locations (code, name, branch_id) select 'main', 'Main stacks', min(id) from branches;
      insert into locations (code, name, branch_id) select 'spare', 'Spare room', min(id) from branches;`);
    bib = (
      await t.db.query<{ id: string }>(
        "insert into bibs (material_type, created_date, updated_date) values ('a', now(), now()) returning id::text",
      )
    )[0]!.id;
    item = (
      await t.db.query<{ id: string }>(
        "insert into items (location_code, status, created_date, updated_date) values ('main', '-', now(), now()) returning id::text",
      )
    )[0]!.id;
    await t.db.query('insert into item_bibs (item_id, bib_id) values ($1, $2)', [item, bib]);
  });
  after(() => t.drop());

  it('refuses a bib, an item or a link naming what does not exist, with SQLSTATE 23503', async () => {
    const cases: [string, unknown[], string][] = [
      ["insert into bibs (material_type, created_date, updated_date) values ('zz', now(), now())", [], 'Key (material_type)=(zz)'],
      ["insert into items (status, created_date, updated_date) values ('?', now(), now())", [], 'Key (status)=(?)'],
      ["insert into items (location_code, created_date, updated_date) values ('attic', now(), now())", [], 'Key (location_code)=(attic)'],
      ['insert into item_bibs (item_id, bib_id) values ($1, 987654321)', [item], 'Key (bib_id)=(987654321)'],
      ['insert into item_bibs (item_id, bib_id) values (987654321, $1)', [bib], 'Key (item_id)=(987654321)'],
      ["update items set status = '?' where id = $1", [item], 'Key (status)=(?)'],
      ["update bibs set material_type = 'zz' where id = $1", [bib], 'Key (material_type)=(zz)'],
    ];
    for (const [sql, params, detail] of cases) {
      const error = await refused(() => t.db.query(sql, params));
      assert.equal(error.code, '23503', sql);
      assert.match(error.detail ?? '', new RegExp(detail.replace(/[()?]/g, '\\$&')), sql);
    }
    assert.equal((await t.db.query("select 1 from items where status = '?'")).length, 0, 'nothing refused was kept');
  });

  it('refuses the whole COPY when one row of many names a missing bib', async () => {
    const before = (await t.db.query<{ n: number }>('select count(*)::int as n from item_bibs'))[0]!.n;
    const error = await refused(() =>
      t.db.transaction(async (tx) => {
        const ids = (await tx.query<{ id: string }>("select nextval('item_ids')::text as id from generate_series(1, 3)")).map((r) => r.id);
        await tx.copyFrom!(
          'items',
          ['id', 'status', 'created_date', 'updated_date'],
          copyText(ids.map((id) => [id, '-', new Date(), new Date()])),
        );
        await tx.copyFrom!(
          'item_bibs',
          ['item_id', 'bib_id'],
          copyText([
            [ids[0], bib],
            [ids[1], bib],
            [ids[2], '987654321'],
          ]),
        );
      }),
    );
    assert.equal(error.code, '23503');
    assert.equal((await t.db.query<{ n: number }>('select count(*)::int as n from item_bibs'))[0]!.n, before);
  });

  it('accepts what exists, nulls where a column may be empty, and a statement of several rows', async () => {
    await t.db.query(
      "insert into items (location_code, status, created_date, updated_date) values (null, 'm', now(), now()), ('spare', '-', now(), now())",
    );
    await t.db.query("insert into bibs (material_type, created_date, updated_date) values (null, now(), now()), ('g', now(), now())");
  });

  it('refuses to delete or rename a code, bib or item still named, and lets an unused one go', async () => {
    const cases: [string, unknown[]][] = [
      ["delete from locations where code = 'main'", []],
      ["update locations set code = 'mn' where code = 'main'", []],
      ["delete from item_statuses where code = '-'", []],
      ["delete from material_types where code = 'a'", []],
      ['delete from bibs where id = $1', [bib]],
      ['delete from items where id = $1', [item]],
    ];
    for (const [sql, params] of cases) assert.equal((await refused(() => t.db.query(sql, params))).code, '23503', sql);
    await t.db.query("update locations set name = 'Main stacks, first floor' where code = 'main'");
    await t.db.exec("insert into locations (code, name, branch_id) select 'tmp', 'Temporary', min(id) from branches");
    await t.db.query("update locations set code = 'tmp2' where code = 'tmp'");
    await t.db.query("delete from locations where code = 'tmp2'");
    await t.db.query("delete from item_statuses where code = 'd'");
    const lone = (
      await t.db.query<{ id: string }>('insert into bibs (created_date, updated_date) values (now(), now()) returning id::text')
    )[0]!.id;
    await t.db.query('delete from bibs where id = $1', [lone]);
  });

  it('a link written while its bib is being deleted fails once the delete commits', { skip: ENGINE !== 'postgres' }, async () => {
    const a = postgres(t.url!, { max: 1, onnotice: () => {} });
    const b = postgres(t.url!, { max: 1, onnotice: () => {} });
    try {
      const doomed = (await a<{ id: string }[]>`insert into bibs (created_date, updated_date) values (now(), now()) returning id::text`)[0]!
        .id;
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let deleted!: () => void;
      const deleting = new Promise<void>((resolve) => (deleted = resolve));
      const deleter = a.begin(async (tx) => {
        await tx`delete from bibs where id = ${doomed}`;
        deleted();
        await held;
      });
      await deleting;
      // The link's COPY waits for the deleter's lock on item_bibs, then sees the bib gone.
      const linking = b
        .begin((tx) => tx`insert into item_bibs (item_id, bib_id) values (${item}, ${doomed})`)
        .then(
          () => null,
          (error: { code: string }) => error.code,
        );
      await new Promise((resolve) => setTimeout(resolve, 200));
      release();
      await deleter;
      assert.equal(await linking, '23503');
      assert.equal((await a`select 1 from item_bibs where bib_id = ${doomed}`).length, 0);
    } finally {
      await a.end();
      await b.end();
    }
  });
});
