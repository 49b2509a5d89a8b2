import { COLORS } from '../page-data.js';
import { count } from '../format.js';
import { html, type SafeHtml } from '../safe-html.js';
import { RUN_OUTCOMES, UNDO_OUTCOMES, type ReportModel, type RunTotalsModel } from '../model.js';
import { cards, chartBox, type Card } from './parts.js';

/** `read` and the sum of the outcomes it must equal. */
export const runInvariant = (totals: RunTotalsModel): { read: number; sum: number; holds: boolean } => {
  const sum = RUN_OUTCOMES.reduce((n, key) => n + totals[key], 0);
  return { read: totals.read, sum, holds: sum === totals.read };
};

const LABELS: Record<string, string> = { notUndone: 'not undone' };

const outcomeCard = (key: string, value: number, label = LABELS[key] ?? key): Card => ({
  label,
  value,
  color: COLORS[key as keyof typeof COLORS] ?? COLORS.read,
  total: key,
});

const invariantLine = (totals: RunTotalsModel): SafeHtml => {
  const check = runInvariant(totals);
  const terms = RUN_OUTCOMES.map((key) => `${key} ${count(totals[key])}`).join(' + ');
  const verdict = check.holds
    ? '✓ holds'
    : `✗ does not hold: the outcomes add up to ${count(check.sum)}, ` +
      `${count(Math.abs(check.read - check.sum))} ${check.sum > check.read ? 'more' : 'fewer'} than read`;
  return html`<div
    class="invariant ${check.holds ? 'holds' : 'broken'}"
    id="invariant"
    data-holds="${String(check.holds)}"
  >
    every record read ends in exactly one outcome: <b>read ${count(totals.read)}</b> = ${terms}<span
      class="verdict"
      >${verdict}</span
    >
  </div>`;
};

/** The outcome at a glance: one card per outcome, the invariant checked, a bar per outcome. */
export const outcomeSection = (model: ReportModel): SafeHtml => {
  const planned = model.kind === 'run' && model.dryRun;
  const outcomes =
    model.kind === 'run'
      ? RUN_OUTCOMES.map((k) =>
          outcomeCard(
            k,
            model.totals[k],
            planned && (k === 'created' || k === 'updated') ? `${k} (planned)` : k,
          ),
        )
      : UNDO_OUTCOMES.map((k) => outcomeCard(k, model.totals[k]));
  const bars = model.kind === 'run' ? RUN_OUTCOMES.length + 1 : UNDO_OUTCOMES.length + 1;
  const warnings =
    model.kind === 'run'
      ? html`<p class="note">
          Warnings (a value dropped or replaced, the record still loaded):
          <b id="warnings">${count(model.totals.warnings)}</b>
        </p>`
      : html``;
  const reused =
    model.kind === 'run' && model.inputsUnchangedSince
      ? html`<p class="note">
          The inputs were unchanged since run <b>${model.inputsUnchangedSince}</b>: nothing was read or sent;
          its outcome counts as unchanged.
        </p>`
      : html``;
  return html`<section id="outcome">
    <h2>Outcome${planned ? ' (what a run would do)' : ''}</h2>
    ${cards([outcomeCard('read', model.totals.read)], 'cards hero')} ${cards(outcomes)}
    ${model.kind === 'run' ? invariantLine(model.totals) : html``}${warnings}${reused}
    ${chartBox('chart-outcome', bars, 'Records by outcome')}
    <p class="error" id="chart-error" hidden></p>
  </section>`;
};
