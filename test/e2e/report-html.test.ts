import { copyFileSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_OUTCOMES } from '../../src/report/html/model.js';
import { canvasesDrawn, launchChromium, openReport, screenshot, type OpenedPage } from './browser.js';
import {
  readIssues,
  readReport,
  runCli,
  SAMPLES,
  startService,
  tempDir,
  type TestService,
} from './harness.js';

/** Values an export could hold that a careless page would run; each is an issue example here. */
const HOSTILE_EMAIL = '<img src=x onerror=alert(2)>';
const HOSTILE_PHONE = '</script><script>alert(3)</script>';
const HOSTILE_NAME = '<script>alert(1)</script>';
/** The input's own file name is shown too (inputs table, every example). */
const HOSTILE_FILE = '<svg onload=alert(4)>.csv';

let svc: TestService;
let dir: string;
let browser: Browser;
let opened: OpenedPage;
let out: string;

const shownNumber = async (selector: string): Promise<number> =>
  Number((await opened.page.textContent(selector))!.replace(/,/g, ''));

beforeAll(async () => {
  // Launched first: a missing Chromium fails here with the install command, before any run.
  browser = await launchChromium();
  svc = await startService();
  dir = tempDir();
  const input = join(dir, HOSTILE_FILE);
  copyFileSync(join(SAMPLES, 'generic.csv'), input);
  const cells = new Array<string>(21).fill('');
  cells[0] = HOSTILE_NAME;
  cells[3] = HOSTILE_EMAIL;
  cells[6] = HOSTILE_PHONE;
  writeFileSync(input, `${readFileSync(input, 'utf8').trimEnd()}\n${cells.join(',')}\n`);
  out = join(dir, 'out');
  const run = await runCli(
    ['run', 'generic', input, '--target', svc.service.url, '--state', join(dir, 'state'), '--out', out],
    { cwd: dir, env: { CONTACT_IMPORT_API_KEY: svc.key } },
  );
  expect(run.stderr).toBe('');
  expect(existsSync(join(out, 'report.html')), run.stdout).toBe(true);
  opened = await openReport(browser, join(out, 'report.html'));
});

afterAll(async () => {
  await browser?.close();
  await svc?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('report.html of a real run, in headless Chromium', () => {
  it('shows the totals of report.json and the invariant holding', async () => {
    const report = readReport(out);
    expect(report.totals.read).toBe(13);
    expect(await shownNumber('[data-total="read"] .value')).toBe(report.totals.read);
    for (const key of RUN_OUTCOMES) {
      const expected = (report.totals as unknown as Record<string, number | undefined>)[key] ?? 0;
      expect(await shownNumber(`[data-total="${key}"] .value`), key).toBe(expected);
    }
    expect(await opened.page.getAttribute('#invariant', 'data-holds')).toBe('true');
    expect(await opened.page.textContent('#invariant')).toContain(`read ${report.totals.read}`);
    expect(await shownNumber('#requests-sent')).toBe(report.requests.sent);
    expect(await shownNumber('#warnings')).toBe(report.totals.warnings);
  });

  it('shows every issue of issues.csv counted by code, with a relative link to the file', async () => {
    const report = readReport(out);
    const rows = readIssues(out);
    expect(await shownNumber('#issues-total')).toBe(rows.length);
    expect(report.issues!.byCode.reduce((n, c) => n + c.count, 0)).toBe(rows.length);
    for (const { code, count } of report.issues!.byCode) {
      expect(rows.filter((r) => r.code === code)).toHaveLength(count);
      const cell = await opened.page.textContent(`#issues-by-code tr[data-code="${code}"] td.num`);
      expect(Number(cell!.replace(/,/g, '')), code).toBe(count);
    }
    const href = await opened.page.getAttribute('#issues a', 'href');
    expect(href).toBe('./issues.csv');
    expect(statSync(join(out, href!)).isFile()).toBe(true);
  });

  it('draws every chart on its canvas', async () => {
    const canvases = await canvasesDrawn(opened.page);
    expect(canvases.map((c) => c.id).sort()).toEqual(
      ['chart-issues-code', 'chart-issues-field', 'chart-outcome', 'chart-progress'].sort(),
    );
    for (const c of canvases) {
      expect(c.chart, c.id).toBe(true);
      expect(c.painted, c.id).toBeGreaterThan(500);
    }
    expect(await opened.page.getAttribute('body', 'data-charts')).toBe('drawn');
  });

  it('shows hostile values as text: no element made of them, no dialog, no script error', async () => {
    // textContent: folded examples (<details>) count too; the scripts stand outside <main>.
    const text = (await opened.page.textContent('main'))!;
    for (const value of [HOSTILE_EMAIL, HOSTILE_PHONE, HOSTILE_FILE]) expect(text).toContain(value);
    expect(await opened.page.$$eval('img, svg', (e) => e.length)).toBe(0);
    expect(await opened.page.$$eval('script', (e) => e.length)).toBe(3);
    expect(opened.dialogs).toEqual([]);
    expect(opened.errors).toEqual([]);
  });

  it('asks for nothing but the file itself', () => {
    expect(opened.requests.length).toBeGreaterThan(0);
    expect(opened.requests.filter((url) => !url.startsWith('file:'))).toEqual([]);
  });

  it('keeps a screenshot', async () => {
    const path = await screenshot(opened.page, 'report-html-run.png');
    expect(statSync(path).size).toBeGreaterThan(10_000);
  });
});
