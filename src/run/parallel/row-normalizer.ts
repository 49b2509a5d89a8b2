import { personOf } from '../../candidates/person-of.js';
import { withSortedKeys } from '../../core/key-order.js';
import type { NormalizedRecord } from '../../core/record.js';
import { createRowMapper, type RowMapper } from '../../mapping/index.js';
import { valuesOfCells } from '../../readers/index.js';
import { normalizeRecord } from '../../normalize/normalize-record.js';
import { overfullList, oversize, tooLargeIssue, tooManyEntriesIssue } from '../../normalize/record-size.js';
import type { NormalizeRow, PreparedOutcome, WorkerSetup } from './protocol.js';

/**
 * map -> normalize -> validate -> serialize for one input's rows: the same in a worker and
 * in-thread. `mapper`: the input's header plan when this thread already has it (extract.ts builds
 * it once per input for the header's issues); a worker builds its own from the setup.
 */
export const createRowNormalizer = (
  setup: WorkerSetup,
  mapper: RowMapper = createRowMapper(setup.pipeline, setup.header, setup.file),
): ((row: NormalizeRow) => PreparedOutcome) => {
  const { pipeline, input, strict, maxBodyBytes, keysOnly } = setup;
  const region = setup.region ?? pipeline.region;
  const context = {
    file: setup.file,
    row: 0,
    line: 0,
    input,
    region,
    dateFormat: pipeline.dateFormat,
    strict,
    constants: pipeline.constants,
  };
  const names = setup.header ?? [];
  const hasProtoName = names.includes('__proto__');
  return (row) => {
    context.file = row.file;
    context.row = row.row;
    context.line = row.line;
    const values = 'cells' in row ? valuesOfCells(names, row.cells, hasProtoName) : row.values;
    const outcome = normalizeRecord(mapper.map({ values }), context);
    if (!outcome.ok) return outcome;
    const { record } = outcome;
    const bytes = maxBodyBytes === undefined ? undefined : oversize(record, maxBodyBytes, row.chars);
    if (bytes !== undefined) {
      return { ok: false, issues: [...outcome.issues, tooLargeIssue(record, bytes, maxBodyBytes!)] };
    }
    const overfull = overfullList(record);
    if (overfull !== undefined)
      return { ok: false, issues: [...outcome.issues, tooManyEntriesIssue(record, overfull)] };
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
        ...(setup.candidates ? { person: personOf(record.contact) } : {}),
      },
      // The one serialization of the record: staged as it is, read once by the load stage.
      json: keysOnly ? '' : JSON.stringify(withContactInOrder(record)),
    };
  };
};

/**
 * The contact with its fields in sorted order, as the load stage writes it: put in order here,
 * where the record is serialized (a worker, most often), so the thread that sends only checks the
 * order (load/write-object.ts) instead of copying every record. Its e-mail and phone lists are
 * built in order already; whatever else is not (a pipeline constant's object) the load orders.
 */
const withContactInOrder = (record: NormalizedRecord): NormalizedRecord => {
  const contact = withSortedKeys(record.contact);
  return contact === record.contact ? record : { ...record, contact };
};
