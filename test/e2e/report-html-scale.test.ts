import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtmlReport } from '../../src/report/html/index.js';
import { ROWS_SHOWN } from '../../src/report/html/sections/changes.js';
import { syntheticRunModel, syntheticUndoModel } from '../fixtures/report-models.js';
import { canvasesDrawn, launchChromium, openReport, screenshot, type OpenedPage } from './browser.js';

const MB = 1024 * 1024;
const HOSTILE = '<img src=x onerror=alert(1)></script><script>alert(2)</script>';

let browser: Browser;
let dir: string;

beforeAll(async () => {
  browser = await launchChromium();
  dir = mkdtempSync(join(tmpdir(), 'ci-html-'));
});
afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('report.html of a 1,000,000-row dry run', () => {
  // One page for the checks below, opened once: hostile values in its column names, examples and
  // change rows, which must stay text.
  let file: string;
  let opened: OpenedPage;
  beforeAll(async () => {
    file = join(dir, 'report.html');
    writeFileSync(file, renderHtmlReport(syntheticRunModel({ hostile: HOSTILE })));
    opened = await openReport(browser, file);
  });

  // How fast it opens: test/perf/report-html-load.test.ts (npm run test:perf).
  it('is under 2 MB and opens with its charts drawn', async () => {
    const size = statSync(file).size;
    expect(size).toBeLessThan(2 * MB);

    // A dry run's page shows planned figures only: nothing sent, nothing loaded.
    const text = await opened.page.innerText('body');
    expect(text).not.toMatch(/requests sent|records loaded|loaded \/ s/);
    expect(await opened.page.$('#requests-sent')).toBeNull();
    expect(await opened.page.$('#lookups-sent')).not.toBeNull();
    expect(await opened.page.getAttribute('body', 'data-charts')).toBe('drawn');
    for (const c of await canvasesDrawn(opened.page)) expect(c.painted, c.id).toBeGreaterThan(500);
    expect(await opened.page.innerText('[data-total="read"] .value')).toBe('1,000,000');
    expect(await opened.page.getAttribute('#invariant', 'data-holds')).toBe('true');
    expect(opened.errors).toEqual([]);
    expect(opened.requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    await screenshot(opened.page, 'report-html-1m-dry-run.png');
  });

  it('lists the planned updates as text and filters them as the user types', async () => {
    const { page, dialogs, errors } = opened;
    const table = async () => ({
      rows: await page.$$eval('#changes-table tbody tr', (rows) => rows.length),
      matches: Number(await page.getAttribute('#changes-table', 'data-matches')),
    });
    expect(await table()).toEqual({ rows: ROWS_SHOWN, matches: 1000 });
    expect(await page.innerText('#planned-updates')).toBe('270,000');
    await page.fill('#changes-search', `c_${(100000 + 7).toString(36)}`);
    expect(await table()).toEqual({ rows: 1, matches: 1 });
    expect(await page.innerText('#changes-table tbody')).toContain(`${HOSTILE} → New value 7`);
    await page.fill('#changes-search', 'company_name');
    expect(await table()).toEqual({ rows: ROWS_SHOWN, matches: 200 });
    await page.fill('#changes-search', 'New value 999 ');
    expect(await table()).toEqual({ rows: 1, matches: 1 });
    await page.fill('#changes-search', '');
    expect((await table()).matches).toBe(1000);
    expect(await page.$$eval('img', (e) => e.length)).toBe(0);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('renders an undo report with its own totals', async () => {
    const file = join(dir, 'undo.html');
    writeFileSync(file, renderHtmlReport(syntheticUndoModel()));
    const opened = await openReport(browser, file);
    expect(await opened.page.textContent('h1')).toContain('Undo report');
    expect(await opened.page.innerText('[data-total="restored"] .value')).toBe('700');
    expect(await opened.page.innerText('[data-total="notUndone"] .value')).toBe('6');
    expect(await opened.page.getAttribute('body', 'data-charts')).toBe('drawn');
    expect(opened.errors).toEqual([]);
    await screenshot(opened.page, 'report-html-undo.png');
  });
});
