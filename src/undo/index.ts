export { undoRun, type UndoOptions, type UndoResult } from './undo.js';
export type { UndoReport, UndoTotals } from './report.js';
export type { UndoStep } from './apply.js';
