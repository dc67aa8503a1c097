/**
 * The Studio tests' shared setup (review item D4): Debian's /usr/bin/chromium through playwright-core,
 * the built UI (dist/web) served on a free port, and every console error and page error collected
 * so a test can assert there were none. Call `useStudio()` inside a describe block.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { serveUi, type UiServer } from '../../src/node/ui-server.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'];
/** Where the Studio tests write their screenshots. */
export const SHOTS = 'out/web-screenshots';

export interface Studio {
  /** A new page at `hash` (e.g. `#view=traffic`), its console and page errors collected into `errors`. */
  open(hash: string, width?: number, height?: number): Promise<Page>;
  /** Every console error and uncaught page error so far, in order. */
  readonly errors: string[];
}

export function useStudio(): Studio {
  let ui: UiServer;
  let browser: Browser;
  const errors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (listed in .ci/apt-packages)`);
    if (!existsSync('dist/web/index.html')) throw new Error('dist/web is missing: run `npm run build` first');
    mkdirSync(SHOTS, { recursive: true });
    ui = await serveUi({ port: 0, host: '127.0.0.1', root: 'dist/web' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await ui?.close();
  });

  return {
    errors,
    async open(hash, width = 1400, height = 1000) {
      const page = await browser.newPage({ viewport: { width, height } });
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${ui.url}${hash}`);
      return page;
    },
  };
}
