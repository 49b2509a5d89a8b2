/** Worker entry: maps and normalizes batches of rows for the NormalizePool, in order. */
import { parentPort, workerData } from 'node:worker_threads';
import type { BatchAnswer, BatchRequest, WorkerSetup } from './protocol.js';
import { createRowNormalizer } from './row-normalizer.js';

const normalize = createRowNormalizer(workerData as WorkerSetup);

/**
 * TEST-ONLY: with `CONTACT_IMPORT_TEST_WORKER_EXIT_AT=<n>` a worker ends itself (exit code 70) when
 * its n-th batch arrives, as a worker that runs out of memory does, so the fallback of
 * parallel/batches.ts is tested on a real dead worker. Unset in every real run.
 */
const exitAt = Number(process.env.CONTACT_IMPORT_TEST_WORKER_EXIT_AT ?? 0);
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
