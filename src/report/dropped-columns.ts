import type { InputInfo } from '../readers/types.js';
import { formatCount } from '../core/format-count.js';

/** Records whose phone column was dropped whole: counted against --max-rejects with the rejects. */
export const droppedWholeCount = (inputs: readonly InputInfo[]): number =>
  inputs.reduce(
    (sum, input) => sum + (input.droppedColumns ?? []).reduce((n, column) => n + column.dropped, 0),
    0,
  );

/** `  people.csv: column Mobile Phone: 100 of 100 numbers dropped, counted against --max-rejects` */
export const droppedColumnLines = (inputs: readonly InputInfo[]): string[] =>
  inputs.flatMap((input) =>
    (input.droppedColumns ?? []).map(
      ({ column, dropped, values }) =>
        `  ${input.path}: column ${column}: ${formatCount(dropped)} of ${formatCount(values)} numbers dropped (invalid_phone), counted against --max-rejects`,
    ),
  );
