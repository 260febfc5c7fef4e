// Real headless Chromium (Debian's package) driven by playwright-core, with a fresh profile each launch.
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));

/** Why browser tests cannot run here, or false when they can. CI installs Chromium (.ci/run). */
export const needsChromium = CHROMIUM ? false : 'needs Chromium: apt-get install chromium';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM!,
    headless: true,
    // This machine has no network beyond loopback: background services would only fail and wait.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
