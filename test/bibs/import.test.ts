// `carrel import` on the real files of ../shared/data/marc, through the real command.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importFiles } from '../../src/bibs/import.ts';
import type { Db, Queryable } from '../../src/db/types.ts';
import { childDatabase, createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';
import { carrel } from '../helpers/process.ts';
import fs from 'node:fs';
import { chunks, MARC_DIR, marcFile } from '../helpers/shared-data.ts';

const count = async (t: TestDb) =>
  (await t.db.query<{ n: number }>('select count(*)::int as n from bibs where deleted_date is null'))[0]!.n;
const file = (name: string) => ({ name, open: () => chunks(name, 64 * 1024) });

describe(`import on ${ENGINE}`, () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb();
  });
  after(() => t.drop());

  it('loads UTF-8 ISO 2709, MARCXML and MARC-in-JSON files', async () => {
    const summary = await importFiles(t.db, [
      file('brkrtest_UTF8.mrc'),
      file('OCLC_814388508.xml'),
      file('chabon-record-type.xml'),
      file('pymarc-batch.json'),
      file('065001035.mrc'),
    ]);
    assert.deepEqual(summary.failed, []);
    assert.equal(summary.read, 8 + 1 + 2 + 2 + 40);
    assert.equal(summary.created + summary.updated, summary.read);
    const [greek] = await t.db.query<{ title: string }>("select title from bibs where control_number = 'ocn814388508'");
    assert.match(greek!.title, /^Hē agora stē Mesogeio/, 'romanised Greek with its macrons');
  });

  it('reports the malformed record by position and keeps the others', async () => {
    const before = await count(t);
    const summary = await importFiles(t.db, [file('ruby-marc-three-records-second-bad.xml')]);
    assert.equal(summary.read, 3);
    assert.equal(summary.failed.length, 1);
    assert.match(summary.failed[0]!.position, /record 2/);
    assert.equal(await count(t), before + 1, 'two good records with one identity: the second replaces the first');
  });

  it('updates on re-import instead of adding duplicates (001 with 003, or 035)', async () => {
    const first = await importFiles(t.db, [file('pride-and-prejudice-fixed.mrc')]);
    const after1 = await count(t);
    const second = await importFiles(t.db, [file('pride-and-prejudice-fixed.mrc')]);
    const withoutIdentity = (
      await t.db.query<{ n: number }>(
        'select count(*)::int as n from bibs where control_number is null and cardinality(system_numbers) = 0 and deleted_date is null',
      )
    )[0]!.n;
    assert.equal(second.read, first.read);
    // Only records with no 001 and no 035 have nothing to match on; everything else is updated in place.
    assert.equal(await count(t), after1 + withoutIdentity / 2);
    assert.ok(second.updated >= first.created - withoutIdentity / 2);
    assert.ok(
      first.failed.every((f) => /UNIMARC/.test(f.reason)),
      'the UNIMARC records in the file are named as such',
    );
  });

  it('loads and replaces the same through a connection that cannot COPY (a client of the embedded server)', async () => {
    const noCopy = (q: Queryable): Queryable => ({
      query: (text, params) => q.query(text, params),
      queryTable: (text, params) => q.queryTable(text, params),
      exec: (text) => q.exec(text),
    });
    const db: Db = {
      ...noCopy(t.db),
      engine: t.db.engine,
      tryLock: (key) => t.db.tryLock(key),
      transaction: (fn) => t.db.transaction((tx) => fn(noCopy(tx))),
      close: async () => {},
    };
    const marc = async () =>
      t.db.query<{ marc: unknown; title: string }>(
        "select marc, title from bibs where control_number = 'ocn814388508' and deleted_date is null",
      );
    await importFiles(t.db, [file('OCLC_814388508.xml')]);
    const copied = await marc();
    const again = await importFiles(db, [file('OCLC_814388508.xml'), file('selectedRecs.mrc')]);
    assert.deepEqual(again.failed, []);
    assert.ok(again.created > 0 && again.updated > 0, 'new bibs inserted and a known one replaced');
    assert.equal(again.created + again.updated, again.read);
    assert.deepEqual(await marc(), copied, 'the MARC and derived fields as the COPY path wrote them');
  });
});

describe(`import of every shared MARC file on ${ENGINE}`, () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb();
  });
  after(() => t.drop());

  it('imports brkrtest.mrc (MARC-8) and brkrtest_UTF8.mrc to identical text', async () => {
    const marc = async () =>
      t.db.query<{ n: string; fields: unknown }>(
        "select control_number as n, marc->'fields' as fields from bibs where deleted_date is null order by 1",
      );
    assert.deepEqual((await importFiles(t.db, [file('brkrtest.mrc')])).failed, []);
    const fromMarc8 = await marc();
    const again = await importFiles(t.db, [file('brkrtest_UTF8.mrc')]);
    assert.equal(again.updated, 8, 'the same records, matched by 001');
    assert.deepEqual(await marc(), fromMarc8);
  });

  it('imports every file, reporting only the records that are not MARC 21 bibliographic records or cannot be ISO 2709', async () => {
    const names = fs
      .readdirSync(MARC_DIR)
      .filter((name) => /\.(mrc|dat|marc|xml|json)$/.test(name))
      .sort();
    assert.ok(names.length >= 20);
    const summary = await importFiles(t.db, names.map(file));
    const failedFiles = [...new Set(summary.failed.map((f) => f.file))].sort();
    assert.deepEqual(failedFiles, [
      'bad_hathi_records.mrc',
      'pride-and-prejudice-fixed.mrc',
      'ruby-marc-three-records-second-bad.xml',
      'sample1.mrc',
    ]);
    assert.ok(summary.failed.filter((f) => f.file === 'pride-and-prejudice-fixed.mrc').every((f) => /UNIMARC/.test(f.reason)));
    // Its fourth record is read (the reader goes by the terminators), but has no ISO 2709 form to be served in.
    assert.deepEqual(
      summary.failed.filter((f) => f.file === 'bad_hathi_records.mrc'),
      [
        {
          file: 'bad_hathi_records.mrc',
          position: 'record 4 (byte 6343)',
          reason: 'the record is 725465 bytes; ISO 2709 allows at most 99,999',
        },
      ],
    );
    const others = summary.failed.filter((f) => !['pride-and-prejudice-fixed.mrc', 'bad_hathi_records.mrc'].includes(f.file));
    // sample1.mrc carries four holdings records: those whose bib was loaded join it, the other is refused.
    const joined = await t.db.query<{ n: number }>('select count(*)::int as n from holdings where not from_bib');
    assert.equal(joined[0]!.n + others.filter((f) => /holdings record/.test(f.reason)).length, 4);
    assert.equal(
      others.filter((f) => !/holdings record/.test(f.reason)).length,
      2,
      'the malformed XML record and the one sample1 record that is neither UTF-8 nor MARC-8',
    );
    assert.equal(summary.created + summary.updated + joined[0]!.n, summary.read - summary.failed.length);
    assert.ok(summary.created + summary.updated >= 500);
  });
});

describe(`carrel import command on ${ENGINE}`, () => {
  let env: Record<string, string>;
  let database: Awaited<ReturnType<typeof childDatabase>>;
  before(async () => {
    database = await childDatabase();
    env = database.env;
  });
  after(() => database?.remove());

  it('prints a summary, lists failed records with their position, and exits non-zero when any failed', async () => {
    const ok = await carrel(['import', marcFile('brkrtest_UTF8.mrc'), '--json'], env);
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(JSON.parse(ok.stdout).failed, []);
    const bad = await carrel(['import', marcFile('ruby-marc-three-records-second-bad.xml')], env);
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /read 3 records .* 1 failed/);
    assert.match(bad.stdout, /record 2 \(line \d+\)/);
    const missing = await carrel(['import', 'no-such-file.mrc'], env);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no such file/);
  });
});
