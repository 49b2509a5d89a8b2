import type { CandidatePeople } from '../candidates/people.js';
import { recordNotLoaded } from '../core/consequence.js';
import type { Issue } from '../core/types.js';
import type { SourceItem, SourceProblem } from '../readers/types.js';
import type { References } from '../package/references.js';
import type { StageEntry, Staging } from '../package/staging.js';
import type { RunOutputs } from '../report/run-outputs.js';
import type { PreparedOutcome, RecordSummary } from './row-normalizer.js';
import type { ExtractCounts } from './types.js';
import type { PhoneDrops } from './phone-drops.js';

/** Where the extract stage's records end: the run's outputs, the staging, its counts, the references. */
export interface ExtractSinks {
  outputs: RunOutputs;
  staging: Staging;
  /** The stage's own counts, returned in its result (run/stages.ts). */
  totals: ExtractCounts;
  references: References;
  /** The people the duplicate-candidates matcher compares once reading ends; absent with `--candidates off`. */
  candidates?: CandidatePeople;
}

/**
 * Settles a batch of one input's items, in read order, with their outcomes (one per row): a
 * problem or a record that failed is counted rejected (its issues, its rejected row); the records
 * that passed are staged in one go, and each that merged into an earlier identity is a duplicate.
 */
export const batchSettler = (
  ctx: ExtractSinks,
  input: number,
  phoneDrops?: PhoneDrops,
): ((items: SourceItem[], outcomes: PreparedOutcome[]) => void) => {
  const { outputs, totals } = ctx;
  // A record staged keeps its source text in the staging's side table only when a later stage
  // can still reject it (a keys-only dry run loads nothing); the rejected file reads it back.
  const keepSources = !ctx.staging.keysOnly;
  return (items, outcomes) => {
    const staged: RecordSummary[] = [];
    const entries: StageEntry[] = [];
    let next = 0;
    for (const item of items) {
      if (item.kind === 'problem') {
        rejectProblem(ctx, input, item);
        continue;
      }
      const outcome = outcomes[next++]!;
      if (outcome.issues.length > 0) outputs.addIssues(outcome.issues);
      if (outcome.ok) {
        phoneDrops?.note(item, outcome.issues);
        const { summary } = outcome;
        staged.push(summary);
        entries.push({
          file: summary.file,
          row: summary.row,
          line: summary.line,
          input,
          key: summary.key,
          json: outcome.json,
          raw: keepSources ? item.raw : '',
        });
      } else {
        totals.rejected += 1;
        const errors = outcome.issues.filter((issue) => issue.severity === 'error');
        outputs.reject(input, { raw: item.raw, row: item.row, errors: errors.map((e) => e.message) });
        outputs.outcomes.add({
          file: item.file,
          row: item.row,
          line: item.line,
          outcome: 'rejected',
          reason: errors.map((e) => e.message).join('; '),
        });
      }
    }
    if (staged.length > 0) stage(ctx, staged, entries);
  };
};

/** A record the reader could not make a row of: rejected at once, with its text as read. */
const rejectProblem = (ctx: ExtractSinks, input: number, item: SourceProblem): void => {
  ctx.totals.rejected += 1;
  const message = recordNotLoaded(item.message);
  ctx.outputs.issues.add({
    file: item.file,
    row: item.row,
    line: item.line,
    severity: 'error',
    stage: 'read',
    field: '',
    value: item.raw,
    code: item.code,
    message,
  });
  ctx.outputs.reject(input, { raw: item.raw, row: item.row, errors: [message] });
  ctx.outputs.outcomes.add({
    file: item.file,
    row: item.row,
    line: item.line,
    outcome: 'rejected',
    reason: message,
  });
};

/** Stages the batch's records in one transaction; their references noted, their duplicates said. */
const stage = (ctx: ExtractSinks, staged: RecordSummary[], entries: StageEntry[]): void => {
  const results = ctx.staging.add(entries);
  results.forEach((result, i) => {
    const record = staged[i]!;
    ctx.references.collect(record);
    if (!result.duplicateOf) {
      if (record.person) ctx.candidates?.add(record.file, record.row, record.person, result.seq);
      return;
    }
    ctx.totals.duplicates += 1;
    const issue = duplicateIssue(record, result.duplicateOf);
    ctx.outputs.issues.add(issue);
    const { file, row, line, key } = record;
    ctx.outputs.outcomes.add({ file, row, line, outcome: 'duplicate', identity: key, reason: issue.message });
  });
};

const duplicateIssue = (record: RecordSummary, first: { file: string; row: number }): Issue => ({
  file: record.file,
  row: record.row,
  line: record.line,
  severity: 'warning',
  stage: 'dedupe',
  field: '',
  value: record.key.replace(/^[a-z]+:/, '').replaceAll('\u001f', ' | '),
  code: 'duplicate',
  message: `same identity as ${first.file === record.file ? '' : `${first.file} `}row ${first.row}; merged into it`,
});
