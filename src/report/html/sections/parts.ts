import { COLORS } from '../page-data.js';
import { count } from '../format.js';
import { html, type SafeHtml } from '../safe-html.js';

/** A canvas sized for `bars` horizontal bars (or a fixed height for a line chart). */
export const chartBox = (id: string, bars: number, label: string, height?: number): SafeHtml =>
  html`<div class="chart" style="height:${height ?? 40 + bars * 30}px">
    <canvas id="${id}" role="img" aria-label="${label}"></canvas>
  </div>`;

export interface Card {
  label: string;
  /** A number is written with thousands separators. */
  value: number | string;
  color?: string;
  /** The value element's id (tests and links find the number by it). */
  id?: string;
  /** `data-total` of the card: which total of report.json it shows. */
  total?: string;
}

const cardHtml = (c: Card): SafeHtml =>
  html`<div
    class="card"
    style="--c:${c.color ?? COLORS.read}"
    ${c.total ? html` data-total="${c.total}"` : ''}
  >
    <div class="label">${c.label}</div>
    <div class="value" ${c.id ? html` id="${c.id}"` : ''}>
      ${typeof c.value === 'number' ? count(c.value) : c.value}
    </div>
  </div>`;

/** A row of number cards; `hero` for the one big number above the others. */
export const cards = (list: Card[], kind: 'cards' | 'cards hero' = 'cards'): SafeHtml =>
  html`<div class="${kind}">${list.map(cardHtml)}</div>`;

export type Column = string | { label: string; numeric: true };

/** A table in a scrolling box, its header row sticky. */
export const dataTable = (id: string, columns: Column[], rows: SafeHtml[]): SafeHtml => {
  const head = columns.map((c) =>
    typeof c === 'string' ? html`<th>${c}</th>` : html`<th class="num">${c.label}</th>`,
  );
  return html`<div class="scroll">
    <table id="${id}">
      <thead>
        <tr>
          ${head}
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
  </div>`;
};
