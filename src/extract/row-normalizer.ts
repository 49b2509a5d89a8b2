import { personOf } from '../candidates/person-of.js';
import { withSortedKeys } from '../core/key-order.js';
import type { NormalizedRecord } from '../core/record.js';
import type { Issue } from '../core/types.js';
import type { SourceRow } from '../readers/types.js';
import type { PersonFields } from '../candidates/types.js';
import type { Pipeline } from '../mapping/pipeline.js';
import { createRowMapper, type RowMapper } from '../mapping/row-mapper.js';
import { normalizeRecord } from '../normalize/normalize-record.js';
import { overfullList, oversize, tooLargeIssue, tooManyEntriesIssue } from '../normalize/record-size.js';

/** What mapping and normalizing the rows of one input needs, the same for every row. */
export interface NormalizeSetup {
  pipeline: Pipeline;
  header: string[] | undefined;
  file: string;
  input: number;
  region?: string;
  strict: boolean;
  /** Stage only where each record came from, not the record (a dry run that only counts). */
  keysOnly?: boolean;
  /** Each summary carries what the duplicate-candidates matcher compares of the record. */
  candidates?: boolean;
  /** `--max-body-bytes`: a record whose write object fits no request body is rejected. */
  maxBodyBytes?: number;
}

/** What the extract stage keeps of a staged record: where it came from, its identity and references. */
export type RecordSummary = Pick<
  NormalizedRecord,
  'file' | 'row' | 'line' | 'key' | 'groups' | 'customFields'
> & { person?: PersonFields };

/**
 * A record's outcome ready for staging: the record as its JSON text (what the staging store
 * keeps), serialized once. A keys-only staging keeps no record: `json` is then empty, the summary
 * is all it needs.
 */
export type PreparedOutcome =
  { ok: true; issues: Issue[]; summary: RecordSummary; json: string } | { ok: false; issues: Issue[] };

/**
 * map -> normalize -> validate -> serialize for one input's rows. A row of an input with a header
 * is mapped from its cells by column index (mapping/cell-mapping.ts); any other from its values. The length of its source
 * text bounds the size of what the record can send (normalize/record-size.ts). `mapper`: the
 * input's header plan when the caller has it (extract.ts builds it once per input for the
 * header's issues).
 */
export const createRowNormalizer = (
  setup: NormalizeSetup,
  mapper: RowMapper = createRowMapper(setup.pipeline, setup.header, setup.file),
): ((row: SourceRow) => PreparedOutcome) => {
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
  return (row) => {
    context.file = row.file;
    context.row = row.row;
    context.line = row.line;
    const outcome = normalizeRecord(mapper.map(row), context);
    if (!outcome.ok) return outcome;
    const { record } = outcome;
    const bytes = maxBodyBytes === undefined ? undefined : oversize(record, maxBodyBytes, row.raw.length);
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
 * where the record is serialized, so the thread that sends only checks the
 * order (load/write-object.ts) instead of copying every record. Its e-mail and phone lists are
 * built in order already; whatever else is not (a pipeline constant's object) the load orders.
 */
const withContactInOrder = (record: NormalizedRecord): NormalizedRecord => {
  const contact = withSortedKeys(record.contact);
  return contact === record.contact ? record : { ...record, contact };
};
