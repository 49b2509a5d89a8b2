export { undoRun, type UndoResult } from './undo.js';
export type { UndoOptions } from './undo-context.js';
export type { UndoReport, UndoTotals } from './report.js';
export type { UndoStep } from './apply.js';
