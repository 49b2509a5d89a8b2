import { chartBox } from './chart-box.js';
import { count, duration, perSecond } from '../format.js';
import { html, type SafeHtml } from '../safe-html.js';
import type { ReportModel } from '../model.js';

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
  return html`<h3>By endpoint</h3>
    <div class="scroll">
      <table id="requests-by-endpoint">
        <thead>
          <tr>
            <th>request</th>
            <th class="num">sent</th>
            <th class="num">retried</th>
            <th class="num">failed</th>
          </tr>
        </thead>
        <tbody>
          ${rows}
        </tbody>
      </table>
    </div>`;
};

/** Requests, retries and throughput, with their course over the run from the progress samples. */
export const activitySection = (model: ReportModel): SafeHtml => {
  const { requests, totals, durationMs } = model;
  const loaded =
    model.kind === 'run'
      ? model.totals.created + model.totals.updated + model.totals.unchanged
      : model.totals.restored + model.totals.archived;
  const reused = model.kind === 'run' && model.inputsUnchangedSince !== undefined;
  const chart =
    model.samples.length >= 2
      ? chartBox('chart-progress', 0, 'Records and requests over time', 300)
      : html`<p class="note">The run was too short for a course over time.</p>`;
  return html`<section class="later" id="activity">
    <h2>Requests and throughput</h2>
    <div class="cards">
      <div class="card" style="--c:#2563eb">
        <div class="label">requests sent</div>
        <div class="value" id="requests-sent">${count(requests.sent)}</div>
      </div>
      <div class="card" style="--c:#f59e0b">
        <div class="label">retried</div>
        <div class="value" id="requests-retried">${count(requests.retried)}</div>
      </div>
      <div class="card" style="--c:#dc2626">
        <div class="label">failed</div>
        <div class="value" id="requests-failed">${count(requests.failed)}</div>
      </div>
      <div class="card">
        <div class="label">duration</div>
        <div class="value">${duration(durationMs)}</div>
      </div>
      <div class="card">
        <div class="label">read / s</div>
        <div class="value">${reused ? '–' : perSecond(totals.read, durationMs)}</div>
      </div>
      <div class="card" style="--c:#16a34a">
        <div class="label">${model.kind === 'run' ? 'loaded' : 'undone'} / s</div>
        <div class="value">${reused ? '–' : perSecond(loaded, durationMs)}</div>
      </div>
    </div>
    ${chart}${endpoints(model)}
  </section>`;
};
