import type { Logger } from 'pino';
import type { MergeChoice } from '../candidates/merge-plan.js';
import type { Pipeline } from '../mapping/index.js';
import type { Ledger } from '../state/index.js';
import type { RunSettings } from './options.js';
import type { RunOptions } from './run-types.js';
import type { ConnectedTarget } from './target.js';

/** What every stage knows of the run it is part of. */
export interface RunFrame {
  settings: RunSettings;
  /** The first input's pipeline: the run's name for what read it when every input reads alike. */
  pipeline: Pipeline;
  /** The pipeline of each input, in input order. */
  pipelines: readonly Pipeline[];
  started: Date;
  runId: string;
  outDir: string;
  /** The run's scratch folder in the state directory (state/run-work.ts). */
  workDir: string;
  /** The pipeline, its settings and the tool version as one hash; absent for a dry run. */
  definition?: string;
  options: RunOptions;
  log?: Logger;
  /** `--merge-candidates`: the band, or the reviewed file's decisions, read before anything was written. */
  mergeChoice?: MergeChoice;
  /** A service given by URL, connected and probed before anything was written (runImport). */
  connected?: ConnectedTarget;
}

/** What read the run's inputs: one pipeline's name, or each pipeline's once, in input order. */
export const pipelinesName = (run: Pick<RunFrame, 'pipelines' | 'pipeline'>): string =>
  [...new Set((run.pipelines.length > 0 ? run.pipelines : [run.pipeline]).map((p) => p.name))].join(', ');

/** The target a run's stages write to, and its ledger when the target has a scope. */
export interface OpenedTarget {
  target: ConnectedTarget;
  ledger?: Ledger;
}
