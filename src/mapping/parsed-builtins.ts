import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PipelineFile } from './schema.js';

/**
 * The built-in pipelines' YAML, parsed and checked when the package is built
 * (scripts/parse-builtins.js): `dist/parsed-builtins.json` maps the SHA-256 of a file's text to
 * the JSON of the pipeline file that text parses and checks to (the schema's output, its defaults
 * filled in). A file is looked up by its own text, so an edited one (or any other file) is never
 * matched and is parsed and checked as always. From dist/mapping/ and, bundled, from dist/cli/, the
 * file is one folder up; from src/ (tests) there is none and every file is parsed.
 */
export const PARSED_BUILTINS_URL = new URL('../parsed-builtins.json', import.meta.url);

/** The key of a file's text in parsed-builtins.json. */
export const textKey = (text: string): string => createHash('sha256').update(text).digest('hex');

let table: Record<string, string> | null | undefined;

const readTable = (): Record<string, string> | null => {
  try {
    return JSON.parse(readFileSync(PARSED_BUILTINS_URL, 'utf8')) as Record<string, string>;
  } catch {
    return null;
  }
};

/**
 * The checked pipeline file `text` is, when the build parsed and checked that very text; each call
 * gets its own copy.
 */
export const parsedAtBuild = (text: string): PipelineFile | undefined => {
  table ??= readTable();
  const json = table?.[textKey(text)];
  return json === undefined ? undefined : (JSON.parse(json) as PipelineFile);
};
