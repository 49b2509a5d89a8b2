import { isAlias, LineCounter, parseDocument, visit, type Document } from 'yaml';
import { compilePipeline } from './compile.js';
import { invalidPipeline, schemaError } from './file-errors.js';
import type { Pipeline } from './pipeline.js';
import { pipelineFileSchema } from './schema.js';

/** Parses and checks one pipeline file's text. Exported for tests and for callers holding YAML text. */
export const parsePipeline = (text: string, file: string): Pipeline => {
  const { doc, lines, data } = pipelineData(text, file);
  // Checked once a run: zod's compiled fast path would cost more to build than it saves.
  const checked = pipelineFileSchema.safeParse(data, { jitless: true });
  if (!checked.success) {
    throw schemaError(file, doc, lines, pipelineFileSchema, data, checked.error.issues[0]!);
  }
  return compilePipeline(checked.data, file);
};

/**
 * A pipeline file's text as plain data, with the document and its lines for the messages of a
 * check that fails. Exported for scripts/parse-builtins.js, which parses the built-ins with it.
 */
export const pipelineData = (
  text: string,
  file: string,
): { doc: Document; lines: LineCounter; data: unknown } => {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const syntax = doc.errors[0];
  if (syntax) {
    const line = syntax.linePos?.[0]?.line ?? 1;
    throw invalidPipeline(file, line, '', `not valid YAML: ${syntax.message.split('\n')[0]}`);
  }
  return { doc, lines, data: toData(doc, lines, file) };
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
