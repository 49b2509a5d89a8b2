import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderHtmlReport, runInvariant, type RunReportModel } from '../../../../src/report/html/index.js';
import { CHANGE_VALUE_CHARS, MAX_CHANGE_ROWS, pageData } from '../../../../src/report/html/page-data.js';
import { BROWSER_SCRIPT } from '../../../../src/report/html/browser-script.js';
import { syntheticRunModel, syntheticUndoModel } from '../../../fixtures/report-models.js';

const HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)>';

const scripts = (page: string): string[] =>
  [...page.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);

const small = (over: Partial<RunReportModel> = {}): RunReportModel => ({
  ...syntheticRunModel({ read: 1000, codes: 5, fields: 4, samples: 20, changes: 10, hostile: HOSTILE }),
  ...over,
});

describe('renderHtmlReport', () => {
  it('shows hostile values only as escaped text, in every section', () => {
    const model = small();
    model.inputs[0]!.path = `/tmp/${HOSTILE}.csv`;
    const page = renderHtmlReport(model);
    expect(page).not.toContain(HOSTILE);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;');
    expect(page.match(/<script/g)).toHaveLength(3);
    expect(page.match(/<\/script/gi)).toHaveLength(3);
    expect(page).not.toMatch(/<img|<svg|onerror=alert\(2\)>/);
  });

  it('allows by its CSP exactly its own two scripts and no request', () => {
    const page = renderHtmlReport(small());
    const attribute = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)![1]!;
    const csp = attribute.replace(/&#39;/g, "'");
    const [data, library, own] = scripts(page);
    const hash = (code: string) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`;
    expect(csp).toContain(`script-src ${hash(library!)} ${hash(own!)};`);
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/connect-src 'none'/);
    expect(/script-src [^;]*/.exec(csp)![0]).not.toContain('unsafe');
    expect(JSON.parse(data!)).toEqual(pageData(small()));
    expect(library).toContain('Chart.js v4.6.1');
  });

  it('keeps its own script plain ASCII (an HTML parser rewrites NUL, which would break the hash)', () => {
    expect(BROWSER_SCRIPT).toMatch(/^[\t\n\x20-\x7e]*$/);
  });

  it('checks the invariant and says by how much it is off', () => {
    const model = small();
    expect(runInvariant(model.totals)).toEqual({ read: 1000, sum: 1000, holds: true });
    expect(renderHtmlReport(model)).toContain('data-holds="true"');
    const broken = small({ totals: { ...model.totals, created: model.totals.created + 3 } });
    const page = renderHtmlReport(broken);
    expect(page).toContain('data-holds="false"');
    expect(page).toContain('the outcomes add up to 1,003, 3 more than read');
  });

  it('stays the same size whatever the number of records: aggregates and bounded samples only', () => {
    const thousand = renderHtmlReport(syntheticRunModel({ read: 1000 })).length;
    const tenMillion = renderHtmlReport(syntheticRunModel({ read: 10_000_000 })).length;
    expect(Math.abs(tenMillion - thousand)).toBeLessThan(5_000);
    const flood = syntheticRunModel({ samples: 100_000, changes: 20_000 });
    flood.changes!.rows[0]!.new = 'y'.repeat(100_000);
    const data = pageData(flood);
    expect(data.progress!.t).toHaveLength(500);
    expect(data.changes).toHaveLength(MAX_CHANGE_ROWS);
    expect(data.changes![0]!.new.length).toBe(CHANGE_VALUE_CHARS + 1);
    expect(renderHtmlReport(flood).length).toBeLessThan(2 * 1024 * 1024);
  });

  it('links the files beside it relatively, whatever their names', () => {
    const model = small();
    model.issues!.file = 'javascript:alert(1)';
    const page = renderHtmlReport(model);
    expect(page).toContain('href="./javascript%3Aalert(1)"');
    expect(page).not.toContain('href="javascript');
  });

  it('renders an undo with its own totals and no invariant of a run', () => {
    const page = renderHtmlReport(syntheticUndoModel());
    expect(page).toContain('data-kind="undo"');
    expect(page).toContain('Undo report');
    for (const key of ['restored', 'archived', 'conflicts', 'notUndone', 'failed'])
      expect(page).toContain(`data-total="${key}"`);
    expect(page).not.toContain('id="invariant"');
    expect(pageData(syntheticUndoModel()).outcome.labels).toEqual([
      'read',
      'restored',
      'archived',
      'conflicts',
      'not undone',
      'failed',
    ]);
  });
});
