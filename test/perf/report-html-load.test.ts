import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtmlReport } from '../../src/report/html/index.js';
import { syntheticRunModel } from '../fixtures/report-models.js';
import { launchChromium, openReport, type OpenedPage } from '../e2e/browser.js';
import { tempDir } from '../e2e/harness.js';

/**
 * Performance (npm run test:perf, not npm test): how fast report.html of a 1,000,000-row run
 * opens. What it shows is checked in test/e2e/report-html-scale.test.ts.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('report.html of a 1,000,000-row dry run', () => {
  it('loads with its charts drawn in under 2 s', async () => {
    const file = join(tempDir(), 'report.html');
    writeFileSync(file, renderHtmlReport(syntheticRunModel()));
    // The browser's own clock, median of three fresh pages after a warm-up.
    await (await openReport(browser, file)).page.close();
    const loads: OpenedPage[] = [];
    for (let i = 0; i < 3; i += 1) loads.push(await openReport(browser, file));
    const times = loads.map((l) => l.loadMs).sort((a, b) => a - b);
    expect(times[1]).toBeLessThan(2000);
    expect(await loads[0]!.page.getAttribute('body', 'data-charts')).toBe('drawn');
  });
});
