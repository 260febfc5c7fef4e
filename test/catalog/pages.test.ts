// The catalogue pages as HTML: open without a token, the record page's description and copies,
// friendly pages for bad input and unknown records, escaping, the stylesheet's caching, and no
// trace of /catalog in the API's OpenAPI document.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BibService } from '../../src/bibs/service.ts';
import { ItemService } from '../../src/items/service.ts';
import { describe as describeRecord, displayTitle, tidy } from '../../src/catalog/describe.ts';
import { html, raw } from '../../src/catalog/html.ts';
import { pageNumbers } from '../../src/catalog/results-page.ts';
import type { DataField } from '../../src/marc/record.ts';
import { drainQueue } from '../../src/search/indexer.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { HAND_MADE, loadCatalogue } from './fixture.ts';

const df = (tag: string, ...subfields: [string, string][]): DataField => ({
  tag,
  ind1: ' ',
  ind2: ' ',
  subfields: subfields.map(([code, value]) => ({ code, value })),
});

describe('catalogue templates', () => {
  it('escapes every interpolated value, and only those', () => {
    const title = '<script>alert("x")</script> & \'friends\'';
    assert.equal(
      html`<h1 title="${title}">${title}</h1>`.text,
      '<h1 title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;friends&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;friends&#39;</h1>',
    );
    assert.equal(html`<ul>${['a<', html`<li>b</li>`, null, undefined, false, 3]}</ul>`.text, '<ul>a&lt;<li>b</li>3</ul>');
    assert.equal(html`${raw('<br>')}`.text, '<br>');
  });

  it("takes the cataloguer's punctuation off, keeping initials", () => {
    assert.equal(tidy('Penguin,'), 'Penguin');
    assert.equal(tidy('History.'), 'History');
    assert.equal(tidy('Smith, J.'), 'Smith, J.');
    assert.equal(displayTitle('History : a story /'), 'History: a story');
    const d = describeRecord(
      {
        leader: '',
        fields: [
          df('245', ['a', 'Germinal /'], ['c', 'Émile Zola.']),
          df('260', ['a', 'Paris :'], ['b', 'Charpentier,'], ['c', '1885.']),
          df('300', ['a', '591 p. ;'], ['c', '19 cm.']),
          df('490', ['a', 'Les Rougon-Macquart ;'], ['v', '13']),
          df('830', ['a', 'Les Rougon-Macquart.']),
          df('650', ['a', 'Coal mines and mining'], ['z', 'France'], ['v', 'Fiction.']),
          df('500', ['a', 'First published in Gil Blas.']),
        ],
      },
      null,
    );
    assert.equal(d.title, 'Germinal');
    assert.equal(d.responsibility, 'Émile Zola');
    assert.equal(d.publication, 'Paris: Charpentier, 1885');
    assert.equal(d.physical, '591 p., 19 cm');
    assert.deepEqual(d.series, ['Les Rougon-Macquart, 13']);
    assert.deepEqual(d.subjects, [['Coal mines and mining', 'France', 'Fiction']]);
    assert.deepEqual(d.notes, ['First published in Gil Blas.']);
  });

  it('offers the first, the last and the nearby page numbers', () => {
    assert.deepEqual(pageNumbers(1, 1), [1]);
    assert.deepEqual(pageNumbers(1, 10), [1, 2, 3, null, 10]);
    assert.deepEqual(pageNumbers(6, 10), [1, null, 4, 5, 6, 7, 8, null, 10]);
    assert.deepEqual(pageNumbers(8, 10), [1, null, 6, 7, 8, 9, 10]);
    assert.deepEqual(pageNumbers(4, 5), [1, 2, 3, 4, 5]);
  });
});

describe(`catalogue pages on ${ENGINE}`, () => {
  let t: TestApp;
  let ids: Record<string, string>;
  const get = (url: string) => t.app.inject({ method: 'GET', url });
  before(async () => {
    t = await createTestApp();
    ids = await loadCatalogue(t.testDb.db, 60);
  });
  after(() => t.close());

  it('answers without a token, as HTML with a restrictive content security policy', async () => {
    for (const url of ['/catalog', '/catalog/', '/catalog?text=zola', `/catalog/record/${ids.zola}`]) {
      const res = await get(url);
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
      assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
      assert.match(res.body, /^<!doctype html>/);
    }
  });

  it('shows a start page with a labelled search form and tips', async () => {
    const body = (await get('/catalog')).body;
    assert.match(body, /<form class="search" role="search" action="\/catalog" method="get"/);
    assert.match(body, /<label for="search-text">/);
    assert.match(body, /<label for="search-index">Search in<\/label>/);
    assert.equal(body.match(/<h1/g)?.length, 1);
    assert.match(body, /<main id="main"/);
    assert.match(body, /<a class="skip" href="#main">/);
  });

  it('shows results with title, author, year, material type and availability, and keeps the search in the form', async () => {
    const body = (await get('/catalog?text=zola&index=author')).body;
    assert.match(body, new RegExp(`<li class="hit" data-bib-id="${ids.zola}">`));
    assert.match(body, /Germinal/);
    assert.match(body, /Zola, Émile/);
    assert.match(body, /<span class="badge">Books<\/span>/);
    assert.match(body, /<strong>Available<\/strong><span class="detail">1 of 2 copies at Main Library<\/span>/);
    assert.match(body, /<option value="author" selected>Author<\/option>/);
    assert.match(body, /value="zola"/);
    assert.match(body, /Author search: “zola”/);
  });

  it('shows a record: description, subjects, notes, ISBNs and every copy with location, call number and status', async () => {
    const res = await get(`/catalog/record/${ids.pride}?text=pride&page=1`);
    assert.equal(res.statusCode, 200);
    const body = res.body;
    assert.match(body, /<h1 id="record-title">Pride and prejudice<\/h1>/);
    assert.match(body, /Austen, Jane, 1775-1817/);
    assert.match(body, /London: Penguin, 2003/);
    assert.match(body, /480 pages, 20 cm/);
    assert.match(body, /9780141439518 \(paperback\)/);
    assert.match(body, /Courtship — Fiction/);
    assert.match(body, /A novel of manners: Elizabeth Bennet and Mr Darcy\./);
    assert.match(
      body,
      /<td data-label="Location">Main Library<\/td>\s*<td data-label="Call number">FIC AUS<\/td>\s*<td data-label="Status" class="status-available">Available<\/td>/,
    );
    assert.match(body, /<td data-label="Status" class="status-unavailable">Missing<\/td>/);
    assert.match(body, /href="\/catalog\?text=pride">.*Back to results/);
    assert.match(body, /href="\/catalog\?text=Austen%2C\+Jane&amp;index=author"/);
    const zola = (await get(`/catalog/record/${ids.zola}`)).body;
    assert.match(zola, /Library use only/);
    assert.match(zola, /Coal mines and mining — France — Fiction/);
  });

  it('offers a misspelt search corrected, as a link to that search in the same field, and finds it there', async () => {
    const body = (await get('/catalog?text=Germinl&index=title')).body;
    assert.match(body, /data-total="0"/);
    assert.match(
      body,
      /<p class="did-you-mean">Did you mean <a href="\/catalog\?text=Germinal&amp;index=title" data-suggestion-total="1">Germinal<\/a> \(1 result\)\?<\/p>/,
    );
    assert.match(body, /Nothing found/, 'the tips stay');
    const followed = (await get('/catalog?text=Germinal&index=title')).body;
    assert.match(followed, new RegExp(`<li class="hit" data-bib-id="${ids.zola}">`));
    assert.match(followed, /data-total="1"/);
    assert.doesNotMatch(followed, /Did you mean/);
  });

  it('names filters in use and offers to drop them when they leave nothing', async () => {
    const body = (await get('/catalog?text=zola&language=rus&decade=1880')).body;
    assert.match(body, /Language: Russian<span class="visually-hidden"> \(remove this filter\)/);
    assert.match(body, /Published: 1880s/);
    assert.match(body, /Clear all filters/);
    assert.match(body, /Search again without filters/);
    const filtered = (await get('/catalog?text=zola&decade=1880')).body;
    assert.match(filtered, new RegExp(`data-bib-id="${ids.zola}"`));
    assert.match(filtered, /data-facet="decade" data-value="1880" data-count="1"/);
  });

  it("answers an unknown, malformed, deleted or suppressed record with a 404 page in the catalogue's look", async () => {
    const bibs = new BibService(t.testDb.db, new ItemService(t.testDb.db));
    await bibs.replace(ids.hamlet!, { marc: HAND_MADE.hamlet!, suppressed: true });
    await bibs.delete(ids.theWho!);
    await drainQueue(t.testDb.db);
    for (const url of [
      '/catalog/record/9999999',
      '/catalog/record/abc',
      '/catalog/record/0',
      `/catalog/record/${ids.hamlet}`,
      `/catalog/record/${ids.theWho}`,
      '/catalog/nowhere',
    ]) {
      const res = await get(url);
      assert.equal(res.statusCode, 404, url);
      assert.match(String(res.headers['content-type']), /^text\/html/, url);
      assert.match(res.body, /<h1>(Record|Page) not found<\/h1>/, url);
      assert.match(res.body, /role="search"/, url);
    }
    assert.doesNotMatch((await get('/catalog?text=hamlet')).body, /data-bib-id/);
  });

  it('answers bad input with a friendly page, never a JSON error', async () => {
    for (const url of [
      '/catalog?text=war&page=x',
      '/catalog?text=war&page=0',
      '/catalog?text=war&page=999999',
      '/catalog?text=war&index=nope',
      '/catalog?text=war&sort=price',
      '/catalog?text=war&page=1&page=2',
      '/catalog?text=war&materialType=%3Cb%3E',
      '/catalog?text=war&decade=1995',
      `/catalog?text=${'a'.repeat(1001)}`,
    ]) {
      const res = await get(url);
      assert.equal(res.statusCode, 400, url);
      assert.match(String(res.headers['content-type']), /^text\/html/, url);
      assert.match(res.body, /That search could not be read/, url);
      assert.doesNotMatch(res.body, /"code":/, url);
    }
    // Addresses refused before any route is found: pages too under /catalog, the API's JSON elsewhere.
    for (const [url, status] of [
      ['/catalog/record/%ff', 400],
      [`/catalog/account/holds/${'1'.repeat(600)}/pickup`, 414],
    ] as const) {
      const res = await get(url);
      assert.equal(res.statusCode, status, url);
      assert.match(String(res.headers['content-type']), /^text\/html/, url);
      assert.match(res.body, /That page could not be shown/, url);
      assert.doesNotMatch(res.body, /"code":/, url);
    }
    const api = await get('/v6/bibs/%ff');
    assert.equal(api.statusCode, 400);
    assert.equal(api.json().code, 108);
  });

  it('escapes what records and readers bring', async () => {
    const bibs = new BibService(t.testDb.db, new ItemService(t.testDb.db));
    const id = await bibs.create({
      marc: { leader: '00000nam a2200000 i 4500', fields: [df('245', ['a', '<script>alert(1)</script> "quoted"'])] },
    });
    await drainQueue(t.testDb.db);
    const results = (await get('/catalog?text=alert')).body;
    assert.match(results, new RegExp(`data-bib-id="${id}"`));
    assert.doesNotMatch(results, /<script>/);
    assert.match(results, /&lt;script&gt;alert\(1\)&lt;\/script&gt; &quot;quoted&quot;/);
    const searched = (await get(`/catalog?text=${encodeURIComponent('"><img src=x>')}`)).body;
    assert.doesNotMatch(searched, /<img/);
    assert.doesNotMatch((await get(`/catalog/record/${id}`)).body, /<script>/);
  });

  it('serves the stylesheet under a hashed name, cacheable for a year', async () => {
    const href = /<link rel="stylesheet" href="([^"]+)">/.exec((await get('/catalog')).body)![1]!;
    assert.match(href, /^\/catalog\/assets\/catalog-[0-9a-f]{10}\.css$/);
    const css = await get(href);
    assert.equal(css.statusCode, 200);
    assert.match(String(css.headers['content-type']), /^text\/css/);
    assert.equal(css.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.match(css.body, /:focus-visible/);
    assert.equal((await get('/catalog/assets/other.css')).statusCode, 404);
  });

  it('is not part of the API: absent from the OpenAPI document', async () => {
    const doc = (await get('/v6/openapi.json')).json();
    assert.deepEqual(
      Object.keys(doc.paths).filter((p) => p.includes('catalog')),
      [],
    );
  });

  it('answers with a 503 page while the service is in maintenance', async () => {
    t.state.schemaReady = false;
    try {
      const res = await get('/catalog?text=war');
      assert.equal(res.statusCode, 503);
      assert.match(res.body, /The catalogue is resting/);
    } finally {
      t.state.schemaReady = true;
    }
  });
});
