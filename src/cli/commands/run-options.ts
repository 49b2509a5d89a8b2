import type { Argv } from 'yargs';
import { FLAG_TABLE } from '../flag-table.js';
import { flagsFor, positionalFor } from '../help-shown.js';

/** The inputs positional `run` and `validate` share, then the command's own row of the flag table. */
export const withRunFlags = <T>(yargs: Argv<T>, command: 'run' | 'validate') =>
  yargs
    .positional(
      'inputs',
      positionalFor({
        type: 'string',
        array: true,
        demandOption: true,
        // An array positional shows `[default: []]` beside `[required]` otherwise.
        default: undefined,
        describe:
          "[pipeline] then .csv .tsv .json .ndjson .jsonl .xlsx .vcf files, or - for stdin; without a pipeline it is detected from the first input's header",
      }),
    )
    .options(flagsFor(FLAG_TABLE[command]));

export interface RunFlags {
  /** --pipeline; a pipeline given as the first positional arrives in `inputs`. */
  pipeline?: string;
  inputs: string[];
  sheet?: string;
  target?: string;
  apiKeyFile?: string;
  out?: string;
  state?: string;
  chunkSize?: string;
  concurrency?: string;
  timeout?: string;
  maxWait?: string;
  maxBodyBytes?: string;
  match?: 'email' | 'none';
  candidates?: 'on' | 'off';
  mergeCandidates?: string;
  region?: string;
  maxRejects?: string;
  strict?: boolean;
  /** `run` only: the sync scope, the archive guard, where E11 is and how it takes the key. */
  sync?: string;
  maxArchive?: string;
  legacyTarget?: string;
  legacyAuthHeader?: string;
  /** `run` only: take the full path even for inputs identical to the last run's. */
  reread?: boolean;
  json: boolean;
  /** `--progress-interval` as typed (progress.ts checks it). */
  progressInterval?: string;
  logLevel: string;
}
