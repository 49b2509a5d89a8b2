/** contact-import as a library: the same core the command line is a thin layer over. */
export { runImport, EXIT, type RunOptions, type RunResult, type RunProgress } from './run/run.js';
export { listRuns, type RunListing } from './run/runs-list.js';
export type { RunHooks, RunStep } from './run/hooks.js';
export type { HostControls } from './run/host-controls.js';
export {
  undoRun,
  type UndoOptions,
  type UndoResult,
  type UndoReport,
  type UndoTotals,
} from './undo/index.js';
export type { TargetSpec } from './run/target.js';
export { loadPipeline, listPipelines, createRowMapper, type Pipeline } from './mapping/index.js';
export { openSource, detectFormat } from './readers/index.js';
export * as normalize from './normalize/index.js';
export {
  createClient,
  resolveApiKey,
  RequestError,
  isRequestError,
  type ServiceClient,
  type ClientOptions,
} from './client/index.js';
export * as schemas from './core/schemas/index.js';
export { startLocalService, type LocalService, type LocalServiceOptions } from './server/index.js';
export { openLedger, scopeId, type Ledger, type LedgerScope } from './state/index.js';
export { ImportError, isImportError, RUN_CODES, ISSUE_CODES, SERVICE_CODES } from './core/errors/index.js';
export type { RunReport } from './report/run-report.js';
export type { Issue, Totals } from './core/types.js';
export type { DraftContact } from './mapping/types.js';
export type { SourceItem, InputInfo, Dialect } from './readers/types.js';
