// Precision at 5 on a judged relevance set: every shared real MARC record loaded through the
// importer, the fifty searches of relevance-judgments.ts run through GET /v6/bibs/search, and the
// share of each search's judged records in its top five compared with PostgreSQL's own ts_rank over
// the same folded text (search_docs), the main title weighted above the rest as a careful
// PostgreSQL catalogue would weigh it. Both figures are printed as test diagnostics.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { importFiles } from '../../src/bibs/import.ts';
import type { MarcInJson } from '../../src/marc/marc-in-json.ts';
import { drainQueue } from '../../src/search/indexer.ts';
import { fold, words } from '../../src/search/text.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { chunks, MARC_DIR } from '../helpers/shared-data.ts';
import { bearer } from '../helpers/tokens.ts';
import { JUDGMENTS, type Judgment, type RecordKey } from './relevance-judgments.ts';

/**
 * What Carrel's mean precision at 5 must reach: set a little below what it reaches, so a ranking
 * change that loses judged records from the top five fails here.
 */
const FLOOR = 0.97;
const TOP = 5;

/** Folded for comparing a judgment with a record: lower case, no diacritics, punctuation as spaces. */
const plain = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** A record's subfields of one tag, each field as its list of [code, value]. */
function fieldsOf(marc: MarcInJson, tag: string): [string, string][][] {
  return marc.fields.flatMap((field) => {
    const body = field[tag];
    if (body === undefined || typeof body === 'string') return [];
    return [body.subfields.map((sf) => Object.entries(sf)[0]!)];
  });
}

function matches(marc: MarcInJson, key: RecordKey): boolean {
  const control = marc.fields.find((f) => typeof f['001'] === 'string')?.['001'] as string | undefined;
  if (key.controlNumber !== undefined && control?.trim() !== key.controlNumber) return false;
  if (key.isbn !== undefined) {
    const isbns = fieldsOf(marc, '020').flatMap((f) => f.filter(([c]) => c === 'a').map(([, v]) => v.replace(/-/g, '').toUpperCase()));
    if (!isbns.some((isbn) => isbn.startsWith(key.isbn!))) return false;
  }
  const title = fieldsOf(marc, '245')[0] ?? [];
  if (key.title !== undefined && plain(title.find(([c]) => c === 'a')?.[1] ?? '') !== plain(key.title)) return false;
  if (key.titleHas !== undefined) {
    const whole = plain(
      title
        .filter(([c]) => 'abnp'.includes(c))
        .map(([, v]) => v)
        .join(' '),
    );
    if (!` ${whole} `.includes(` ${plain(key.titleHas)} `)) return false;
  }
  if (key.author !== undefined) {
    const main = ['100', '110', '111'].flatMap((tag) => fieldsOf(marc, tag));
    const names = (main.length ? main : fieldsOf(marc, '700')).flatMap((f) => f.filter(([c]) => c === 'a').map(([, v]) => plain(v)));
    if (!names.some((name) => name.startsWith(plain(key.author!)))) return false;
  }
  return true;
}

/** Of the first five, how many are judged relevant, out of as many as could be (five, or fewer judged). */
function precision(top: string[], relevant: Set<string>): number {
  return top.slice(0, TOP).filter((id) => relevant.has(id)).length / Math.min(TOP, relevant.size);
}

/**
 * The query as ts_rank reads it: folded as the index folds its text, a hyphen inside a word a space
 * (search_docs holds "prokudin gorskii"), and Chinese, Japanese and Korean split into the pairs
 * search_docs holds, so the baseline differs from Carrel in its ranking and its reading of the
 * query, not in the text it sees.
 */
const baselineQuery = (text: string) =>
  fold(text)
    .replace(/(?<=[\p{L}\p{N}])-(?=[\p{L}\p{N}])/gu, ' ')
    .replace(/[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]+/gu, (run) => words(run).join(' '));

describe(`precision at 5 on the judged relevance set, on ${ENGINE}`, () => {
  let t: TestApp;
  let reader: string;
  const marcs = new Map<string, MarcInJson>();
  before(async () => {
    t = await createTestApp();
    reader = await bearer(t, ['Bibs_Read']);
    const names = fs
      .readdirSync(MARC_DIR)
      .filter((name) => /\.(mrc|dat|marc|xml|json)$/.test(name))
      .sort();
    await importFiles(
      t.testDb.db,
      names.map((name) => ({ name, open: () => chunks(name, 64 * 1024) })),
      { itemMap: null },
    );
    await drainQueue(t.testDb.db);
    for (const row of await t.testDb.db.query<{ id: string; marc: MarcInJson }>(
      'select id::text as id, marc from bibs where deleted_date is null and not suppressed',
    ))
      marcs.set(row.id, row.marc);
    // The baseline's documents: the main title weighted A, all the indexed text (the title again
    // among it) and the ISBNs at the default D.
    await t.testDb.db.query(
      `create table relevance_baseline as
         select d.bib_id,
                setweight(to_tsvector('english', d.title), 'A')
                  || to_tsvector('english', d.words)
                  || to_tsvector('simple', array_to_string(b.isbns, ' ')) as tsv
           from search_docs d join bibs b on b.id = d.bib_id`,
    );
  });
  after(() => t.close());

  const relevantTo = (judgment: Judgment) =>
    new Set([...marcs].filter(([, marc]) => judgment.relevant.some((key) => matches(marc, key))).map(([id]) => id));

  it('loads several hundred shared records, and every judgment names records among them', (ctx) => {
    assert.equal(JUDGMENTS.length, 50);
    assert.ok(marcs.size >= 400, `${marcs.size} bibs`);
    ctx.diagnostic(`${marcs.size} bibs loaded from the shared records`);
    for (const judgment of JUDGMENTS) assert.ok(relevantTo(judgment).size > 0, `${judgment.text}: no record matches its judgment`);
  });

  it('puts the judged records in the top five at least as often as ts_rank does', async (ctx) => {
    const carrelTop = async (text: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/v6/bibs/search?text=${encodeURIComponent(text)}&limit=${TOP}&fields=id`,
        headers: { authorization: reader },
      });
      assert.equal(res.statusCode, 200, `${text}: ${res.body}`);
      return res.json<{ entries: { bib: { id: string } }[] }>().entries.map((e) => e.bib.id);
    };
    const baselineTop = async (text: string) =>
      (
        await t.testDb.db.query<{ id: string }>(
          `select bib_id::text as id from relevance_baseline, websearch_to_tsquery('english', $1) q
            where tsv @@ q order by ts_rank(tsv, q) desc, bib_id limit ${TOP}`,
          [baselineQuery(text)],
        )
      ).map((r) => r.id);
    /** A record as the diagnostics name it: its title proper, shortened. */
    const title = (id: string) =>
      (fieldsOf(marcs.get(id)!, '245')[0]?.find(([c]) => c === 'a')?.[1] ?? '').replace(/[\s/:;,.=]+$/, '').slice(0, 40);

    let carrel = 0;
    let baseline = 0;
    const lines: string[] = [];
    for (const judgment of JUDGMENTS) {
      const relevant = relevantTo(judgment);
      const ours = await carrelTop(judgment.text);
      const theirs = await baselineTop(judgment.text);
      const p = precision(ours, relevant);
      const b = precision(theirs, relevant);
      carrel += p;
      baseline += b;
      if (p < 1 || b < 1) {
        const others = (top: string[]) =>
          top
            .filter((id) => !relevant.has(id))
            .map(title)
            .join(' | ') || '-';
        lines.push(
          `${JSON.stringify(judgment.text)} (${relevant.size} judged): Carrel ${p.toFixed(2)} of ${ours.length} found, ` +
            `unjudged on top: ${others(ours)}; ts_rank ${b.toFixed(2)} of ${theirs.length} found, unjudged on top: ${others(theirs)}`,
        );
      }
    }
    carrel /= JUDGMENTS.length;
    baseline /= JUDGMENTS.length;
    ctx.diagnostic(
      `mean precision at 5 over ${JUDGMENTS.length} judged queries on ${ENGINE}: Carrel ${carrel.toFixed(3)}, ts_rank ${baseline.toFixed(3)}`,
    );
    for (const line of lines) ctx.diagnostic(line);
    assert.ok(carrel >= FLOOR, `Carrel's mean precision at 5 is ${carrel.toFixed(3)}, below ${FLOOR}:\n${lines.join('\n')}`);
    assert.ok(carrel >= baseline, `Carrel ${carrel.toFixed(3)} is below ts_rank's ${baseline.toFixed(3)}:\n${lines.join('\n')}`);
  });
});
