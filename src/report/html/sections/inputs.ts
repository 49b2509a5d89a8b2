import { clip, count, delimiterName } from '../format.js';
import { html, type SafeHtml } from '../safe-html.js';
import type { RunReportModel } from '../model.js';

const unused = (columns: string[] | undefined): SafeHtml =>
  columns && columns.length > 0
    ? html`${clip(columns.slice(0, 20).join(', '), 300)}${columns.length > 20 ? ` (+${columns.length - 20})` : ''}`
    : html`–`;

/** What was read and how it was understood: format, encoding, delimiter, pipeline; then references. */
export const inputsSection = (model: RunReportModel): SafeHtml => {
  const rows = model.inputs.map(
    (input) =>
      html`<tr>
        <td class="wrap mono">${input.path}</td>
        <td>${input.format}</td>
        <td>${input.encoding}</td>
        <td><code>${delimiterName(input.delimiter)}</code></td>
        <td class="num">${count(input.rows)}</td>
        <td class="wrap">${unused(input.unusedColumns)}</td>
      </tr>`,
  );
  const planned = model.dryRun ? ' (planned)' : '';
  return html`<section class="later" id="inputs">
    <h2>Inputs</h2>
    <p class="note">Pipeline <b id="pipeline">${model.pipeline}</b> for every input.</p>
    <div class="scroll">
      <table id="inputs-table">
        <thead>
          <tr>
            <th>file</th>
            <th>format</th>
            <th>encoding</th>
            <th>delimiter</th>
            <th class="num">records</th>
            <th>columns not used</th>
          </tr>
        </thead>
        <tbody>
          ${rows}
        </tbody>
      </table>
    </div>
    <h3>Groups, custom fields and reminders</h3>
    <div class="cards">
      <div class="card" style="--c:#16a34a">
        <div class="label">groups created${planned}</div>
        <div class="value">${count(model.groups.created)}</div>
      </div>
      <div class="card">
        <div class="label">groups existing</div>
        <div class="value">${count(model.groups.existing)}</div>
      </div>
      <div class="card" style="--c:#16a34a">
        <div class="label">custom fields created${planned}</div>
        <div class="value">${count(model.customFields.created)}</div>
      </div>
      <div class="card">
        <div class="label">custom fields existing</div>
        <div class="value">${count(model.customFields.existing)}</div>
      </div>
      <div class="card" style="--c:#16a34a">
        <div class="label">reminders created${planned}</div>
        <div class="value">${count(model.reminders.created)}</div>
      </div>
      <div class="card" style="--c:#2563eb">
        <div class="label">reminders updated${planned}</div>
        <div class="value">${count(model.reminders.updated)}</div>
      </div>
    </div>
  </section>`;
};
