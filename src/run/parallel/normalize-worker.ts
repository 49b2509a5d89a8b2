/** Worker entry: maps and normalizes batches of rows for the NormalizePool, in order. */
import { parentPort, workerData } from 'node:worker_threads';
import type { BatchAnswer, BatchRequest, WorkerSetup } from './protocol.js';
import { createRowNormalizer } from './row-normalizer.js';

const normalize = createRowNormalizer(workerData as WorkerSetup);

parentPort?.on('message', (request: BatchRequest) => {
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
