import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAlias, LineCounter, parseDocument, visit, type Document } from 'yaml';
import { ImportError } from '../core/errors/index.js';
import { nearest } from '../core/nearest.js';
import type { Dialect } from '../readers/types.js';
import { displayPath, invalidPipeline, schemaError } from './file-errors.js';
import type { Pipeline, PipelineSummary } from './pipeline.js';
import { pipelineFileSchema, type PipelineFile } from './schema.js';

/** `<repo>/pipelines/`, found from this module so it resolves the same from src/ and dist/. */
export const BUILTIN_DIR = fileURLToPath(new URL('../../pipelines/', import.meta.url));

const YAML_EXTENSIONS = ['.yaml', '.yml'];

const isFile = async (file: string): Promise<boolean> => {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
};

export const builtinNames = async (): Promise<string[]> => {
  let entries: string[];
  try {
    entries = await readdir(BUILTIN_DIR);
  } catch {
    return [];
  }
  return entries
    .filter((entry) => YAML_EXTENSIONS.includes(path.extname(entry)))
    .map((entry) => path.basename(entry, path.extname(entry)))
    .sort();
};

/** A built-in name when it has no path separator and no extension; otherwise a path. */
const resolvePipelineFile = async (nameOrPath: string): Promise<string> => {
  const looksLikePath = /[\\/]/.test(nameOrPath) || YAML_EXTENSIONS.includes(path.extname(nameOrPath));
  if (looksLikePath) {
    const file = path.resolve(nameOrPath);
    if (await isFile(file)) return file;
    throw new ImportError('pipeline_not_found', `pipeline file ${nameOrPath} does not exist`, { file });
  }
  for (const extension of YAML_EXTENSIONS) {
    const file = path.join(BUILTIN_DIR, `${nameOrPath}${extension}`);
    if (await isFile(file)) return file;
  }
  const known = await builtinNames();
  const suggestion = nearest(nameOrPath, known);
  throw new ImportError(
    'pipeline_not_found',
    `no built-in pipeline "${nameOrPath}"` +
      (suggestion ? `; did you mean "${suggestion}"?` : '') +
      ` Built-in: ${known.join(', ') || '(none installed)'}; or give the path of a .yaml pipeline file.`,
    { file: nameOrPath },
  );
};

/** Parses and checks one pipeline file's text. Exported for tests and for callers holding YAML text. */
export const parsePipeline = (text: string, file: string): Pipeline => {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const syntax = doc.errors[0];
  if (syntax) {
    const line = syntax.linePos?.[0]?.line ?? 1;
    throw invalidPipeline(file, line, '', `not valid YAML: ${syntax.message.split('\n')[0]}`);
  }
  const data = toData(doc, lines, file);
  // Checked once a run: zod's compiled fast path would cost more to build than it saves.
  const checked = pipelineFileSchema.safeParse(data, { jitless: true });
  if (!checked.success) {
    throw schemaError(file, doc, lines, pipelineFileSchema, data, checked.error.issues[0]!);
  }
  return compile(checked.data, file);
};

/**
 * The document as plain data. Aliases are where YAML can hurt: a "billion laughs" document expands
 * a few lines into billions of nodes (the yaml library stops it with a ReferenceError), and an
 * alias may name no anchor. Both become a pipeline error on the alias's line.
 */
const toData = (doc: Document, lines: LineCounter, file: string): unknown => {
  try {
    return doc.toJS() ?? {};
  } catch (error) {
    const unresolved = /unresolved alias/i.test((error as Error).message);
    let line = 1;
    visit(doc, {
      Alias: (_, node) => {
        if (!isAlias(node) || (unresolved && node.resolve(doc) !== undefined)) return undefined;
        if (node.range) line = lines.linePos(node.range[0]).line;
        return visit.BREAK;
      },
    });
    const what = unresolved
      ? 'an alias names no anchor defined before it'
      : 'its aliases expand to too many nodes (a "billion laughs" document)';
    throw invalidPipeline(
      file,
      line,
      '',
      `not valid YAML: ${what}; expected a pipeline without such aliases`,
    );
  }
};

const compile = (spec: PipelineFile, file: string): Pipeline => {
  const { source } = spec;
  const dialect: Dialect = {};
  if (source.format !== undefined) dialect.format = source.format;
  if (source.delimiter !== undefined) dialect.delimiter = source.delimiter;
  if (source.encoding !== 'auto') dialect.encoding = source.encoding;
  if (source.skip_lines > 0) dialect.skipLines = source.skip_lines;
  if (source.sheet !== undefined) dialect.sheet = source.sheet;

  const pipeline: Pipeline = {
    name: spec.name ?? path.basename(file, path.extname(file)),
    description: spec.description,
    file,
    dialect,
    constants: spec.constants,
    emptyValues: source.empty_values,
    required: spec.required,
    missingColumns: source.missing_columns,
    spec,
  };
  if (spec.region !== undefined) pipeline.region = spec.region;
  if (spec.date_format !== undefined) pipeline.dateFormat = spec.date_format;
  if (source.multi_value_separator !== undefined) pipeline.multiValueSeparator = source.multi_value_separator;
  if (spec.key !== undefined) pipeline.key = spec.key;
  return pipeline;
};

/** A built-in pipeline by name, or a pipeline file by path. */
export const loadPipeline = async (nameOrPath: string): Promise<Pipeline> => {
  const file = await resolvePipelineFile(nameOrPath);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ImportError(
      'pipeline_not_found',
      `pipeline file ${displayPath(file)} cannot be read: ${(error as Error).message}`,
      { file },
      { cause: error },
    );
  }
  return parsePipeline(text.replace(/^\uFEFF/, ''), file);
};

/** The built-in pipelines, by name. A broken built-in is an error: it ships with the tool. */
export const listPipelines = async (): Promise<PipelineSummary[]> => {
  const summaries: PipelineSummary[] = [];
  for (const name of await builtinNames()) {
    const { description, file, spec } = await loadPipeline(name);
    summaries.push({ name, description, file, alsoReads: spec.also_reads });
  }
  return summaries;
};
