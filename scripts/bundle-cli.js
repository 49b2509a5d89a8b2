#!/usr/bin/env node
// `npm run build`, after tsc: bundles the command line into dist/cli/main.js and chunks beside it,
// because Node loading the ~1,000 module files of the unbundled CLI was over half of each start.
// The library entry (dist/index.js and the rest of dist/) stays as tsc emits it; a bundle of the part
// of it the tests' hooked runs call sits beside main.js (dist/cli/library.js, below).
//
// Paths the bundled code still finds relative to its own file (import.meta.url is now that of
// main.js or of a chunk beside it): dist/cli/ is two folders deep like src/mapping/, so
// mapping/load.ts's `../../pipelines/` and fingerprint.ts's walk up to package.json land where
// they did.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');

/** Marks a bundle, so a second run without tsc before it fails instead of bundling the bundle. */
const MARK = '/* contact-import: bundled by scripts/bundle-cli.js */';

/**
 * Left to Node's resolver: native code (better-sqlite3), packages that start worker threads from
 * their own files (pino and its transports), and fastify's JSON-schema compilers (ajv and
 * fast-json-stringify, a third of the local service's bundled code): the local service hands
 * fastify its own factory for them (server/schema-compilers.ts), which requires them only if a
 * route declares a schema, and none does, so no start parses them.
 */
const EXTERNAL = [
  'better-sqlite3',
  'pino',
  'pino-pretty',
  'thread-stream',
  '@fastify/ajv-compiler',
  '@fastify/fast-json-stringify-compiler',
];

/**
 * yargs in the bundle (some forty files Node would otherwise resolve and load one by one on every
 * start), still finding its files where it is installed: its ES module shim takes its locale
 * strings' folder and the folder it looks up package.json from (`--version`) from its own file's
 * URL, which in the bundle is a chunk's. The shim is given the path its file has in yargs'
 * installed copy instead, resolved at run time as an import of yargs would be.
 */
const YARGS_SHIM_OWN_PATH = 'const __dirname = fileURLToPath(import.meta.url);';
const YARGS_SHIM_REQUIRE = 'const require = createRequire(import.meta.url);';
const yargsShimInstalledPath = {
  name: 'yargs-shim-installed-path',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(YARGS_SHIM_OWN_PATH) || !source.includes(YARGS_SHIM_REQUIRE))
        throw new Error(
          `${args.path} no longer reads its own path as this build expects: see yargsShimInstalledPath`,
        );
      const contents = source
        .replace(
          YARGS_SHIM_OWN_PATH,
          "const __dirname = join(dirname(createRequire(import.meta.url).resolve('yargs/package.json')), 'lib', 'platform-shims', 'esm.mjs');",
        )
        .replace(YARGS_SHIM_REQUIRE, 'const require = createRequire(__dirname);');
      return { contents, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

/**
 * zod's `locales` namespace (its error messages in some fifty languages, half of zod's code) as
 * English alone: the CLI never switches zod's language, and English is the default zod installs
 * itself. Every start that reads a pipeline parses zod, so this is parsed on every run.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(builder) {
    builder.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${sep}node_modules${sep}zod${sep}`)
        ? { path: join(dirname(args.importer), '..', 'locales', 'index.js'), namespace: 'zod-locales' }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), 'en.js'))};`,
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * string-width (yargs measures its help text with it, in three copies) makes an Intl.Segmenter
 * when it is loaded, and the first one loads ICU's text-break data: a good part of loading yargs,
 * for a start that shows no help and measures nothing. In the bundle the segmenter is made on the
 * first measure instead; it segments as before. A string-width that no longer makes it that way is
 * bundled as it is, with a warning.
 *
 * yargs lays out a command's help on every run all the same (its cache for a later showHelp), and
 * cliui measures each cell with string-width 7, which segments every string, so every run made the
 * segmenter after all. string-width 8 (yargs' own copy) answers printable ASCII by its length
 * before segmenting; the copies without such a shortcut get one in the bundle, after ANSI escapes
 * are stripped: a string of ASCII alone is as wide as its printable characters (U+0020 to U+007E).
 * That is what string-width 7 counts for it: each ASCII character is a cluster of its own (CR LF
 * is one, both controls), a printable one is narrow and neither mark nor emoji, a control counts
 * nothing. So help text in plain ASCII never segments.
 */
const SEGMENTER_AT_LOAD = 'const segmenter = new Intl.Segmenter();';
const PRINTABLE_ASCII_SHORTCUT = '/^[\\u0020-\\u007E]*$/.test(';
const ASCII_SHORTCUT =
  "if (/^[\\u0000-\\u007F]*$/.test(string)) return string.replace(/[^\\u0020-\\u007E]/g, '').length;";
const WIDTH_LOOP_START = '\tlet width = 0;\n';
const stringWidthLazySegmenter = {
  name: 'string-width-lazy-segmenter',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]string-width[\\/]index\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(SEGMENTER_AT_LOAD)) {
        console.warn(`${args.path}: no \`${SEGMENTER_AT_LOAD}\`; bundled as it is`);
        return undefined;
      }
      let contents = source.replace(
        SEGMENTER_AT_LOAD,
        'let madeSegmenter;\nconst segmenter = { segment: (text) => (madeSegmenter ??= new Intl.Segmenter()).segment(text) };',
      );
      if (!contents.includes(PRINTABLE_ASCII_SHORTCUT)) {
        if (contents.split(WIDTH_LOOP_START).length !== 2)
          console.warn(`${args.path}: no single \`let width = 0;\`; bundled without the ASCII shortcut`);
        else contents = contents.replace(WIDTH_LOOP_START, `\t${ASCII_SHORTCUT}\n${WIDTH_LOOP_START}`);
      }
      return { contents, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

/**
 * A second entry, dist/cli/library.js: the library's runImport and undoRun with the command line's
 * hostControls. The tests' stand-ins for the command line that stop a run at a step
 * (test/support/hooked-run.mjs, hooked-undo.mjs) load it, so each of their starts loads a bundle as
 * the command line's does instead of the library's module files one by one. It shares its chunks
 * with main.js.
 */
const HOOKED_LIBRARY = 'contact-import:hooked-library';
const hookedLibraryEntry = {
  name: 'hooked-library-entry',
  setup(builder) {
    builder.onResolve({ filter: /^contact-import:hooked-library$/ }, () => ({
      path: HOOKED_LIBRARY,
      namespace: 'hooked-library',
    }));
    builder.onLoad({ filter: /.*/, namespace: 'hooked-library' }, () => ({
      contents: [
        "export { runImport } from './run/run.js';",
        "export { undoRun } from './undo/index.js';",
        "export { hostControls } from './cli/host-controls.js';",
      ].join('\n'),
      loader: 'js',
      resolveDir: dist,
    }));
  },
};

const cliEntry = join(dist, 'cli', 'main.js');
if (readFileSync(cliEntry, 'utf8').includes(MARK)) {
  console.error(`${cliEntry} is already a bundle: run tsc -p tsconfig.json first (npm run build does both)`);
  process.exit(1);
}

// Chunks of an earlier build: their names change with their content.
const CHUNK = /^chunk-[A-Z0-9]+\.js(\.map|\.LEGAL\.txt)?$/;
const outdir = join(dist, 'cli');
for (const name of readdirSync(outdir)) if (CHUNK.test(name)) rmSync(join(outdir, name));

await build({
  entryPoints: [
    { in: cliEntry, out: 'main' },
    { in: HOOKED_LIBRARY, out: 'library' },
  ],
  outdir,
  allowOverwrite: true,
  bundle: true,
  // Each `await import()` of a command's work becomes a chunk loaded when the command runs, so
  // `--help` does not parse the local service; chunks sit beside main.js (same folder depth).
  splitting: true,
  chunkNames: 'chunk-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: EXTERNAL,
  plugins: [hookedLibraryEntry, zodEnglishOnly, yargsShimInstalledPath, stringWidthLazySegmenter],
  // CommonJS packages inside an ES module bundle call require() for Node's own modules.
  banner: {
    js: `${MARK}\nimport { createRequire as __bundleRequire } from 'node:module';\nconst require = __bundleRequire(import.meta.url);`,
  },
  // tsc's maps are read in, so the bundle's map points at src/*.ts.
  sourcemap: 'linked',
  // Without comments every file is ASCII, which V8 holds at one byte a character (a comment of a
  // dependency with one character beyond ASCII made its whole chunk two bytes a character), and
  // there is less text to read and scan. The licence comments go to files of their own beside the
  // chunks, each linked from its chunk.
  minifyWhitespace: true,
  legalComments: 'linked',
  logLevel: 'warning',
});
