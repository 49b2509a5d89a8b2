import { html, type SafeHtml } from '../safe-html.js';

/** A canvas sized for `bars` horizontal bars (or a fixed height for a line chart). */
export const chartBox = (id: string, bars: number, label: string, height?: number): SafeHtml =>
  html`<div class="chart" style="height:${height ?? 40 + bars * 30}px">
    <canvas id="${id}" role="img" aria-label="${label}"></canvas>
  </div>`;
