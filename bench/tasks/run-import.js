/** One `contact-import run` (or validate) through the library, timed around the run itself. */
import { args, dist, report } from './common.js';

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
} = args();
const started = performance.now();
// The load phase alone (first to last progress report of phase `load`): the sustained rate.
let loadStarted;
let loadEnded;
const onProgress = ({ phase }) => {
  if (phase !== 'load') return;
  loadEnded = performance.now();
  loadStarted ??= loadEnded;
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
  onProgress,
});
const seconds = (performance.now() - started) / 1000;
const { totals, requests, status } = result.report;
const loadSeconds = loadStarted === undefined ? undefined : (loadEnded - loadStarted) / 1000;
report({
  rows: totals.read,
  seconds,
  loadSeconds,
  rowsPerSecond: totals.read / seconds,
  status,
  totals,
  requests,
});
