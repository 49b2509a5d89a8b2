import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The folders of src/ in layers, bottom first: a file may import its own folder and the folders of
 * LOWER layers only, never a peer in its own layer nor a layer above (docs/design.md, "Shape").
 */
const LAYERS: readonly (readonly string[])[] = [
  ['core'],
  ['readers', 'state', 'client', 'server'],
  // The data flows readers -> mapping -> normalize: each takes the shapes of the one before.
  ['mapping'],
  ['normalize'],
  ['package'],
  ['load'],
  ['report'],
  ['sync', 'candidates'],
  ['extract'],
  ['run'],
  ['undo'],
  ['cli'],
  ['(root)'],
];

const SRC = resolve(import.meta.dirname, '../../src');

const sourceFiles = (): string[] =>
  readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(SRC, f));

// Static imports, re-exports, side-effect imports and dynamic import() of a relative path.
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

/** Every file's relative imports, as absolute .ts paths. */
const importGraph = (): Map<string, string[]> => {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles()) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((m) =>
      resolve(dirname(file), m[1]!).replace(/\.js$/, '.ts'),
    );
    graph.set(file, targets);
  }
  return graph;
};

const folderOf = (file: string): string => {
  const parts = relative(SRC, file).split(sep);
  return parts.length > 1 ? parts[0]! : '(root)';
};

const layerOf = (folder: string): number => LAYERS.findIndex((layer) => layer.includes(folder));

/** The cycles of the graph, one path each (depth-first search, grey = on the current path). */
const findCycles = (graph: Map<string, string[]>): string[][] => {
  const state = new Map<string, 'grey' | 'black'>();
  const path: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string) => {
    state.set(file, 'grey');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'grey') cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'black');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
};

const show = (file: string) => relative(SRC, file);

describe('the import graph of src/', () => {
  const graph = importGraph();

  it('finds the imports it checks (the parser still sees them)', () => {
    // run/stages.ts: the stages runImport (run/run.ts) is the list of.
    const run = graph.get(join(SRC, 'run/stages.ts')) ?? [];
    expect(run.map(folderOf)).toEqual(expect.arrayContaining(['load', 'report', 'state', 'client']));
    expect(graph.size).toBeGreaterThan(100);
  });

  it('places every folder in a layer', () => {
    const unplaced = [...new Set([...graph.keys()].map(folderOf))].filter((f) => layerOf(f) < 0);
    expect(unplaced, 'add new folders to LAYERS and to docs/design.md "Shape"').toEqual([]);
  });

  it('has no import of a peer folder or of a folder above', () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      const from = folderOf(file);
      for (const target of targets) {
        const to = folderOf(target);
        if (to !== from && layerOf(to) >= layerOf(from)) upward.push(`${show(file)} -> ${show(target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('resolves every relative import to a file of src/', () => {
    const missing = [...graph].flatMap(([file, targets]) =>
      targets.filter((t) => !graph.has(t)).map((t) => `${show(file)} -> ${show(t)}`),
    );
    expect(missing).toEqual([]);
  });

  it('has no import cycle between files', () => {
    expect(findCycles(graph).map((cycle) => cycle.map(show).join(' -> '))).toEqual([]);
  });
});

/** A file a newcomer can read whole; past this, split it where its parts already are. */
const MAX_FILE_LINES = 400;

describe('the size of src/', () => {
  it(`has no file over ${MAX_FILE_LINES} lines`, () => {
    const long = sourceFiles()
      .map((file) => ({ file, lines: readFileSync(file, 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > MAX_FILE_LINES)
      .map(({ file, lines }) => `${show(file)}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});

/** A function a newcomer can read whole; closures inside a factory count toward it. */
const MAX_FUNCTION_LINES = 80;

/** The name a reader would look the function up by: its own, or the binding or member it is assigned to. */
const functionName = (node: ts.FunctionLikeDeclaration): string => {
  if (node.name !== undefined) return node.name.getText();
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) ||
      ts.isPropertyAssignment(parent) ||
      ts.isPropertyDeclaration(parent)) &&
    parent.name !== undefined
  )
    return parent.name.getText();
  return '(anonymous)';
};

interface FunctionSpan {
  file: string;
  line: number;
  name: string;
  lines: number;
}

/** Every function with a body in `file`, nested ones included, with its line span (inclusive). */
const functionSpans = (file: string): FunctionSpan[] => {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: FunctionSpan[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ file: show(file), line: start + 1, name: functionName(node), lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
};

describe('the functions of src/', () => {
  const spans = sourceFiles().flatMap(functionSpans);

  it('finds the functions it measures (the parser still sees them)', () => {
    expect(spans.length).toBeGreaterThan(1000);
    // Named as a reader looks them up: a method, an arrow bound to a const, a nested arrow.
    const lookup = spans.filter((s) => s.file === join('mapping', 'column-lookup.ts'));
    expect(lookup.map((s) => s.name)).toEqual(expect.arrayContaining(['keyIndex', 'keysOf', 'pick']));
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = spans
      .filter(({ lines }) => lines > MAX_FUNCTION_LINES)
      .map(({ file, line, name, lines }) => `${file}:${line} ${name} ${lines} lines`);
    expect(long).toEqual([]);
  });
});
