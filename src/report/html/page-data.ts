import { downsample } from '../progress-samples.js';
import { clip } from './format.js';
import { RUN_OUTCOMES, UNDO_OUTCOMES, type ChangeRow, type ReportModel } from './model.js';

/** Bars per issue chart; the rest are summed into one "other" bar. */
export const MAX_BARS = 20;

/** Change rows the page carries, and the length old and new values are cut to (changes.csv has them whole). */
export const MAX_CHANGE_ROWS = 2000;
export const CHANGE_VALUE_CHARS = 160;

export const COLORS = {
  read: '#64748b',
  rejected: '#dc2626',
  duplicates: '#a855f7',
  merged: '#c026d3',
  created: '#16a34a',
  updated: '#2563eb',
  unchanged: '#94a3b8',
  failed: '#b91c1c',
  pending: '#f59e0b',
  restored: '#2563eb',
  archived: '#16a34a',
  conflicts: '#f59e0b',
  notUndone: '#a855f7',
  error: '#dc2626',
  warning: '#d97706',
  column: '#0891b2',
} as const;

export interface BarSeries {
  labels: string[];
  values: number[];
  colors: string[];
}

/** What the page's script draws and lists; serialized into the page as JSON (script-embedding.ts). */
export interface PageData {
  outcome: BarSeries;
  issuesByCode?: BarSeries;
  issuesByField?: BarSeries;
  /** Columns of the progress samples; `t` in seconds. */
  progress?: { t: number[]; read: number[]; loaded: number[]; requests: number[]; retries: number[] };
  /** The change rows, built into the table by the script so the page's DOM stays small. */
  changes?: ChangeRow[];
}

const LABELS: Record<string, string> = { notUndone: 'not undone' };

const topBars = (items: { label: string; count: number; color: string }[]): BarSeries => {
  const shown = items.slice(0, MAX_BARS);
  const rest = items.slice(MAX_BARS).reduce((n, item) => n + item.count, 0);
  if (rest > 0) shown.push({ label: `${items.length - MAX_BARS} more`, count: rest, color: COLORS.read });
  return {
    labels: shown.map((i) => i.label),
    values: shown.map((i) => i.count),
    colors: shown.map((i) => i.color),
  };
};

const outcomeBars = (model: ReportModel): BarSeries => {
  const keys: readonly string[] = model.kind === 'run' ? RUN_OUTCOMES : UNDO_OUTCOMES;
  const totals = model.totals as unknown as Record<string, number>;
  const labels = ['read', ...keys];
  return {
    labels: labels.map((k) => LABELS[k] ?? k),
    values: labels.map((k) => totals[k] ?? 0),
    colors: labels.map((k) => COLORS[k as keyof typeof COLORS] ?? COLORS.read),
  };
};

export const pageData = (model: ReportModel): PageData => {
  const data: PageData = { outcome: outcomeBars(model) };
  const issues = model.issues;
  if (issues && issues.byCode.length > 0) {
    data.issuesByCode = topBars(
      [...issues.byCode]
        .sort((a, b) => b.count - a.count)
        .map((c) => ({ label: c.code, count: c.count, color: COLORS[c.severity] })),
    );
    data.issuesByField = topBars(
      [...issues.byField]
        .sort((a, b) => b.count - a.count)
        .map((f) => ({ label: f.field || '(whole record)', count: f.count, color: COLORS.column })),
    );
  }
  const samples = downsample(model.samples);
  if (samples.length >= 2) {
    data.progress = {
      t: samples.map((s) => Math.round(s.t / 100) / 10),
      read: samples.map((s) => s.read),
      // A dry run loads nothing: its course shows what it read, not a load it did not make.
      loaded: model.dryRun ? [] : samples.map((s) => s.loaded),
      requests: samples.map((s) => s.requests),
      retries: samples.map((s) => s.retries),
    };
  }
  if (model.changes && model.changes.rows.length > 0) {
    data.changes = model.changes.rows.slice(0, MAX_CHANGE_ROWS).map((c) => ({
      ...c,
      old: clip(c.old, CHANGE_VALUE_CHARS),
      new: clip(c.new, CHANGE_VALUE_CHARS),
    }));
  }
  return data;
};
