import { createRowMapper } from '../../mapping/index.js';
import { normalizeRecord } from '../../normalize/normalize-record.js';
import { oversize, tooLargeIssue } from '../../normalize/record-size.js';
import type { StagedPlace } from '../../package/staging.js';
import type { SourceRow } from '../../core/types.js';
import type { PreparedOutcome, WorkerSetup } from './protocol.js';

/** What a keys-only staging keeps of a record: enough to report it, not to load it. */
const placeOf = (record: StagedPlace): string =>
  JSON.stringify({
    file: record.file,
    row: record.row,
    line: record.line,
    input: record.input,
    raw: record.raw,
    key: record.key,
  });

/** map -> normalize -> validate -> serialize for one input's rows: the same in a worker and in-thread. */
export const createRowNormalizer = (setup: WorkerSetup): ((row: SourceRow) => PreparedOutcome) => {
  const { pipeline, file, input, strict } = setup;
  const mapper = createRowMapper(pipeline, setup.header, file);
  const region = setup.region ?? pipeline.region;
  return (row) => {
    const outcome = normalizeRecord(mapper.map(row), {
      file: row.file,
      row: row.row,
      line: row.line,
      raw: row.raw,
      input,
      region,
      dateFormat: pipeline.dateFormat,
      strict,
      constants: pipeline.constants,
    });
    if (!outcome.ok) return outcome;
    const { record } = outcome;
    const { maxBodyBytes } = setup;
    const bytes = maxBodyBytes === undefined ? undefined : oversize(record, maxBodyBytes);
    if (bytes !== undefined) {
      return { ok: false, issues: [...outcome.issues, tooLargeIssue(record, bytes, maxBodyBytes!)] };
    }
    return {
      ok: true,
      issues: outcome.issues,
      summary: {
        file: record.file,
        row: record.row,
        line: record.line,
        key: record.key,
        groups: record.groups,
        customFields: record.customFields,
      },
      json: setup.keysOnly ? placeOf(record) : JSON.stringify(record),
    };
  };
};
