// COPY's text format round-trips awkward values through the real engines.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CopyWriter, copyText } from '../../src/db/copy-text.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';

describe(`COPY rows on ${ENGINE}`, () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb();
  });
  after(() => t.drop());

  it('keeps tabs, newlines, backslashes, quotes, braces, nulls and arrays exactly', async () => {
    const rows = [
      ['tab\there', ['a,b', 'quote"d', 'back\\slash', '{brace}', 'NULL', '', 'tab\tin', 'line\nin'], 1, '{"json": "x\\ny"}'],
      ['line\nbreak\r\nend \\N', [], null, null],
      [null, ['ünïcödé', 'Русский'], -5, '[]'],
    ];
    // The same rows as copyText writes them and as the import's CopyWriter does, cell by cell.
    const writer = new CopyWriter(16);
    for (const row of rows) {
      row.forEach((value, i) => {
        if (i) writer.byte(0x09);
        writer.cell(value);
      });
      writer.byte(0x0a);
    }
    for (const [how, text] of [
      ['copyText', copyText(rows)],
      ['CopyWriter', writer.written()],
    ] as const)
      await t.db.transaction(async (tx) => {
        await tx.exec('create temporary table copied (n serial, a text, b text[], c integer, d jsonb) on commit drop');
        assert.equal(typeof tx.copyFrom, 'function', 'both engines COPY in process');
        await tx.copyFrom!('copied', ['a', 'b', 'c', 'd'], text);
        const back = await tx.query<{ a: string | null; b: string[]; c: number | null; d: unknown }>(
          'select a, b, c, d from copied order by n',
        );
        assert.deepEqual(
          back.map((r) => [r.a, r.b, r.c, r.d === null ? null : JSON.stringify(r.d)]),
          rows.map((r) => [r[0], r[1], r[2], r[3] === null ? null : JSON.stringify(JSON.parse(r[3] as string))]),
          how,
        );
      });
  });

  it('rejects with the server error when a COPY is refused, and leaves the connection usable', async () => {
    await t.db.exec('create table copy_unique (n integer primary key)');
    for (const rows of [
      [[1], [1]],
      [[2], ['not a number']],
    ]) {
      const error = await t.db
        .transaction(async (tx) => {
          await tx.copyFrom!('copy_unique', ['n'], copyText(rows));
        })
        .then(
          () => undefined,
          (e: { code?: string }) => e,
        );
      assert.ok(error, 'refused');
      assert.match(String(error.code), /^(23505|22P02)$/);
    }
    assert.equal((await t.db.query('select n from copy_unique')).length, 0);
  });
});
