import { COLORS } from '../page-data.js';
import { clip, count, DASH, delimiterName } from '../format.js';
import { html, type SafeHtml } from '../safe-html.js';
import type { RunReportModel } from '../model.js';
import { cards, dataTable } from './parts.js';

const unused = (columns: string[] | undefined): SafeHtml =>
  columns && columns.length > 0
    ? html`${clip(columns.slice(0, 20).join(', '), 300)}${columns.length > 20 ? ` (+${columns.length - 20})` : ''}`
    : html`${DASH}`;

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
  const created = COLORS.created;
  return html`<section id="inputs">
    <h2>Inputs</h2>
    <p class="note">Pipeline <b id="pipeline">${model.pipeline}</b> for every input.</p>
    ${dataTable(
      'inputs-table',
      ['file', 'format', 'encoding', 'delimiter', { label: 'records', numeric: true }, 'columns not used'],
      rows,
    )}
    <h3>Groups, custom fields and reminders</h3>
    ${cards([
      { label: `groups created${planned}`, value: model.groups.created, color: created },
      { label: 'groups existing', value: model.groups.existing },
      { label: `custom fields created${planned}`, value: model.customFields.created, color: created },
      { label: 'custom fields existing', value: model.customFields.existing },
      { label: `reminders created${planned}`, value: model.reminders.created, color: created },
      { label: `reminders updated${planned}`, value: model.reminders.updated, color: COLORS.updated },
    ])}
  </section>`;
};
