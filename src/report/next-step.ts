import type { RunReport } from './run-report.js';
import { shellLine } from './shell-quote.js';
import { droppedWholeCount } from './dropped-columns.js';
import { formatCount } from '../core/format-count.js';

const n = formatCount;

export interface RunContext {
  /** `--max-rejects` as given (count or percentage). */
  maxRejects: string;
  /** The command that starts the same run, for the "run it again" advice, shell-quoted. */
  command: string;
  /**
   * The options that make a run of the rejected records go where this one went and judge them
   * alike (--target, --state, --region...), as words (flag, value, ...); quoted when printed.
   */
  replayFlags?: readonly string[];
  /** The pipeline the run used (name or file), for re-running the rejected records; '' to detect each. */
  pipeline: string;
  rejectedPaths: readonly string[];
}

/** One sentence: why the run ended with its exit code. */
export const exitReason = (report: RunReport, context: Pick<RunContext, 'maxRejects'>): string => {
  const { totals } = report;
  if (report.status === 'aborted') {
    return `Stopped: ${report.error ? report.error.message : 'a run-level problem'}.`.replace(/\.\.$/, '.');
  }
  if (report.status === 'interrupted') {
    // A dry run sends nothing, so "not sent yet" would be false; what it lacks is the rest of the file.
    return report.dryRun
      ? `Interrupted: the dry run stopped after reading ${n(totals.read)} records and sent nothing; run the same command to check the whole file.`
      : report.readingStopped
        ? interruptedWhileReading(report)
        : `Interrupted: ${n(totals.pending)} not sent yet; run the same command to continue.`;
  }
  const dropped = droppedWholeCount(report.inputs);
  const bad = totals.rejected + totals.failed + dropped;
  const empty = report.inputs.filter((input) => input.rows === 0).map((input) => input.path);
  if (report.exitCode === 1 && bad === 0 && empty.length > 0) {
    return `${empty.join(', ')} had no records, and --strict counts that as a failure.`;
  }
  if (report.exitCode === 1) {
    const what = report.dryRun ? 'would be rejected' : 'rejected or failed';
    const lost = dropped > 0 ? ` (with ${n(dropped)} whose phone column was dropped whole)` : '';
    return `${n(bad)} ${what}${lost}, more than --max-rejects ${context.maxRejects} allows.`;
  }
  return report.dryRun
    ? `Dry run completed: ${n(bad)} would be rejected, within --max-rejects ${context.maxRejects}; nothing was sent.`
    : `Completed: ${n(bad)} rejected or failed, within --max-rejects ${context.maxRejects}.`;
};

/**
 * A stop while reading: what was read, loaded and not sent of it, and that the rest of the input
 * was never read. How many rows that is cannot be known without reading them, so no count of
 * records "not sent" stands for the whole import.
 */
const interruptedWhileReading = (report: RunReport): string => {
  const { totals } = report;
  const { file, row } = report.readingStopped!;
  const loaded = totals.created + totals.updated + totals.unchanged;
  const rest =
    row > 0
      ? `${file} was not read after row ${n(row)}, nor any input after it`
      : `${file} and any input after it were not read`;
  return (
    `Interrupted while reading: ${n(totals.read)} records read, ${n(loaded)} of them loaded, ` +
    `${n(totals.pending)} not sent yet; ${rest}; run the same command to continue.`
  );
};

/** The lines that close the summary: what to do next, by exit code. */
export const nextStepLines = (report: RunReport, context: RunContext): string[] => {
  const lines = [`Exit ${report.exitCode}: ${exitReason(report, context)}`];
  if (report.exitCode === 1 && context.rejectedPaths.length > 0) {
    lines.push(`Rejected records: ${context.rejectedPaths.join(', ')} (issues.csv says why, row by row).`);
    lines.push(
      `Next: fix them there, then ${report.dryRun ? 'check' : 'load'} just those: ${context.command} ${shellLine([context.pipeline, ...context.rejectedPaths, ...(context.replayFlags ?? [])].filter((word) => word !== ''))}`,
    );
  } else if (report.exitCode === 1 && report.totals.rejected + report.totals.failed === 0) {
    lines.push(
      'Next: check that the file is the export you meant to load (it holds a header and no record).',
    );
  } else if (report.exitCode === 1) {
    lines.push('Next: issues.csv lists each failed record and why; run the same command to retry them.');
  }
  return lines;
};
