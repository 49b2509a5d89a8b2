import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ImportError } from '../core/errors/index.js';
import { nearest } from '../core/nearest.js';
import { compilePipeline } from './compile.js';
import { displayPath } from './display-path.js';
import type { Pipeline, PipelineSummary } from './pipeline.js';
import { parsedAtBuild } from './parsed-builtins.js';

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

/**
 * The text's pipeline from the pipeline file the build parsed and checked it to, when it did;
 * otherwise undefined, and the text is parsed and checked (and any problem told) as always. The
 * build checked it with this very schema, so neither the schema nor zod's check runs here.
 */
const fromParsedAtBuild = (text: string, file: string): Pipeline | undefined => {
  const checked = parsedAtBuild(text);
  return checked === undefined ? undefined : compilePipeline(checked, file);
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
  const withoutBom = text.replace(/^\uFEFF/, '');
  const parsed = fromParsedAtBuild(withoutBom, file);
  if (parsed) return parsed;
  // The YAML parser is loaded only for a text the build did not parse.
  const { parsePipeline } = await import('./parse-pipeline.js');
  return parsePipeline(withoutBom, file);
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
