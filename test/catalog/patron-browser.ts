// A patron in the catalogue, in real Chromium: a fresh browser context past the catalogue's
// Content-Security-Policy (so that axe-core can be injected), signing in with a card and PIN, and
// axe-core's check for serious or critical problems on a page.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const newContext = (browser: Browser) => browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });

/** No serious or critical problem axe-core finds on the page. */
export async function axe(page: Page): Promise<void> {
  await page.addScriptTag({ content: AXE });
  const found = await page.evaluate<{ id: string; impact: string; nodes: number }[]>(
    "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length })))",
  );
  const grave = found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(grave, [], `${page.url()}: ${JSON.stringify(grave)}`);
}

/** Signs in on the sign-in page; the page it lands on. */
export async function signIn(context: BrowserContext, base: string, barcode: string, pin: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${base}/catalog/signin`);
  await page.getByLabel('Library card number').fill(barcode);
  await page.getByLabel('PIN').fill(pin);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/catalog/account`);
  return page;
}

/** "2026-12-03" as the page writes it: "3 December 2026". */
export function longDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return `${d} ${new Date(Date.UTC(y, m - 1, d)).toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' })} ${y}`;
}
