import { COLORS } from '../page-data.js';
import { count, duration, perSecond } from '../format.js';
import { html, type SafeHtml } from '../safe-html.js';
import type { ReportModel } from '../model.js';
import { cards, chartBox, dataTable } from './parts.js';

const endpoints = (model: ReportModel): SafeHtml => {
  const byEndpoint = model.requests.byEndpoint;
  if (!byEndpoint || Object.keys(byEndpoint).length === 0) return html``;
  const rows = Object.entries(byEndpoint)
    .sort((a, b) => b[1].sent - a[1].sent)
    .map(
      ([route, c]) =>
        html`<tr>
          <td class="mono">${route}</td>
          <td class="num">${count(c.sent)}</td>
          <td class="num">${count(c.retried)}</td>
          <td class="num">${count(c.failed)}</td>
        </tr>`,
    );
  const numeric = (label: string) => ({ label, numeric: true as const });
  return html`<h3>By endpoint</h3>
    ${dataTable(
      'requests-by-endpoint',
      ['request', numeric('sent'), numeric('retried'), numeric('failed')],
      rows,
    )}`;
};

/** Requests, retries and throughput, with their course over the run from the progress samples. */
export const activitySection = (model: ReportModel): SafeHtml => {
  const { requests, totals, durationMs } = model;
  const loaded =
    model.kind === 'run'
      ? model.totals.created + model.totals.updated + model.totals.unchanged
      : model.totals.restored + model.totals.archived;
  // A run that reused an earlier outcome read nothing: a records/s figure would be fiction.
  const reused = model.kind === 'run' && model.inputsUnchangedSince !== undefined;
  const chart =
    model.samples.length >= 2
      ? chartBox('chart-progress', 0, 'Records and requests over time', 300)
      : html`<p class="note">The run was too short for a course over time.</p>`;
  if (model.dryRun) return plannedActivity(model, chart);
  return html`<section id="activity">
    <h2>Requests and throughput</h2>
    ${cards([
      { label: 'requests sent', value: requests.sent, color: COLORS.updated, id: 'requests-sent' },
      { label: 'retried', value: requests.retried, color: COLORS.pending, id: 'requests-retried' },
      { label: 'failed', value: requests.failed, color: COLORS.rejected, id: 'requests-failed' },
      { label: 'duration', value: duration(durationMs) },
      { label: 'read / s', value: reused ? '–' : perSecond(totals.read, durationMs) },
      {
        label: `${model.kind === 'run' ? 'loaded' : 'undone'} / s`,
        value: reused ? '–' : perSecond(loaded, durationMs),
        color: COLORS.created,
      },
    ])}
    ${chart}${endpoints(model)}
  </section>`;
};

/**
 * A dry run writes nothing and loads nothing: its page shows what it read and how it looked
 * contacts up (searches only, to plan), never a figure of sending or loading.
 */
const plannedActivity = (model: ReportModel, chart: SafeHtml): SafeHtml => {
  const { requests, totals, durationMs } = model;
  return html`<section id="activity">
    <h2>Reading and look-ups (dry run: nothing written)</h2>
    ${cards([
      { label: 'look-ups (searches)', value: requests.sent, color: COLORS.updated, id: 'lookups-sent' },
      { label: 'look-ups retried', value: requests.retried, color: COLORS.pending, id: 'requests-retried' },
      { label: 'look-ups failed', value: requests.failed, color: COLORS.rejected, id: 'requests-failed' },
      { label: 'duration', value: duration(durationMs) },
      { label: 'read / s', value: perSecond(totals.read, durationMs) },
    ])}
    ${chart}${endpoints(model)}
  </section>`;
};
