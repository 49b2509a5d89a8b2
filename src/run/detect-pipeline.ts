import { dirname, resolve } from 'node:path';
import { ImportError, isImportError } from '../core/errors/index.js';
import type { Dialect } from '../readers/types.js';
import { detectFormat, openSource, type OpenSourceOptions } from '../readers/index.js';
import { isRegularFile } from './regular-file.js';
import { describeCandidate, judge, listColumns, type HeaderView } from '../mapping/detect-score.js';
import { BUILTIN_DIR, builtinNames, loadPipeline } from '../mapping/load.js';
import { describeLost, lostColumns, type LostColumn, type LostKind } from '../mapping/lost-columns.js';
import type { Pipeline } from '../mapping/pipeline.js';

export interface Detection {
  pipeline: Pipeline;
  /** One line for the user: which built-in and why. */
  reason: string;
}

export interface DetectOptions extends OpenSourceOptions {
  /** The worksheet of an .xlsx input (--sheet). */
  sheet?: string;
}

/**
 * The header a pipeline's dialect reads from the input (its preamble skipped), or the first
 * record's keys when the format has no header (JSON). Only the header is read.
 */
const headerSeenBy = async (input: string, dialect: Dialect, options: DetectOptions): Promise<string[]> => {
  const source = await openSource(
    input,
    { ...dialect, ...(options.sheet !== undefined ? { sheet: options.sheet } : {}) },
    options,
  );
  try {
    if (source.header) return source.header;
    for await (const item of source.items) return item.kind === 'row' ? Object.keys(item.values) : [];
    return [];
  } finally {
    await source.close?.();
  }
};

/** Records sampled to tell what an unused column holds: enough to see a filled column, cheap to read. */
const SAMPLED_RECORDS = 50;

/** The header a pipeline's dialect reads, and the first records' values of each column as text. */
const sampleSeenBy = async (
  input: string,
  dialect: Dialect,
  options: DetectOptions,
): Promise<{ header: string[]; samples: Map<string, string[]> }> => {
  const source = await openSource(
    input,
    { ...dialect, ...(options.sheet !== undefined ? { sheet: options.sheet } : {}) },
    options,
  );
  const header = [...(source.header ?? [])];
  const samples = new Map<string, string[]>();
  try {
    let read = 0;
    for await (const item of source.items) {
      if (item.kind !== 'row') continue;
      for (const [column, value] of Object.entries(item.values)) {
        if (source.header === undefined && !samples.has(column)) header.push(column);
        if (typeof value !== 'string' && typeof value !== 'number') continue;
        const values = samples.get(column) ?? [];
        values.push(String(value));
        samples.set(column, values);
      }
      if (++read >= SAMPLED_RECORDS) break;
    }
  } finally {
    await source.close?.();
  }
  return { header, samples };
};

/** The name, e-mail or phone columns of an input a pipeline would read nothing from. */
export const columnsLostBy = async (
  input: string,
  pipeline: Pipeline,
  options: DetectOptions = {},
): Promise<LostColumn[]> => {
  if (input === '-') return [];
  const { header, samples } = await sampleSeenBy(input, pipeline.dialect, options);
  return lostColumns(pipeline, header, samples);
};

/** Opens the input under each built-in's dialect; a dialect that cannot read it sees no header. */
const headerViews = async (input: string, pipelines: Pipeline[], options: DetectOptions) => {
  const views: HeaderView[] = [];
  let firstError: unknown;
  for (const pipeline of pipelines) {
    try {
      const header = await headerSeenBy(input, pipeline.dialect, options);
      views.push({ name: pipeline.name, spec: pipeline.spec, header });
    } catch (error) {
      if (!isImportError(error)) throw error;
      firstError ??= error;
      views.push({ name: pipeline.name, spec: pipeline.spec, header: [] });
    }
  }
  if (views.every((view) => view.header.length === 0) && firstError) throw firstError;
  return views;
};

/** A path as one shell word, to paste: quoted when it holds anything but plain path characters. */
const shellWord = (path: string): string =>
  /^[\w./@%+=:,-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;

/**
 * Picks the built-in pipeline for an input nobody named one for: a vCard file reads with the vCard
 * built-in; any other input by the header signature that fits clearly best. Refuses
 * (pipeline_undetected, the close candidates named) when none fits well enough or two fit alike.
 */
export const detectPipeline = async (input: string, options: DetectOptions = {}): Promise<Detection> => {
  const detection = await bestBuiltin(input, options);
  if (detection.pipeline.dialect.format === 'vcard') return detection;
  const lost = await columnsLostBy(input, detection.pipeline, options);
  if (lost.length === 0) return detection;
  throw new ImportError(
    'pipeline_undetected',
    `cannot tell which pipeline reads ${input}: the closest built-in, ${detection.pipeline.name}, would leave its columns ${describeLost(lost)} unused; ${draftAdvice(input)}`,
    { file: input },
  );
};

/** What to do when no built-in reads an input whole: the init command to paste, and the run after it. */
const draftAdvice = (input: string): string =>
  `draft a pipeline that maps every column, check it, then run with it: contact-import init ${shellWord(input)} --out my.yaml && contact-import run my.yaml ${shellWord(input)}`;

/** The built-in whose header signature fits the input clearly best (detectPipeline without the check of what it leaves out). */
const bestBuiltin = async (input: string, options: DetectOptions): Promise<Detection> => {
  if (input === '-')
    throw new ImportError(
      'pipeline_undetected',
      'standard input cannot be looked at twice to pick a pipeline; expected a pipeline name (or --pipeline) before -',
      { file: input },
    );
  const format = detectFormat(input);
  const pipelines = await Promise.all((await builtinNames()).map((name) => loadPipeline(name)));
  const readers = pipelines.filter((p) => (p.dialect.format === 'vcard') === (format === 'vcard'));
  if (format === 'vcard') {
    const [vcard] = readers;
    if (vcard) return { pipeline: vcard, reason: `${vcard.name}: ${input} is a vCard file` };
  }
  const verdict = judge(await headerViews(input, readers, options));
  if (verdict.kind === 'chosen') {
    const pipeline = readers.find((p) => p.name === verdict.best.name)!;
    return {
      pipeline,
      reason: `${pipeline.name}: the header of ${input} has its columns ${listColumns(verdict.best.matched)}`,
    };
  }
  const close = verdict.close.map(describeCandidate).join('; ');
  const why =
    verdict.kind === 'tie'
      ? `several built-in pipelines fit its header about equally: ${close}`
      : close
        ? `no built-in pipeline fits its header well enough (closest: ${close})`
        : `no built-in pipeline knows any of its columns (built-ins: ${readers.map((p) => p.name).join(', ')})`;
  throw new ImportError(
    'pipeline_undetected',
    `cannot tell which pipeline reads ${input}: ${why}; name one before the inputs or with --pipeline NAME|FILE, or ${draftAdvice(input)}`,
    { file: input },
  );
};

const unlessImportError = (error: unknown): LostColumn[] => {
  if (isImportError(error)) return [];
  throw error;
};

/** Kinds a named pipeline may not leave out: without them the people arrive nameless or unreachable. */
const NAMED_MUST_READ: ReadonlySet<LostKind> = new Set(['name', 'e-mail']);

const isBuiltin = (pipeline: Pipeline): boolean => dirname(pipeline.file) === resolve(BUILTIN_DIR);

/**
 * Stops a run whose named built-in would leave a name or e-mail column of an input unused (the
 * export of another product read with the wrong built-in), naming the built-in that reads it. A
 * pipeline file the user wrote is their mapping: what it leaves out the summary lists.
 */
export const assertPipelineFits = async (
  input: string,
  pipeline: Pipeline,
  options: DetectOptions = {},
): Promise<void> => {
  if (!isBuiltin(pipeline) || pipeline.dialect.format === 'vcard' || !isRegularFile(input)) return;
  // An input this pipeline cannot read is the run's to report, with its report files.
  const lost = (await columnsLostBy(input, pipeline, options).catch(unlessImportError)).filter(({ kind }) =>
    NAMED_MUST_READ.has(kind),
  );
  if (lost.length === 0) return;
  const fitting = await detectPipeline(input, options).catch((error: unknown) => {
    if (isImportError(error) && error.code === 'pipeline_undetected') return undefined;
    throw error;
  });
  const advice = fitting
    ? `the built-in ${fitting.pipeline.name} reads it: name no pipeline and each input is detected on its own, or run it by itself: contact-import run ${fitting.pipeline.name} ${shellWord(input)}`
    : draftAdvice(input);
  throw new ImportError(
    'pipeline_mismatch',
    `pipeline ${pipeline.name} would leave the columns ${describeLost(lost)} of ${input} unused; ${advice}`,
    { file: input },
  );
};

/** The pipeline of each input: the one named (checked against each input), else each detected on its own. */
export const choosePipelines = async (
  inputs: readonly string[],
  named: Pipeline | undefined,
  options: DetectOptions = {},
): Promise<Detection[]> => {
  const chosen: Detection[] = [];
  for (const input of inputs) {
    if (named) {
      await assertPipelineFits(input, named, options);
      chosen.push({ pipeline: named, reason: `${named.name}: named` });
    } else chosen.push(await detectPipeline(input, options));
  }
  return chosen;
};
