// The catalogue page and GET /v6/bibs/search give the same records in the same order
// (docs/api-contract.md, "Search and the public catalogue"), for every kind of query: rare and common words, phrases, diacritics and
// other scripts, each index, ISBNs, exclusions, OR, sorts, filters, and page 1 and deeper pages.
// The queries are drawn from the generated catalogue itself, so each finds something. Records in
// other scripts join it: the shared real records with 880 fields (Greek, Chinese) and a Japanese
// title, and records written here in Hebrew, Cyrillic, Greek, Chinese, Japanese and Korean.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deriveBib } from '../../src/bibs/derive.ts';
import { importFiles } from '../../src/bibs/import.ts';
import { BibService } from '../../src/bibs/service.ts';
import { PAGE_SIZE } from '../../src/catalog/query.ts';
import { generateRecord } from '../../src/generate/catalogue.ts';
import { ItemService } from '../../src/items/service.ts';
import { isControlField, type DataField, type MarcRecord } from '../../src/marc/record.ts';
import { drainQueue } from '../../src/search/indexer.ts';
import { STOP_WORDS, words } from '../../src/search/text.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { chunks } from '../helpers/shared-data.ts';
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
    // Past the first 100 (one word) or 200 (several) matches: deep pages.
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
  // Misspelt: nothing found, and the same "did you mean" on both (its links followed below).
  { text: 'Germinl' },
  { text: 'zola germnial' },
  { text: '"pride and prejudise"' },
  { text: 'austin', index: 'author' },
  { text: 'muler' },
  { text: 'zloa', materialType: 'a' },
];

const field = (tag: string, ...subfields: [string, string][]): DataField => ({
  tag,
  ind1: '1',
  ind2: '0',
  subfields: subfields.map(([code, value]) => ({ code, value })),
});
/** An 880 (a field in its original script) linked to `link`, e.g. "245-01/(2/r". */
const original = (link: string, ...subfields: [string, string][]) => field('880', ['6', link], ...subfields);
const titled = (title: string, ...fields: DataField[]): MarcRecord => ({
  leader: '00000nam a2200000 i 4500',
  fields: [field('245', ['a', title]), ...fields],
});

/**
 * Records in other scripts, several sharing a word in different fields, so the order of their hits
 * is the ranking's and not a single record's.
 */
const IN_OTHER_SCRIPTS: MarcRecord[] = [
  titled(
    'Toldot ha-ʻam ha-Yehudi',
    original('245-01/(2/r', ['a', 'תּוֹלְדוֹת הָעָם הַיְּהוּדִי']),
    field('100', ['a', 'Dubnov, Shimʻon']),
    original('100-02/(2/r', ['a', 'דובנוב, שמעון']),
  ),
  titled('Sefer ha-yovel', original('245-01/(2/r', ['a', 'ספר היובל']), original('650-02/(2/r', ['a', 'יהודים'], ['x', 'תולדות'])),
  titled('Kitve ha-meḥaber', original('245-01/(2/r', ['a', 'כתבי המחבר']), original('500-02/(2/r', ['a', 'כולל תולדות המחבר'])),
  titled(
    'Istorii︠a︡ Moskvy',
    original('245-01/(N', ['a', 'История Москвы']),
    field('100', ['a', 'Zabelin, Ivan']),
    original('100-02/(N', ['a', 'Забелин, Иван']),
  ),
  titled(
    'Moskva i moskvichi',
    original('245-01/(N', ['a', 'Москва и москвичи']),
    original('500-02/(N', ['a', 'Очерки истории Москвы. Ёлки и праздники.']),
  ),
  titled('Istorii︠a︡ Rossii', original('245-01/(N', ['a', 'История России'])),
  titled(
    'Historia tou Hellēnikou ethnous',
    original('245-01/(S', ['a', 'Ιστορία του Ελληνικού Έθνους']),
    field('700', ['a', 'Paparrēgopoulos, Kōnstantinos']),
    original('700-02/(S', ['a', 'Παπαρρηγόπουλος, Κωνσταντίνος']),
  ),
  titled('Ta Hellēnika', original('245-01/(S', ['a', 'Τα Ελληνικά']), original('650-02/(S', ['a', 'Ιστορία'])),
  titled('Zhongguo wen xue shi', original('245-01/$1', ['a', '中国文学史']), original('100-02/$1', ['a', '刘大杰'])),
  titled('Zhongguo li shi di tu ji', original('245-01/$1', ['a', '中国历史地图集']), original('500-02/$1', ['a', '附文学史年表'])),
  titled('Nihon bungakushi', original('245-01/$1', ['a', '日本文学史']), original('246-02/$1', ['a', 'にほんぶんがくし'])),
  titled('Nihon no rekishi', original('245-01/$1', ['a', '日本の歴史']), original('500-02/$1', ['a', 'ガイドブック付き'])),
  titled('Hanʼguk munhaksa', original('245-01/$1', ['a', '한국 문학사']), original('650-02/$1', ['a', '한국 문학'], ['x', '역사'])),
  titled('Hanʼguk ŭi yŏksa', original('245-01/$1', ['a', '한국의 역사'])),
];

/** The shared real records in other scripts: a Greek conference, Austen in Chinese and Japanese. */
const SHARED_FILES = ['OCLC_814388508.xml', 'pride-and-prejudice-fixed.mrc'];

const SCRIPT_CASES: Case[] = [
  // Hebrew, pointed and not, in a title, a subject and a note; an author; the romanisation.
  { text: 'תולדות' },
  { text: 'תּוֹלְדוֹת' },
  { text: 'תולדות', index: 'title' },
  { text: 'תולדות', sort: 'title' },
  { text: 'שמעון', index: 'author' },
  { text: 'toldot' },
  // Cyrillic: a word in titles and a note, case and ё folded, a phrase, an author, the romanisation.
  { text: 'москвы' },
  { text: 'ИСТОРИЯ' },
  { text: 'история москвы' },
  { text: '"история москвы"' },
  { text: 'история -москвы' },
  { text: 'елки' },
  { text: 'забелин', index: 'author' },
  { text: 'istoriia' },
  // Greek, accented and not, upper case, a subject, an author; the shared conference record.
  { text: 'ιστορία' },
  { text: 'ΙΣΤΟΡΙΑ' },
  { text: 'ιστορια', index: 'subject' },
  { text: 'παπαρρηγοπουλος', index: 'author' },
  { text: 'αγορά' },
  { text: 'ΑΓΟΡΑ Μεσογειο' },
  { text: 'Γιαννικουρη', index: 'author' },
  // Chinese, Japanese and Korean: pairs shared across the three, a whole title, kana, Hangul, a
  // phrase, an exclusion, OR, a sort; the shared Chinese and Japanese Austen.
  { text: '文学史' },
  { text: '文学史', sort: 'title' },
  { text: '中国' },
  { text: '中国 -历史' },
  { text: '"中国文学"' },
  { text: '日本 OR 한국' },
  { text: '歴史' },
  { text: 'にほんぶんがくし' },
  { text: 'ガイドブック' },
  { text: '한국' },
  { text: '한국의 역사' },
  { text: '역사', index: 'subject' },
  { text: '傲慢与偏见' },
  { text: '傲慢與偏見' },
  { text: '偏見' },
  { text: '偏見', sort: 'year' },
  { text: '张玲', index: 'author' },
  { text: '理性與感性' },
  { text: '自負と偏見' },
  { text: 'ao man yu pian jian' },
  { text: 'pride 傲慢' },
];

/** Misspelt in Cyrillic and Greek: nothing found, and the same "did you mean" on both. */
const MISSPELT_IN_OTHER_SCRIPTS: Case[] = [{ text: 'история москвв' }, { text: 'ιστορρια' }, { text: 'ЗАБЕЛЕН', index: 'author' }];

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
    const bibs = new BibService(t.testDb.db, new ItemService(t.testDb.db));
    for (const marc of IN_OTHER_SCRIPTS) await bibs.create({ marc });
    await importFiles(
      t.testDb.db,
      SHARED_FILES.map((name) => ({ name, open: () => chunks(name, 64 * 1024) })),
      { itemMap: null },
    );
    await drainQueue(t.testDb.db);
  });
  after(() => t.close());

  /** Asks the API and the page the same query, and checks they agree; answers what the page showed. */
  const compare = async (c: Case): Promise<{ found: number; facets: number; suggestions: number }> => {
    const page = c.page ?? 1;
    const apiParams = query(c);
    apiParams.set('limit', String(PAGE_SIZE));
    apiParams.set('offset', String((page - 1) * PAGE_SIZE));
    apiParams.set('fields', 'id');
    const api = await t.app.inject({ method: 'GET', url: `/v6/bibs/search?${apiParams}`, headers: { authorization: reader } });
    assert.equal(api.statusCode, 200, `${JSON.stringify(c)}: ${api.body}`);
    const answer: { total: number; entries: { bib: { id: string } }[]; suggestions?: { text: string; total: number }[] } = api.json();
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
    let facetsCompared = 0;
    for (const m of html.body.matchAll(/data-facet="(\w+)" data-value="([^"]+)" data-count="(\d+)"><span>([^<]*)/g)) {
      const entry = facets[m[1]!]!.find((f) => String(f.value) === m[2]);
      assert.equal(entry?.count, Number(m[3]), `${label}: facet ${m[1]}=${m[2]}`);
      if (m[1] === 'language') assert.equal(m[4]!.replaceAll('&#39;', "'").replaceAll('&amp;', '&'), entry?.name, `${label}: ${m[2]}`);
      facetsCompared++;
    }
    // "Did you mean": the page links the API's suggestions, in order, each with its total, and the
    // link gives the suggested search's results (the API's for its text) and that total.
    const links = [...html.body.matchAll(/<a href="([^"]+)" data-suggestion-total="(\d+)">([^<]*)<\/a>/g)].map((m) => ({
      href: m[1]!.replaceAll('&amp;', '&'),
      total: Number(m[2]),
      text: m[3]!.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&'),
    }));
    assert.deepEqual(
      links.map(({ text, total }) => ({ text, total })),
      answer.suggestions ?? [],
      `${label}: suggestions`,
    );
    if (links.length) assert.match(html.body, /Did you mean <a /, label);
    for (const link of links) {
      const followed = await t.app.inject({ method: 'GET', url: link.href });
      assert.equal(followed.statusCode, 200, `${label}: ${link.href}`);
      const suggestedParams = query({ ...c, text: link.text });
      assert.equal(link.href, `/catalog?${suggestedParams}`, `${label}: the link keeps the field and filters`);
      suggestedParams.set('limit', String(PAGE_SIZE));
      suggestedParams.set('fields', 'id');
      const corrected: typeof answer = (
        await t.app.inject({ method: 'GET', url: `/v6/bibs/search?${suggestedParams}`, headers: { authorization: reader } })
      ).json();
      assert.ok(corrected.total > 0, `${label}: ${link.text} finds something`);
      assert.equal(Number(/data-total="(\d+)"/.exec(followed.body)?.[1]), link.total, `${label}: ${link.text}`);
      assert.equal(corrected.total, link.total, `${label}: ${link.text}`);
      assert.deepEqual(
        [...followed.body.matchAll(/<li class="hit" data-bib-id="(\d+)"/g)].map((m) => m[1]),
        corrected.entries.map((e) => e.bib.id),
        `${label}: ${link.text}`,
      );
    }
    return { found: pageIds.length, facets: facetsCompared, suggestions: links.length };
  };

  it(`gives the same ids in the same order, and the same total, for ${cases.length} queries`, async () => {
    assert.ok(cases.length >= 50);
    let nonEmpty = 0;
    let deepPages = 0;
    let facetsCompared = 0;
    let suggested = 0;
    for (const c of cases) {
      const { found, facets, suggestions } = await compare(c);
      facetsCompared += facets;
      suggested += suggestions;
      if (found) nonEmpty++;
      if (found && (c.page ?? 1) > 1) deepPages++;
    }
    // The set is only worth something if most queries find records, some on deeper pages.
    assert.ok(nonEmpty >= cases.length * 0.8, `${nonEmpty} of ${cases.length} queries found something`);
    assert.ok(deepPages >= 8, `${deepPages} deeper pages had results`);
    assert.ok(facetsCompared > 100, `${facetsCompared} facet counts compared`);
    assert.ok(suggested >= 5, `${suggested} suggestions followed`);
  });

  it(`agrees on ${SCRIPT_CASES.length} queries in Hebrew, Cyrillic, Greek, Chinese, Japanese and Korean`, async () => {
    let several = 0;
    for (const c of SCRIPT_CASES) {
      const { found } = await compare(c);
      assert.ok(found > 0, `${JSON.stringify(c)} found nothing`);
      if (found > 1) several++;
    }
    // Order is only compared where there is one: enough of these queries find several records.
    assert.ok(several >= 15, `${several} queries found more than one record`);
    for (const c of MISSPELT_IN_OTHER_SCRIPTS) assert.ok((await compare(c)).suggestions > 0, `${JSON.stringify(c)}: no suggestion`);
  });
});
