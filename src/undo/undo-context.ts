import type { Logger } from 'pino';
import type { ClientOptions } from '../client/index.js';
import type { TargetSpec } from '../run/target.js';
import type { Ledger, StoredRun } from '../state/index.js';
import type { UndoStep } from './apply.js';

export interface UndoOptions {
  /** `<run-dir | run-id>`: the folder of the run's report.json, or its id. */
  run: string;
  /** Absent: the run's own target when that was the local service. */
  target?: TargetSpec;
  /** The run's state directory (`--state`, default `.contact-import`). */
  stateDir?: string;
  outDir?: string;
  /** Look up and report, change nothing. */
  dryRun?: boolean;
  chunkSize?: number;
  concurrency?: number;
  /** Graceful stop: nothing new is sent; the same command finishes the undo. */
  signal?: AbortSignal;
  logger?: Logger;
  client?: Partial<Omit<ClientOptions, 'baseUrl' | 'apiKey'>>;
  /** Observes the undo's steps (tests stop it there). */
  onStep?: (step: UndoStep) => void;
}

export interface Settings {
  stateDir: string;
  dryRun: boolean;
  chunkSize: number;
  concurrency: number;
}

export interface UndoContext {
  settings: Settings;
  ledger: Ledger;
  stored: StoredRun;
  runId: string;
  started: Date;
  outDir: string;
  /** The undo's scratch folder in the state directory (state/run-work.ts). */
  workDir: string;
}
