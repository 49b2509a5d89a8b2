/** Worker entry: maps and normalizes batches of rows for the NormalizePool, in order. */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { BatchAnswer, BatchRequest, WorkerSetup } from './protocol.js';
import { createRowNormalizer } from './row-normalizer.js';

const setup = workerData as WorkerSetup;
/**
 * Nice 10 for this thread alone (on Linux, pid 0 is the calling thread). Reading ahead is
 * background work: the records are needed only as fast as the load sends them. A system that
 * refuses it runs the worker as it is.
 */
const BACKGROUND_NICE = 10;
if (setup.lowPriority) {
  try {
    setPriority(0, BACKGROUND_NICE);
  } catch {
    // Not allowed here: same priority as the rest.
  }
}
const normalize = createRowNormalizer(setup);

/**
 * Run hook `workerExitAt` (run/hooks.ts): the worker ends itself (exit code 70) when its n-th batch
 * arrives, as a worker that runs out of memory does, so the fallback of parallel/batches.ts is
 * tested on a real dead worker. Absent in every run of the command line.
 */
const exitAt = setup.exitAt ?? 0;
let batches = 0;

parentPort?.on('message', (request: BatchRequest) => {
  if (exitAt > 0 && ++batches === exitAt) process.exit(70);
  let answer: BatchAnswer;
  try {
    answer = { id: request.id, outcomes: request.rows.map(normalize) };
  } catch (error) {
    answer = {
      id: request.id,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
  }
  parentPort?.postMessage(answer);
});
