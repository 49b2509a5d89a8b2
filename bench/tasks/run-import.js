/** One `contact-import run` (or validate) through the library, timed around the run itself. */
import { args, dist, report } from './common.js';

const { runImport } = await import(dist('index.js'));
const { pipeline = 'generic', file, dryRun = false, target, stateDir, outDir, chunkSize, concurrency, client } = args();
const started = performance.now();
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
});
const seconds = (performance.now() - started) / 1000;
const { totals, requests, status } = result.report;
report({ rows: totals.read, seconds, rowsPerSecond: totals.read / seconds, status, totals, requests });
