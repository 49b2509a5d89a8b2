import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ImportError } from '../core/errors/index.js';
import { RUN_BOUNDS } from '../run/defaults.js';
import { nearest } from '../core/nearest.js';

/** The number-like flags of `run` and `validate`, as the person typed them. */
export interface TypedNumbers {
  chunkSize?: string;
  concurrency?: string;
  timeout?: string;
  maxBodyBytes?: string;
  maxRejects?: string;
  maxWait?: string;
}

export interface CheckedNumbers {
  chunkSize?: number;
  concurrency?: number;
  timeout?: number;
  maxWait?: number;
  maxBodyBytes?: number;
  maxRejects?: string;
}

const invalid = (flag: string, expected: string, got: string): ImportError =>
  new ImportError('config_invalid', `${flag} must be ${expected}, got "${got}"`, { field: flag });

const wholeNumber = (
  flag: string,
  typed: string | undefined,
  { min, max }: { min: number; max: number },
): number | undefined => {
  if (typed === undefined) return undefined;
  const value = /^\s*\d+\s*$/.test(typed) ? Number(typed) : NaN;
  if (!(value >= min && value <= max)) throw invalid(flag, `a whole number from ${min} to ${max}`, typed);
  return value;
};

/**
 * Checks the flags here, with the flag as typed in the message, so a mistake stops the command
 * before anything is read or written (the library checks the same settings again, by key).
 */
export const checkTypedNumbers = (typed: TypedNumbers): CheckedNumbers => {
  const checked: CheckedNumbers = {};
  const chunkSize = wholeNumber('--chunk-size', typed.chunkSize, RUN_BOUNDS.chunkSize);
  if (chunkSize !== undefined) checked.chunkSize = chunkSize;
  const concurrency = wholeNumber('--concurrency', typed.concurrency, RUN_BOUNDS.concurrency);
  if (concurrency !== undefined) checked.concurrency = concurrency;
  const maxWait = wholeNumber('--max-wait', typed.maxWait, RUN_BOUNDS.maxWait);
  if (maxWait !== undefined) checked.maxWait = maxWait;
  if (typed.timeout !== undefined) {
    const seconds = /^\s*\d+(\.\d+)?\s*$/.test(typed.timeout) ? Number(typed.timeout) : NaN;
    const { max } = RUN_BOUNDS.timeout;
    if (!(seconds > 0 && seconds <= max)) {
      throw invalid('--timeout', `a number of seconds above 0 and at most ${max}`, typed.timeout);
    }
    checked.timeout = seconds;
  }
  if (typed.maxBodyBytes !== undefined) {
    const bytes = /^\s*\d+\s*$/.test(typed.maxBodyBytes) ? Number(typed.maxBodyBytes) : NaN;
    const { min, max } = RUN_BOUNDS.maxBodyBytes;
    if (!(bytes >= min && bytes <= max)) {
      throw invalid('--max-body-bytes', `a whole number of bytes from ${min} to ${max}`, typed.maxBodyBytes);
    }
    checked.maxBodyBytes = bytes;
  }
  if (typed.maxRejects !== undefined) {
    if (!/^\d+(\.\d+)?%$|^\d+$/.test(typed.maxRejects.trim())) {
      throw invalid('--max-rejects', 'a count or a percentage like 5%', typed.maxRejects);
    }
    checked.maxRejects = typed.maxRejects.trim();
  }
  return checked;
};

/**
 * A missing input stops the command before a report folder is made (`-` is stdin). When no pipeline
 * was named, a missing first word with no extension was most likely meant as a pipeline name.
 */
export const checkInputsExist = (inputs: readonly string[], pipelineNames: readonly string[]): void => {
  for (const [index, input] of inputs.entries()) {
    if (input === '-' || existsSync(input)) continue;
    if (index === 0 && pipelineNames.length > 0 && !/[./\\]/.test(input)) {
      const pipeline = nearest(input, pipelineNames);
      throw new ImportError(
        'pipeline_not_found',
        `"${input}" is neither a built-in pipeline nor a file` +
          (pipeline ? `; did you mean the pipeline "${pipeline}"?` : '.') +
          ` Built-in: ${pipelineNames.join(', ')}; or give the path of a .yaml pipeline file.`,
        { file: input },
      );
    }
    throw new ImportError(
      'input_not_found',
      `input file ${input} does not exist (looked for ${resolve(input)}); check the name, or give - to read standard input`,
      { file: input },
    );
  }
};
