#!/usr/bin/env node
// `npm run build`, after tsc: parses and checks the built-in pipelines (pipelines/*.yaml) once,
// into dist/parsed-builtins.json, so that a run reading one skips the YAML parse and the schema's
// check (mapping/load.ts, mapping/parsed-builtins.ts): what is stored is the check's output. Each
// file's text is keyed by its SHA-256, so only that exact text is ever matched. A file is left out
// (and parsed at run time, its problem told as always) when it does not parse, does not pass the
// pipeline check, or the checked file does not survive JSON unchanged.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { BUILTIN_DIR } = await import(join(root, 'dist/mapping/load.js'));
const { pipelineData } = await import(join(root, 'dist/mapping/parse-pipeline.js'));
const { PARSED_BUILTINS_URL, textKey } = await import(join(root, 'dist/mapping/parsed-builtins.js'));
const { pipelineFileSchema } = await import(join(root, 'dist/mapping/schema.js'));

const table = {};
for (const name of readdirSync(BUILTIN_DIR).sort()) {
  if (!/\.ya?ml$/.test(name)) continue;
  const file = join(BUILTIN_DIR, name);
  // As loadPipeline reads it: a byte order mark dropped.
  const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  let data;
  try {
    ({ data } = pipelineData(text, file));
  } catch (error) {
    console.error(`parse-builtins: ${name} left out: ${error.message}`);
    continue;
  }
  // Checked as loadPipeline checks a file it parses (parse-pipeline.ts).
  const checked = pipelineFileSchema.safeParse(data, { jitless: true });
  const json = checked.success ? JSON.stringify(checked.data) : undefined;
  if (json === undefined || !isDeepStrictEqual(JSON.parse(json), checked.data)) {
    console.error(`parse-builtins: ${name} left out: it does not pass the pipeline check as JSON`);
    continue;
  }
  table[textKey(text)] = json;
}
writeFileSync(PARSED_BUILTINS_URL, `${JSON.stringify(table)}\n`);
