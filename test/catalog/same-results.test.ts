// The catalogue page and GET /v6/bibs/search give the same records in the same order
// (docs/api-contract.md, "Search and the public catalogue"), for every kind of query: rare and common words, phrases, diacritics and
// other scripts, each index, ISBNs, exclusions, OR, sorts, filters, and page 1 and deeper pages.
// The queries are drawn from the generated catalogue itself, so each finds something.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deriveBib } from '../../src/bibs/derive.ts';
import { PAGE_SIZE } from '../../src/catalog/query.ts';
import { generateRecord } from '../../src/generate/catalogue.ts';
import { isControlField } from '../../src/marc/record.ts';
import { STOP_WORDS, words } from '../../src/search/text.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';
import { GENERATED, SEED, loadCatalogue } from './fixture.ts';

interface Case {
  text: string;
  index?: string;
  sort?: string;
  page?: number;
  materialType?: string;
  language?: string;
  decade?: string;
}

/** Queries made from the generated records: the commonest and rarest title words, authors, subjects, phrases, ISBNs. */
function generatedCases(): Case[] {
  const records = Array.from({ length: GENERATED }, (_, i) => generateRecord(SEED, i + 1));
  const derived = records.map(deriveBib);
  const counts = new Map<string, number>();
  for (const d of derived)
    for (const w of new Set(words(d.title ?? ''))) if (!STOP_WORDS.has(w) && w.length > 2) counts.set(w, (counts.get(w) ?? 0) + 1);
  const byCount = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const common = byCount.slice(0, 6).map(([w]) => w);
  const rare = byCount
    .filter(([, n]) => n === 1)
    .filter((_, i) => i % 97 === 0)
    .slice(0, 6)
    .map(([w]) => w);
  const surnames = [...new Set(derived.flatMap((d) => (d.author ? [d.author.split(',')[0]!] : [])))].slice(0, 4);
  const subjects = records
    .slice(0, 40)
    .flatMap((r) => r.fields.filter((f) => f.tag === '650' && !isControlField(f)))
    .map((f) => ('subfields' in f ? f.subfields[0]!.value.replace(/[.,]$/, '') : ''))
    .slice(0, 3);
  const phrases = derived
    .map((d) => words(d.title ?? ''))
    .filter((w) => w.length >= 3)
    .slice(0, 4)
    .map((w) => `"${w[0]} ${w[1]}"`);
  const isbns = derived.flatMap((d) => d.isbns).slice(0, 3);
  const cases: Case[] = [
    ...common.map((text) => ({ text })),
    { text: common[0]!, page: 2 },
    { text: common[0]!, page: 3 },
    { text: common[1]!, page: 2 },
    { text: common[0]!, page: 40 },
    // Past the first 100 (one word) or 200 (several) matches: where SearchService stops ranking from its pool.
    { text: common[0]!, page: 5 },
    { text: common[0]!, page: 6 },
    { text: common[0]!, page: 8 },
    { text: `${common[0]} ${common[1]}`, page: 2 },
    { text: common[0]!, sort: 'title' },
    { text: common[0]!, sort: 'title', page: 2 },
    { text: common[1]!, sort: 'year' },
    { text: common[1]!, sort: 'year', page: 2 },
    ...rare.map((text) => ({ text })),
    ...rare.slice(0, 2).map((text) => ({ text, index: 'title' })),
    ...surnames.map((text) => ({ text, index: 'author' })),
    { text: surnames[0]!, page: 2 },
    ...subjects.map((text) => ({ text, index: 'subject' })),
    ...phrases.map((text) => ({ text })),
    { text: `${common[0]} -${common[1]}` },
    { text: `${common[0]} -${common[1]}`, page: 2 },
    { text: `${common[2]} -"${common[0]} ${common[1]}"` },
    { text: `${rare[0]} OR ${rare[1]} OR ${common[3]}` },
    { text: `${common[0]} ${common[2]}` },
    ...isbns.map((text) => ({ text })),
    { text: isbns[0]!, index: 'isbn' },
    { text: 'fiction', index: 'subject' },
    { text: 'fiction', index: 'subject', page: 2 },
    { text: 'index', index: 'note' },
    { text: 'FIC', index: 'callNumber' },
    { text: common[0]!, index: 'series' },
    { text: common[0]!, materialType: 'a' },
    { text: common[0]!, materialType: 'a', page: 2 },
    { text: common[0]!, materialType: 'a,g' },
    { text: common[0]!, language: 'eng', sort: 'year' },
    { text: common[1]!, decade: '2010' },
    { text: common[1]!, decade: '1990,2000', language: 'eng' },
    { text: 'history', index: 'subject', materialType: 'a', language: 'eng', page: 2 },
  ];
  return cases;
}

const HAND_MADE_CASES: Case[] = [
  { text: 'emile zola' },
  { text: 'Émile' },
  { text: 'ZOLA', index: 'author' },
  { text: 'STRASSE' },
  { text: 'Straße' },
  { text: 'olsardinen' },
  { text: 'Ölsardinen', index: 'title' },
  { text: 'muller', index: 'author' },
  { text: 'война' },
  { text: 'ТОЛСТОЙ' },
  { text: 'naive cafe' },
  { text: 'Naïve Café' },
  { text: 'cafes', index: 'subject' },
  { text: '978-0-14-143951-8' },
  { text: '0141439513' },
  { text: '0-14-143951-3', index: 'isbn' },
  { text: '9780141439518', index: 'standardNumber' },
  { text: '"pride and prejudice"' },
  { text: 'pride prejudice' },
  { text: '"prejudice pride"' },
  { text: 'pride -"old towns"' },
  { text: 'the who' },
  { text: 'to be or not to be' },
  { text: 'hamlet', index: 'note' },
  { text: 'zzqqxx nothing' },
];

const query = (c: Case) => {
  const params = new URLSearchParams({ text: c.text });
  for (const key of ['index', 'sort', 'materialType', 'language', 'decade'] as const) if (c[key]) params.set(key, c[key]);
  return params;
};

describe(`the catalogue page and the search API agree on ${ENGINE}`, () => {
  let t: TestApp;
  let reader: string;
  const cases = [...generatedCases(), ...HAND_MADE_CASES];
  before(async () => {
    t = await createTestApp();
    reader = await bearer(t, ['Bibs_Read']);
    await loadCatalogue(t.testDb.db);
  });
  after(() => t.close());

  it(`gives the same ids in the same order, and the same total, for ${cases.length} queries`, async () => {
    assert.ok(cases.length >= 50);
    let nonEmpty = 0;
    let deepPages = 0;
    let facetsCompared = 0;
    for (const c of cases) {
      const page = c.page ?? 1;
      const apiParams = query(c);
      apiParams.set('limit', String(PAGE_SIZE));
      apiParams.set('offset', String((page - 1) * PAGE_SIZE));
      apiParams.set('fields', 'id');
      const api = await t.app.inject({ method: 'GET', url: `/v6/bibs/search?${apiParams}`, headers: { authorization: reader } });
      assert.equal(api.statusCode, 200, `${JSON.stringify(c)}: ${api.body}`);
      const answer: { total: number; entries: { bib: { id: string } }[] } = api.json();
      apiParams.set('facets', 'true');
      const counted = await t.app.inject({ method: 'GET', url: `/v6/bibs/search?${apiParams}`, headers: { authorization: reader } });
      const facets: Record<string, { value: string | number; count: number; name?: string }[]> = counted.json().facets;

      const pageParams = query(c);
      if (page > 1) pageParams.set('page', String(page));
      const html = await t.app.inject({ method: 'GET', url: `/catalog?${pageParams}` });
      assert.equal(html.statusCode, 200, `${JSON.stringify(c)}: ${html.body.slice(0, 500)}`);
      const pageIds = [...html.body.matchAll(/<li class="hit" data-bib-id="(\d+)"/g)].map((m) => m[1]);
      const label = JSON.stringify(c);
      assert.deepEqual(
        pageIds,
        answer.entries.map((e) => e.bib.id),
        label,
      );
      assert.equal(Number(/data-total="(\d+)"/.exec(html.body)?.[1]), answer.total, label);
      // Each facet link shows the API's count for its value (asked with facets=true), and a language
      // the API's name for it.
      for (const m of html.body.matchAll(/data-facet="(\w+)" data-value="([^"]+)" data-count="(\d+)"><span>([^<]*)/g)) {
        const entry = facets[m[1]!]!.find((f) => String(f.value) === m[2]);
        assert.equal(entry?.count, Number(m[3]), `${label}: facet ${m[1]}=${m[2]}`);
        if (m[1] === 'language') assert.equal(m[4]!.replaceAll('&#39;', "'").replaceAll('&amp;', '&'), entry?.name, `${label}: ${m[2]}`);
        facetsCompared++;
      }
      if (pageIds.length) nonEmpty++;
      if (pageIds.length && page > 1) deepPages++;
    }
    // The set is only worth something if most queries find records, some on deeper pages.
    assert.ok(nonEmpty >= cases.length * 0.8, `${nonEmpty} of ${cases.length} queries found something`);
    assert.ok(deepPages >= 8, `${deepPages} deeper pages had results`);
    assert.ok(facetsCompared > 100, `${facetsCompared} facet counts compared`);
  });
});
