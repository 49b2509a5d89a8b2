import { ImportError, isImportError } from '../core/errors/index.js';
import type { Dialect } from '../core/types.js';
import { detectFormat, openSource, type OpenSourceOptions } from '../readers/index.js';
import { describeCandidate, judge, listColumns, type HeaderView } from '../mapping/detect-score.js';
import { builtinNames, loadPipeline } from '../mapping/load.js';
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
    `cannot tell which pipeline reads ${input}: ${why}; name one before the inputs or with --pipeline NAME|FILE, or draft one to edit: contact-import init ${shellWord(input)} --out my.yaml`,
    { file: input },
  );
};
