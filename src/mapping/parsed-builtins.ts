import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * The built-in pipelines' YAML, parsed when the package is built (scripts/parse-builtins.js):
 * `dist/parsed-builtins.json` maps the SHA-256 of a file's text to the JSON of the data that
 * text parses to. A file is looked up by its own text, so an edited one (or any other file) is
 * never matched and is parsed as always. From dist/mapping/ and, bundled, from dist/cli/, the
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

/** The data `text` parses to, when the build parsed that very text; each call gets its own copy. */
export const parsedAtBuild = (text: string): unknown => {
  table ??= readTable();
  const json = table?.[textKey(text)];
  return json === undefined ? undefined : JSON.parse(json);
};
