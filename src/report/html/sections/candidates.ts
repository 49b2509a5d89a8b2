import { clip, count, fileLink } from '../format.js';
import type { RunReportModel } from '../model.js';
import { html, type SafeHtml } from '../safe-html.js';
import { cards, dataTable } from './parts.js';

/** candidates.csv's columns the page reads (candidates/csv.ts CANDIDATE_COLUMNS). */
const CELL = {
  band: 0,
  score: 1,
  aFile: 2,
  aRow: 3,
  bFile: 4,
  bRow: 5,
  aName: 7,
  bName: 8,
  aEmail: 9,
  bEmail: 10,
  reasons: 11,
  cluster: 12,
};

const place = (file: string, row: string): string => `${file.split(/[\\/]/u).pop() ?? file} row ${row}`;

const pairRow = (cells: string[]): SafeHtml => {
  const at = (i: number) => cells[i] ?? '';
  return html`<tr>
    <td>${at(CELL.band)}</td>
    <td class="num">${at(CELL.score)}</td>
    <td>
      ${at(CELL.aName)}<br /><small>${at(CELL.aEmail)}<br />${place(at(CELL.aFile), at(CELL.aRow))}</small>
    </td>
    <td>
      ${at(CELL.bName)}<br /><small>${at(CELL.bEmail)}<br />${place(at(CELL.bFile), at(CELL.bRow))}</small>
    </td>
    <td><small>${clip(at(CELL.reasons), 400)}</small></td>
    <td class="num">${at(CELL.cluster)}</td>
  </tr>`;
};

/**
 * Duplicate candidates: records that are likely one person under another e-mail, the pairs side
 * by side with what the comparison found, as text. Nothing on the page merges them.
 */
export const candidatesSection = (model: RunReportModel): SafeHtml => {
  const candidates = model.candidates;
  if (!candidates) return html``;
  const total = candidates.likely + candidates.possible;
  const shown = candidates.rows.length;
  const skipped =
    candidates.blocksSkipped > 0
      ? html` ${count(candidates.blocksSkipped)} blocking keys were too common to compare whole (their records
        were compared with their nearest neighbours only).`
      : '';
  return html`<section id="candidates">
    <h2>Same person under another e-mail?</h2>
    ${cards([
      { label: 'likely pairs', value: candidates.likely, id: 'candidates-likely' },
      { label: 'possible pairs', value: candidates.possible, id: 'candidates-possible' },
      { label: 'clusters', value: candidates.clusters, id: 'candidates-clusters' },
    ])}
    <p>
      Pairs of records that no identity key joined but that look like one person. Nothing was merged:
      <a href="${fileLink(candidates.file)}">${candidates.file}</a> lists every pair
      ${shown < total ? html`(this page shows the best ${count(shown)} of ${count(total)})` : ''}.${skipped}
    </p>
    ${
      shown === 0
        ? html``
        : dataTable(
            'candidates-table',
            [
              'band',
              { label: 'score', numeric: true },
              'record A',
              'record B',
              'reasons',
              { label: 'cluster', numeric: true },
            ],
            candidates.rows.map(pairRow),
          )
    }
  </section>`;
};
