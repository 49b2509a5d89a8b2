import { count, DOT, duration } from '../format.js';
import { html, type SafeHtml } from '../safe-html.js';
import type { ReportModel } from '../model.js';

const statusBadge = (model: ReportModel): SafeHtml => {
  const tone =
    model.status === 'aborted' ? 'bad' : model.status === 'completed' && model.exitCode === 0 ? 'ok' : 'warn';
  return html`<span class="badge ${tone}" id="status">${model.status}</span>`;
};

/** Title, status and what ran where: the first line a reader looks at. */
export const headerSection = (model: ReportModel): SafeHtml => {
  const title = model.kind === 'undo' ? 'Undo report' : model.dryRun ? 'Dry run report' : 'Import report';
  const what =
    model.kind === 'undo'
      ? html`undo of run <b>${model.undoOf}</b>`
      : html`pipeline <b>${model.pipeline}</b>`;
  const ran = html`run <b id="run-id">${model.runId}</b> ${DOT} ${what} ${DOT} target <b>${model.target}</b>`;
  const reason = model.exitReason ? html` ${DOT} ${model.exitReason}` : '';
  return html`<header class="top">
    <div class="inner">
      <h1>
        ${title}${statusBadge(model)}${model.dryRun ? html`<span class="badge dry">dry run: nothing sent</span>` : ''}
      </h1>
      <div class="meta">${ran}</div>
      <div class="meta">
        started <b>${model.startedAt}</b> ${DOT} took <b>${duration(model.durationMs)}</b> ${DOT} exit code
        <b id="exit-code">${count(model.exitCode)}</b>${reason}
      </div>
    </div>
  </header>`;
};

/** The run-level problem that stopped the run, in words, above everything else. */
export const errorSection = (model: ReportModel): SafeHtml =>
  model.error
    ? html`<section class="error" id="run-error">
        <b>The run stopped: <code>${model.error.code}</code></b> ${model.error.message}
      </section>`
    : html``;
