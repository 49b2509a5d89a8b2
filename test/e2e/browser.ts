import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from './harness.js';

/** Debian's chromium; never a browser download (PROTOCOL.md). */
export const CHROMIUM = process.env.CONTACT_IMPORT_CHROMIUM ?? '/usr/bin/chromium';

/** Screenshots the browser tests keep, ignored by git (README "Browser tests"). */
export const ARTIFACTS = join(ROOT, 'test/artifacts');

/** Fails, never skips, when the browser is missing: a silent skip would hide an untested page. */
export const launchChromium = async (): Promise<Browser> => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}: the report.html browser tests need it. ` +
        'Install it with `apt-get update && apt-get install -y --no-install-recommends chromium` ' +
        '(or set CONTACT_IMPORT_CHROMIUM to a Chromium binary).',
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
};

export interface OpenedPage {
  page: Page;
  /** Every URL the page asked for (the file itself included). */
  requests: string[];
  /** Every alert/confirm/prompt the page opened. */
  dialogs: string[];
  /** Script errors and console errors (a CSP violation is one). */
  errors: string[];
  /** Wall time from the test's goto to the load event with every chart drawn (Playwright's overhead included). */
  wallMs: number;
  /** The browser's own clock, from navigation start to the later of the load event and the charts drawn. */
  loadMs: number;
}

/** Opens a report.html from disk and waits until its script says the charts are drawn (or failed). */
export const openReport = async (browser: Browser, file: string): Promise<OpenedPage> => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const requests: string[] = [];
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const started = performance.now();
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  await page
    .waitForSelector('body:not([data-charts="pending"])', { state: 'attached', timeout: 10_000 })
    .catch((error: Error) => {
      throw new Error(
        `the page's script never finished (${errors.join('; ') || 'no error seen'}): ${error.message}`,
      );
    });
  const wallMs = performance.now() - started;
  const loadMs = await page.evaluate(`Math.max(performance.getEntriesByType('navigation')[0].loadEventEnd,
    Number(document.body.getAttribute('data-drawn-ms') || Infinity))`);
  return { page, requests, dialogs, errors, wallMs, loadMs: Number(loadMs) };
};

/** The little of the DOM these checks touch (the project compiles without the DOM library). */
interface CanvasLike {
  id: string;
  width: number;
  height: number;
  getContext(kind: '2d'): {
    getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
  };
}

/** For each canvas: drawn by Chart.js and holding painted (non-transparent) pixels. */
export const canvasesDrawn = (page: Page): Promise<{ id: string; chart: boolean; painted: number }[]> =>
  page.$$eval('canvas', (canvases) =>
    canvases.map((c) => {
      const canvas = c as unknown as CanvasLike;
      const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let painted = 0;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) painted += 1;
      const chart = (globalThis as unknown as { Chart: { getChart(c: CanvasLike): unknown } }).Chart;
      return { id: canvas.id, chart: chart.getChart(canvas) !== undefined, painted };
    }),
  );

export const screenshot = async (page: Page, name: string): Promise<string> => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, name);
  await page.screenshot({ path, fullPage: true });
  return path;
};
