import { MAX_BARS } from '../page-data.js';
import { clip, count, DOT, fileLink, fileName, plural } from '../format.js';
import { html, type SafeHtml } from '../safe-html.js';
import type { IssueExample, IssuesModel } from '../model.js';
import { chartBox, dataTable } from './parts.js';

/** Examples shown per code or column, and columns listed in the table. */
const EXAMPLES_SHOWN = 3;
const COLUMNS_LISTED = 50;

const example = (e: IssueExample, withCode: boolean): SafeHtml =>
  html`<li>
    <span class="mono" title="${e.file}">${fileName(e.file)}</span> row <b>${count(e.row)}</b>${
      e.field ? html` ${DOT} column <b>${e.field}</b>` : ''
    }${withCode ? html` ${DOT} <code>${e.code}</code>` : ''}${
      e.value ? html` ${DOT} <span class="value-text">${clip(e.value)}</span>` : ''
    }<br /><span class="msg">${clip(e.message, 240)}</span>
  </li>`;

/** The first example in full; the next ones folded, so a long list of codes stays short to scan. */
const examples = (list: IssueExample[], withCode: boolean): SafeHtml => {
  const [first, ...rest] = list.slice(0, EXAMPLES_SHOWN);
  if (!first) return html``;
  const more =
    rest.length > 0
      ? html`<details>
          <summary>${plural(rest.length, 'more example')}</summary>
          <ul class="examples">
            ${rest.map((e) => example(e, withCode))}
          </ul>
        </details>`
      : '';
  return html`<ul class="examples">
      ${example(first, withCode)}
    </ul>
    ${more}`;
};

const codeTable = (issues: IssuesModel): SafeHtml => {
  const href = fileLink(issues.file);
  const rows = [...issues.byCode]
    .sort((a, b) => b.count - a.count)
    .map(
      (c) =>
        html`<tr data-code="${c.code}">
          <td><code>${c.code}</code></td>
          <td class="sev-${c.severity}">${c.severity}</td>
          <td class="num">${count(c.count)}</td>
          <td class="wrap">${examples(c.examples, false)}</td>
          <td>
            <a href="${href}" title="rows of ${issues.file} whose code is ${c.code}"
              >${plural(c.count, 'row')}</a
            >
          </td>
        </tr>`,
    );
  return dataTable(
    'issues-by-code',
    [
      'code',
      'severity',
      { label: 'count', numeric: true },
      'examples (file, row, column, value)',
      'issues.csv',
    ],
    rows,
  );
};

const fieldTable = (issues: IssuesModel): SafeHtml => {
  const sorted = [...issues.byField].sort((a, b) => b.count - a.count);
  const rows = sorted.slice(0, COLUMNS_LISTED).map(
    (f) =>
      html`<tr>
        <td class="wrap"><b>${f.field || '(whole record)'}</b></td>
        <td class="num">${count(f.count)}</td>
        <td class="wrap">${examples(f.examples, true)}</td>
      </tr>`,
  );
  const more =
    sorted.length > COLUMNS_LISTED
      ? html`<p class="note">${count(sorted.length - COLUMNS_LISTED)} more columns: see issues.csv.</p>`
      : html``;
  return html`${dataTable('issues-by-field', ['column', { label: 'count', numeric: true }, 'examples'], rows)}${more}`;
};

/** Issues by code and by column: two bar charts, then each with its first examples. */
export const issuesSection = (issues: IssuesModel | undefined): SafeHtml => {
  if (!issues || issues.byCode.length === 0) {
    return html`<section id="issues">
      <h2>Issues</h2>
      <p class="note">No issue: every record read was clean.</p>
    </section>`;
  }
  const total = issues.byCode.reduce((n, c) => n + c.count, 0);
  const codeBars = Math.min(issues.byCode.length, MAX_BARS + 1);
  const fieldBars = Math.min(issues.byField.length, MAX_BARS + 1);
  return html`<section id="issues">
    <h2>Issues: <span id="issues-total">${count(total)}</span></h2>
    <p class="note">
      Every issue is a row of <a href="${fileLink(issues.file)}">${issues.file}</a> (beside this page), with
      its file, row, column, value and message: filter its <code>code</code> or <code>field</code> column to
      see them all.
    </p>
    <div class="two">
      <div>
        <h3>By code</h3>
        ${chartBox('chart-issues-code', codeBars, 'Issues by code')}
      </div>
      <div>
        <h3>By column</h3>
        ${chartBox('chart-issues-field', fieldBars, 'Issues by column')}
      </div>
    </div>
    <h3>Codes, with examples</h3>
    ${codeTable(issues)}
    <h3>Columns, with examples</h3>
    ${fieldTable(issues)}
  </section>`;
};
