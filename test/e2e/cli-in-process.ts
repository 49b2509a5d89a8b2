import { isAbsolute, join, resolve } from 'node:path';
import { choosePipelines } from '../../src/run/detect-pipeline.js';
import { loadPipeline } from '../../src/mapping/load.js';
import { runImport, type RunOptions, type RunResult } from '../../src/run/run.js';
import { undoRun, type UndoOptions, type UndoResult } from '../../src/undo/index.js';
import type { TestService } from './harness.js';

/**
 * What `contact-import run|validate [pipeline] <inputs> --out <outDir> --state <stateDir>` in
 * `cwd` hands the library, run in the test's own process: for a run whose command line is not
 * what a test checks (its exit code is `report.exitCode`, its one error line the ImportError it
 * throws), where a spawned CLI would start node and load its bundle again before it reads a row.
 * Paths are taken relative to `cwd` as the command line takes them relative to its folder; with
 * no pipeline each input's built-in is detected (the command's own "Detected pipeline" line is
 * checked where the CLI is spawned).
 */
export interface RunAsCli extends Omit<RunOptions, 'pipeline' | 'inputs' | 'target' | 'outDir' | 'stateDir'> {
  cwd: string;
  inputs: string[];
  /** A built-in name or a pipeline file (relative to `cwd`); absent: detected from each input. */
  pipeline?: string;
  /** The service the run loads into; absent: the local service in the state folder, as with no --target. */
  svc?: TestService;
  /** A target URL other than the service's own (a proxy in front of it), with the service's key. */
  url?: string;
  /** `--out`, relative to `cwd`. */
  out: string;
  /** `--state`, relative to `cwd`; absent: `.contact-import` there, the command line's default. */
  state?: string;
}

const inside = (cwd: string, path: string): string => (isAbsolute(path) ? path : join(cwd, path));

/** The built-ins a run reads `inputs` with, as the command line chooses them (named, else detected). */
const pipelinesOf = async (
  cwd: string,
  inputs: string[],
  named: string | undefined,
  sheet: string | undefined,
): Promise<Pick<RunOptions, 'pipeline' | 'inputPipelines'>> => {
  const options = sheet !== undefined ? { sheet } : {};
  if (named !== undefined) {
    const pipeline = await loadPipeline(/\.ya?ml$/.test(named) ? inside(cwd, named) : named);
    await choosePipelines(inputs, pipeline, options);
    return { pipeline };
  }
  const pipelines = (await choosePipelines(inputs, undefined, options)).map((d) => d.pipeline);
  const alike = pipelines.every((p) => p.name === pipelines[0]!.name);
  return { pipeline: pipelines[0]!, ...(alike ? {} : { inputPipelines: pipelines }) };
};

export const runAsCli = async (given: RunAsCli): Promise<RunResult> => {
  const { cwd, inputs, pipeline, svc, url, out, state, ...settings } = given;
  const paths = inputs.map((input) => (input === '-' ? input : inside(cwd, input)));
  return runImport({
    ...(await pipelinesOf(cwd, paths, pipeline, settings.sheet)),
    ...settings,
    inputs: paths,
    ...(svc ? { target: { url: url ?? svc.service.url, apiKey: svc.key } } : {}),
    outDir: inside(cwd, out),
    stateDir: inside(cwd, state ?? '.contact-import'),
  });
};

/** `contact-import undo <run> --out <out> --state <state>` in `cwd`, in the test's own process. */
export const undoAsCli = (
  given: Omit<UndoOptions, 'run' | 'target' | 'outDir' | 'stateDir'> & {
    cwd: string;
    run: string;
    svc: TestService;
    url?: string;
    out: string;
    state: string;
  },
): Promise<UndoResult> => {
  const { cwd, run, svc, url, out, state, ...settings } = given;
  return undoRun({
    ...settings,
    run: resolve(cwd, run),
    target: { url: url ?? svc.service.url, apiKey: svc.key },
    outDir: inside(cwd, out),
    stateDir: inside(cwd, state),
  });
};

/**
 * The one line the command line prints with exit 2 when a run stops before it reads a record:
 * the ImportError `run` throws, or the error of the report of a run that read nothing; undefined
 * when it did not stop so.
 */
export const refusalOf = async (
  run: Promise<RunResult>,
): Promise<{ code: string; message: string } | undefined> => {
  try {
    const { report } = await run;
    return report.error && report.totals.read === 0 && report.exitCode === 2 ? report.error : undefined;
  } catch (error) {
    const { code, message } = error as { code?: unknown; message: string };
    if (typeof code !== 'string') throw error;
    return { code, message };
  }
};

/**
 * What a run that stops prints on stderr with exit 2: the ImportError `run` throws before it
 * starts, or the error of its report (status aborted); undefined when it did not stop with exit 2.
 */
export const stopOf = async (
  run: Promise<RunResult>,
): Promise<{ code: string; message: string } | undefined> => {
  try {
    const { report } = await run;
    return report.exitCode === 2 ? report.error : undefined;
  } catch (error) {
    const { code, message } = error as { code?: unknown; message: string };
    if (typeof code !== 'string') throw error;
    return { code, message };
  }
};
