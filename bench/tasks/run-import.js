/** One `contact-import run` (or validate) through the library, timed around the run itself. */
import { args, dist, report } from './common.js';

// The process as the command line sets it up (cli/heap-hint.ts), so the peak RSS is a CLI run's.
const { applyHeapHint } = await import(dist('cli/heap-hint.js'));
applyHeapHint();
const { hostControls } = await import(dist('cli/host-controls.js'));
const { runImport } = await import(dist('index.js'));
const {
  pipeline = 'generic',
  file,
  dryRun = false,
  target,
  stateDir,
  outDir,
  chunkSize,
  concurrency,
  client,
  // A graceful stop (the library's Ctrl-C) once this fraction of the staged records is loaded.
  abortAtLoad,
} = args();
const started = performance.now();
// The load phase alone (first to last progress report of phase `load`): the sustained rate.
let loadStarted;
let loadEnded;
// The last record read: from there on the run resolves and sends (searches included).
let lastRead;
// Records loaded when the first load progress came (a run that loads while it reads: at its end).
let loadedWhenReadEnded;
const stop = new AbortController();
const onProgress = ({ phase, done, total }) => {
  if (phase === 'read') {
    lastRead = performance.now();
    return;
  }
  loadEnded = performance.now();
  loadStarted ??= loadEnded;
  loadedWhenReadEnded ??= done;
  if (abortAtLoad !== undefined && done >= abortAtLoad * total) stop.abort();
};
const result = await runImport({
  pipeline,
  inputs: [file],
  dryRun,
  outDir,
  stateDir,
  maxRejects: '100%',
  ...(target ? { target } : {}),
  ...(chunkSize ? { chunkSize } : {}),
  ...(concurrency ? { concurrency } : {}),
  ...(client ? { client } : {}),
  ...(abortAtLoad !== undefined ? { signal: stop.signal } : {}),
  onProgress,
  hostControls: hostControls(process.env),
});
const ended = performance.now();
const seconds = (ended - started) / 1000;
const { totals, requests, status } = result.report;
const loadSeconds = loadStarted === undefined ? undefined : (loadEnded - loadStarted) / 1000;
report({
  rows: totals.read,
  seconds,
  loadSeconds,
  afterReadSeconds: lastRead === undefined ? undefined : (ended - lastRead) / 1000,
  loadedWhenReadEnded,
  // This process's CPU (user + system), worker threads included: against `seconds`, how busy it was.
  cpuSeconds: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
  rowsPerSecond: totals.read / seconds,
  status,
  totals,
  requests,
});
