import { createRowMapper } from '../../mapping/index.js';
import { normalizeRecord } from '../normalize-record.js';
import type { RecordOutcome } from '../record.js';
import type { SourceRow } from '../types.js';
import type { WorkerSetup } from './protocol.js';

/** map -> normalize -> validate for one input's rows: the same function in a worker and in-thread. */
export const createRowNormalizer = (setup: WorkerSetup): ((row: SourceRow) => RecordOutcome) => {
  const { pipeline, file, input, strict } = setup;
  const mapper = createRowMapper(pipeline, setup.header, file);
  const region = setup.region ?? pipeline.region;
  return (row) =>
    normalizeRecord(mapper.map(row), {
      file: row.file,
      row: row.row,
      raw: row.raw,
      input,
      region,
      dateFormat: pipeline.dateFormat,
      strict,
      constants: pipeline.constants,
    });
};
