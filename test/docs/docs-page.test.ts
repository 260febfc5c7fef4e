// The interactive API documentation at /docs, in real headless Chromium: it loads the generated
// OpenAPI document, lists the operations, and can call GET /api from the page.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser, needsChromium } from '../helpers/browser.ts';

describe('/docs in Chromium', { skip: needsChromium }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  before(async () => {
    t = await createTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('lists the documented operations and runs GET /api from the page', async () => {
    const page = await browser.newPage();
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    await page.goto(`${base}/docs`);
    await page.getByText('Carrel API', { exact: false }).first().waitFor();
    const paths = await page.locator('.opblock-summary-path').allInnerTexts();
    for (const p of ['/api', '/v6/token', '/v6/info/token'])
      assert.ok(
        paths.some((text) => text.replace(/\u200b/g, '') === p),
        `${p} listed in ${paths.join(', ')}`,
      );
    assert.ok(!paths.some((text) => text.startsWith('/v5')), 'one copy of each route');

    const operation = page.locator('.opblock').filter({ has: page.locator('.opblock-summary-path', { hasText: /^\/api$/ }) });
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();
    const status = operation.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor();
    assert.equal((await status.innerText()).trim(), '200');
    assert.match(await operation.locator('.live-responses-table .microlight').first().innerText(), /"Healthy"/);
    assert.deepEqual(failures, []);
    await page.close();
  });
});
