import type { Logger } from 'pino';
import type { ClientOptions } from '../client/index.js';
import type { IssueCount } from '../core/types.js';
import type { Pipeline } from '../mapping/index.js';
import type { RunReport } from '../report/run-report.js';
import type { HostControls } from './host-controls.js';
import type { RunHooks } from './hooks.js';
import type { RunSettingsInput } from './options.js';
import type { TargetSpec } from './target.js';

export interface RunProgress {
  phase: 'read' | 'load';
  /** Records read, or records settled by the load. */
  done: number;
  /** Load: the records to settle. */
  total?: number;
  /** Read: bytes of the inputs read so far, and their size when every input is a plain file. */
  bytes?: number;
  totalBytes?: number;
}

export interface RunOptions extends RunSettingsInput {
  /** A built-in pipeline name, a path to a YAML file, or a loaded pipeline. */
  pipeline: string | Pipeline;
  /**
   * The pipeline of each input, in input order, when the inputs are read with different ones (each
   * detected on its own); absent: every input reads with `pipeline`.
   */
  inputPipelines?: readonly (string | Pipeline)[];
  /** Absent: the local service, in-process, with its database in the state directory. */
  target?: TargetSpec;
  /**
   * Graceful stop (Ctrl-C): nothing new starts, requests in flight finish, the report says
   * `interrupted`, exit code 130; 143 when aborted with the reason `'SIGTERM'` (as a shell reports
   * a terminated process).
   */
  signal?: AbortSignal;
  stdin?: NodeJS.ReadableStream;
  logger?: Logger;
  onProgress?: (progress: RunProgress) => void;
  /** Transport settings for the client (timeouts, retries); the URL and key come from `target`. */
  client?: Partial<Omit<ClientOptions, 'baseUrl' | 'apiKey'>>;
  /** Observation points for tests (hooks.ts); the command line sets none. */
  hooks?: RunHooks;
  /** What only the process's owner decides (host-controls.ts); the command line sets them. */
  hostControls?: HostControls;
}

export interface RunResult {
  report: RunReport;
  outDir: string;
  reportPath: string;
  /** report.html beside report.json; absent only if it could not be written (logged). */
  htmlPath?: string;
  issuesPath: string;
  /** outcomes.csv: one row per record read, what became of it. */
  outcomesPath: string;
  /** changes.csv: written when the run resolved against a target (it could see the contacts). */
  changesPath?: string;
  rejectedPaths: string[];
  topIssues: IssueCount[];
  /** Where the data went when the run used the local service. */
  local?: { db: string; keyFile: string };
}
