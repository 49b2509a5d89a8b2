import type { IssueCount } from '../core/types.js';
import type { RunReport } from './run-report.js';
import { searchShareLine } from './request-share.js';
import { nextStepLines, type RunContext } from './next-step.js';
import { droppedColumnLines } from './dropped-columns.js';
import { formatCount } from '../core/format-count.js';

const n = formatCount;

const STATUS_LINE: Record<RunReport['status'], string> = {
  completed: 'completed',
  interrupted: 'INTERRUPTED (run the same command again to continue)',
  aborted: 'ABORTED',
};

/** The terminal summary of a run: totals, throughput, the top issue codes with an example each. */
export const formatSummary = (
  report: RunReport,
  extra: { topIssues: IssueCount[]; files: string[]; topLimit?: number; next?: RunContext },
): string => {
  const { totals } = report;
  const seconds = Math.max(report.durationMs, 1) / 1000;
  const lines: string[] = [];
  const verb = report.dryRun ? 'would be ' : '';
  lines.push(
    `${report.dryRun ? 'Dry run' : 'Run'} ${report.runId} ${STATUS_LINE[report.status]} in ${seconds.toFixed(1)}s ` +
      // A dry run with no target checks the files only: no target to speak of.
      `(pipeline ${report.pipeline}${report.dryRun && report.target === 'local' ? '' : `, target ${report.target}`})`,
  );
  if (report.error) lines.push(`  error: ${report.error.code}: ${report.error.message}`);
  if (report.inputsUnchangedSince) {
    lines.push(
      `  inputs unchanged since run ${report.inputsUnchangedSince}: nothing read, no contact sent ` +
        `(its issues and rejected records are copied here; --reread reads them again)`,
    );
  }
  if (report.continues) {
    const { runId, loaded, toGo } = report.continues;
    lines.push(`  continuing run ${runId}: ${n(loaded)} loaded, ${n(toGo)} to go`);
  }
  lines.push(
    `  read ${n(totals.read)}: ${verb}created ${n(totals.created)}, ${verb}updated ${n(totals.updated)}, ` +
      `unchanged ${n(totals.unchanged)}, duplicates ${n(totals.duplicates)}, ${totals.merged > 0 ? `merged ${n(totals.merged)}, ` : ''}rejected ${n(totals.rejected)}, ` +
      `failed ${n(totals.failed)}${totals.pending > 0 ? `, pending ${n(totals.pending)}` : ''}; warnings ${n(totals.warnings)}`,
  );
  if (report.readingStopped) lines.push(`  ${readingStoppedText(report.readingStopped)}`);
  if (totals.pending > 0 && !report.dryRun) {
    const read = report.readingStopped ? ' of the records read' : '';
    lines.push(`  ${n(totals.pending)}${read} not sent yet: run the same command to continue`);
  }
  if (report.sync) lines.push(syncLine(report.sync, verb));
  lines.push(...inputNotes(report));
  if (report.status !== 'aborted') lines.push(...droppedColumnLines(report.inputs));
  if (report.candidates) lines.push(`  ${candidatesLine(report.candidates)}`);
  const photos = report.inputs.reduce((sum, input) => sum + (input.ignored?.PHOTO ?? 0), 0);
  if (photos > 0) lines.push(`  photos ignored: ${n(photos)} (the service stores no contact photo)`);
  const groupCards = report.inputs.reduce((sum, input) => sum + (input.ignored?.['group card'] ?? 0), 0);
  if (groupCards > 0)
    lines.push(`  group cards passed over: ${n(groupCards)} (a group card names members, not a person)`);
  lines.push(
    `  groups ${verb}created ${n(report.groups.created)} (existing ${n(report.groups.existing)}), ` +
      `custom fields ${verb}created ${n(report.customFields.created)} (existing ${n(report.customFields.existing)}), ` +
      `reminders ${verb}created ${n(report.reminders.created)}, ${verb}updated ${n(report.reminders.updated)}`,
  );
  const loaded = totals.created + totals.updated + totals.unchanged;
  // A run that reused an earlier outcome read nothing: a records/s figure would be fiction.
  // A dry run loads nothing, so it has no load rate to show.
  const throughput = report.inputsUnchangedSince
    ? ''
    : `; throughput ${n(Math.round(totals.read / seconds))} records/s read` +
      (report.dryRun ? '' : `, ${n(Math.round(loaded / seconds))} records/s loaded`);
  lines.push(
    `  requests ${n(report.requests.sent)} sent, ${n(report.requests.retried)} retried, ${n(report.requests.failed)} failed` +
      throughput,
  );
  const searchShare = searchShareLine(report);
  if (searchShare) lines.push(`  ${searchShare}`);
  const top = extra.topIssues.slice(0, extra.topLimit ?? 5);
  if (top.length > 0) {
    lines.push('Top issues:');
    const width = Math.max(...top.map((t) => t.code.length));
    for (const t of top) {
      const e = t.example;
      const where = `${e.file} row ${e.row}${e.field ? `, ${e.field}` : ''}`;
      const value = e.value ? ` "${e.value.length > 40 ? `${e.value.slice(0, 40)}…` : e.value}"` : '';
      lines.push(
        `  ${t.code.padEnd(width)} ${String(t.count).padStart(6)} ${t.severity.padEnd(7)} e.g. ${where}${value}: ${e.message}`,
      );
    }
  }
  lines.push(`Report: ${extra.files.join(', ')}`);
  if (extra.next) lines.push(...nextStepLines(report, extra.next));
  return lines.join('\n');
};

const SHOWN_COLUMNS = 8;
/** Formats whose first row names the columns: an empty one is a header alone. */
const HEADED = new Set(['csv', 'tsv', 'xlsx']);

/** What a user would otherwise not know about an input: it held no record, or columns went unread. */
const inputNotes = (report: RunReport): string[] => {
  if (report.status === 'aborted' || report.inputsUnchangedSince) return [];
  const lines: string[] = [];
  const pipelines = new Set(report.inputs.map((input) => input.pipeline));
  for (const input of report.inputs) {
    // Several inputs read with different pipelines: which read which, never to be guessed.
    if (pipelines.size > 1 && input.pipeline !== undefined)
      lines.push(`  ${input.path}: ${n(input.rows)} records read with pipeline ${input.pipeline}`);
    if (input.rows === 0)
      lines.push(
        `  ${input.path} has no records${HEADED.has(input.format) ? ' (nothing after its header)' : ''}`,
      );
    const unused = input.unusedColumns ?? [];
    if (unused.length === 0) continue;
    const suggested = input.suggestedColumns ?? {};
    // The likely mistakes first: a column that looks like one the pipeline reads.
    const ordered = [...unused].sort((a, b) => Number(b in suggested) - Number(a in suggested));
    const named = ordered.slice(0, SHOWN_COLUMNS).map((column) => {
      const meant = suggested[column];
      return meant === undefined ? `"${column}"` : `"${column}" (the pipeline reads "${meant}")`;
    });
    const more = unused.length > SHOWN_COLUMNS ? ` and ${n(unused.length - SHOWN_COLUMNS)} more` : '';
    const count = unused.length === 1 ? '1 column' : `${n(unused.length)} columns`;
    lines.push(`  ${input.path}: ${count} not used by the pipeline: ${named.join(', ')}${more}`);
  }
  return lines;
};

/** Where a stop ended reading: the rows after it were never read, so no count includes them. */
export const readingStoppedText = ({ file, row }: { file: string; row: number }): string =>
  row > 0
    ? `reading stopped at row ${n(row)} of ${file}; the rest was not read`
    : `reading stopped before ${file}; it and the inputs after it were not read`;
/** `--sync`: what the run did to the scope's contacts beyond its creates and updates. */
const syncLine = (sync: NonNullable<RunReport['sync']>, verb: string): string =>
  `  sync ${sync.scope}: ${verb}archived ${n(sync.archived)}, ${verb}unarchived ${n(sync.unarchived)}, ` +
  `values ${verb}removed ${n(sync.valuesRemoved)}, fields ${verb}cleared ${n(sync.fieldsCleared)}`;
/** `Candidates: 12 likely, 40 possible same person under another e-mail: candidates.csv`. */
export const candidatesLine = (c: NonNullable<RunReport['candidates']>): string => {
  const skipped = c.blocksSkipped > 0 ? ` (${n(c.blocksSkipped)} common keys compared in part)` : '';
  return `Candidates: ${n(c.likely)} likely, ${n(c.possible)} possible same person under another e-mail: candidates.csv${skipped}`;
};
