import { COLORS, MAX_CHANGE_ROWS } from '../page-data.js';
import { ARROW, count, fileLink } from '../format.js';
import { html, type SafeHtml } from '../safe-html.js';
import type { ReportModel } from '../model.js';
import { cards, type Card } from './parts.js';

/** Rows in the table at once; a search looks through every row the page carries. */
export const ROWS_SHOWN = 200;

const summaryCards = (model: ReportModel, total: number): SafeHtml => {
  const changes: Card = { label: 'field changes', value: total, color: COLORS.updated, id: 'changes-total' };
  if (model.kind === 'undo') return cards([changes]);
  const verb = model.dryRun ? 'to ' : '';
  return cards([
    {
      label: `contacts ${verb}create`,
      value: model.totals.created,
      color: COLORS.created,
      id: 'planned-creates',
    },
    {
      label: `contacts ${verb}update`,
      value: model.totals.updated,
      color: COLORS.updated,
      id: 'planned-updates',
    },
    changes,
  ]);
};

/**
 * Field-level changes: for a dry run, the updates it plans (each changed field old -> new); for
 * an undo, the fields it put back. The rows travel as JSON and the page's script builds at most
 * ROWS_SHOWN table rows from them (as text), filtered by the search box: a few thousand rows
 * cost the page nothing at open.
 */
export const changesSection = (model: ReportModel): SafeHtml => {
  const changes = model.changes;
  if (!changes) return html``;
  const planned = model.kind === 'run' && model.dryRun;
  const heading =
    model.kind === 'undo'
      ? 'Fields restored'
      : planned
        ? 'Planned updates, field by field'
        : 'Updates, field by field';
  const carried = Math.min(changes.rows.length, MAX_CHANGE_ROWS);
  const file = changes.file
    ? html` Every change is a row of <a href="${fileLink(changes.file)}">${changes.file}</a>.`
    : '';
  const scope =
    carried < changes.total
      ? html`This page holds the first ${count(carried)} of ${count(changes.total)} changes.${file}`
      : html`${count(changes.total)} changes.${file}`;
  const table =
    carried === 0
      ? html``
      : html`<p>
            <input
              type="search"
              id="changes-search"
              placeholder="Search file, contact, field or value"
              aria-label="Search the changes"
            />
            <span class="msg" id="changes-count"></span>
          </p>
          <div class="scroll">
            <table id="changes-table" class="fixed">
              <colgroup>
                <col style="width:22%" />
                <col style="width:7%" />
                <col style="width:14%" />
                <col style="width:14%" />
                <col />
              </colgroup>
              <thead>
                <tr>
                  <th>file</th>
                  <th class="num">row</th>
                  <th>contact</th>
                  <th>field</th>
                  <th>old ${ARROW} new</th>
                </tr>
              </thead>
              <tbody></tbody>
            </table>
          </div>
          <noscript><p class="note">The table of changes needs JavaScript.</p></noscript>`;
  return html`<section id="changes" data-rows-shown="${ROWS_SHOWN}">
    <h2>${heading}</h2>
    ${summaryCards(model, changes.total)}
    <p class="note">${scope}</p>
    ${table}
  </section>`;
};
