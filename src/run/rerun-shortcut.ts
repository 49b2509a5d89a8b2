import { copyFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { ISSUE_CODES, type IssueCode } from '../core/errors/index.js';
import type { IssueCount, Totals } from '../core/types.js';
import type { InputInfo } from '../readers/types.js';
import type { FieldCount } from '../report/types.js';
import { commitFile, discardFile, outputError, temporaryPathFor } from '../report/atomic-file.js';
import { carryOutcomes } from '../report/outcomes-file.js';
import type { RunReport } from '../report/run-report.js';
import type { InputFingerprint, Ledger, RunSnapshot } from '../state/index.js';

/**
 * The rerun shortcut: when a run's inputs are byte-identical to those of the last run in its scope,
 * with the same pipeline definition, settings and tool version, and that run completed with no
 * failed record and nothing has run since, the outcome is known without reading a record: every
 * record loaded then is `unchanged` now, every reject and warning is the same. Anything short of
 * certain takes the full path; this is only an optimization.
 */

const count = z.number().int().min(0);
const severity = z.enum(['error', 'warning']);
const issueCode = z.enum(Object.keys(ISSUE_CODES) as [IssueCode, ...IssueCode[]]);

const issueSchema = z.object({
  file: z.string(),
  row: count,
  // A snapshot from before issues carried their line is refused: its issues.csv lacks the column.
  line: count,
  severity,
  stage: z.enum(['read', 'map', 'normalize', 'validate', 'dedupe', 'resolve', 'load', 'undo']),
  field: z.string(),
  value: z.string(),
  code: issueCode,
  message: z.string(),
});

const snapshotSchema = z.object({
  definition: z.string().min(1),
  inputs: z.array(z.object({ path: z.string(), size: count, sha256: z.string() })).min(1),
  outDir: z.string().min(1),
  outputs: z.array(z.object({ name: z.string().min(1), size: count })).min(1),
  topIssues: z.array(
    z.object({
      code: issueCode,
      severity,
      count,
      example: issueSchema,
      examples: z.array(issueSchema).optional(),
    }),
  ),
});

const createdExisting = z.object({ created: count, existing: count });

/** The parts of the earlier report.json the shortcut carries over. */
const reportSchema = z.object({
  dryRun: z.literal(false),
  status: z.literal('completed'),
  inputs: z.array(
    z.object({
      path: z.string(),
      format: z.enum(['csv', 'tsv', 'json', 'ndjson', 'vcard', 'xlsx']),
      encoding: z.string(),
      delimiter: z.string().nullable(),
      rows: count,
      pipeline: z.string().optional(),
      sheet: z.string().optional(),
      ignored: z.record(z.string(), count).optional(),
      unusedColumns: z.array(z.string()).optional(),
      suggestedColumns: z.record(z.string(), z.string()).optional(),
      readWhole: z.boolean().optional(),
      droppedColumns: z.array(z.object({ column: z.string(), dropped: count, values: count })).optional(),
    }),
  ),
  totals: z.object({
    read: count,
    rejected: count,
    duplicates: count,
    created: count,
    updated: count,
    unchanged: count,
    failed: count,
    warnings: count,
  }),
  groups: createdExisting,
  customFields: createdExisting,
  /** Reports written before report.json had `issues` lack it. */
  issues: z.object({ byField: z.array(z.object({ field: z.string(), count })) }).optional(),
});

type PreviousReport = z.infer<typeof reportSchema>;

export interface PreviousRun {
  runId: string;
  report: PreviousReport;
  snapshot: RunSnapshot;
}

export type ShortcutDecision = { use: true; previous: PreviousRun } | { use: false; reason: string };

export interface ShortcutCheck {
  ledger: Ledger;
  scopeId: string;
  /** definitionFingerprint() of this run. */
  definition: string;
  /** This run's inputs, in order. */
  inputs: readonly InputFingerprint[];
  /** The target held no contacts when this run connected. */
  targetEmpty: boolean;
}

const OUTCOMES_FILE = 'outcomes.csv';

const no = (reason: string): ShortcutDecision => ({ use: false, reason });

const sameInput = (a: InputFingerprint, b: InputFingerprint): boolean =>
  a.path === b.path && a.size === b.size && a.sha256 === b.sha256;

/** Decides, before this run is recorded, whether it can reuse the last run's outcome. */
export const decideShortcut = async (check: ShortcutCheck): Promise<ShortcutDecision> => {
  const last = check.ledger.lastLoadRun(check.scopeId);
  if (!last) return no('no earlier run in this scope');
  const id = last.runId;
  if (last.status !== 'completed') return no(`the last run ${id} ended ${last.status}`);
  if (last.overlapped) return no(`another run overlapped the last run ${id}`);
  // Each checked once a run: zod's compiled fast path would cost more to build than it saves.
  const snapshot = snapshotSchema.safeParse(last.snapshot, { jitless: true });
  if (!snapshot.success) return no(`the last run ${id} left no fingerprint of its inputs`);
  const report = reportSchema.safeParse(last.report, { jitless: true });
  if (!report.success) return no(`the last run ${id} left no usable report`);
  const { totals } = report.data;
  if (totals.failed > 0) return no(`the last run ${id} had ${totals.failed} failed records`);
  if (snapshot.data.definition !== check.definition)
    return no(`the pipeline, its settings or the tool version changed since the last run ${id}`);
  const before = snapshot.data.inputs;
  if (before.length !== check.inputs.length || check.inputs.some((input, i) => !sameInput(input, before[i]!)))
    return no(`the inputs differ from those of the last run ${id}`);
  if (check.ledger.scope(check.scopeId).pendingCreates().length > 0)
    return no('the ledger holds creates an interrupted run left pending');
  const loaded = totals.created + totals.updated + totals.unchanged;
  if (check.targetEmpty && loaded > 0)
    return no(`the target holds no contacts, but the last run ${id} left ${loaded}`);
  // Its outcomes.csv becomes this run's (a run from before outcomes.csv is read again instead).
  const outcomes = join(snapshot.data.outDir, OUTCOMES_FILE);
  if (
    !(await stat(outcomes).then(
      (s) => s.isFile(),
      () => false,
    ))
  )
    return no(`the last run ${id} left no ${outcomes}`);
  for (const output of snapshot.data.outputs) {
    const path = join(snapshot.data.outDir, output.name);
    const size = await stat(path).then(
      (s) => (s.isFile() ? s.size : undefined),
      () => undefined,
    );
    if (size !== output.size) return no(`the output ${path} of the last run ${id} is gone or changed`);
  }
  return { use: true, previous: { runId: id, report: report.data, snapshot: snapshot.data } };
};

export interface ShortcutOutcome {
  inputs: InputInfo[];
  totals: Totals;
  groups: RunReport['groups'];
  customFields: RunReport['customFields'];
  issuesPath: string;
  rejectedPaths: string[];
  topIssues: IssueCount[];
  /** Issue counts by input column, as the earlier run counted them (no examples kept). */
  topFields: FieldCount[];
  /** The files written in `outDir` with their sizes, for this run's own snapshot. */
  outputs: RunSnapshot['outputs'];
  /** outcomes.csv: the earlier run's rows, what it loaded now `unchanged`. */
  outcomesPath: string;
}

/**
 * This run's outcome from the earlier one: its issues.csv and rejected files copied into `outDir`
 * (so a user still sees every rejected record), every record loaded then counted `unchanged`.
 */
export const applyShortcut = async (previous: PreviousRun, outDir: string): Promise<ShortcutOutcome> => {
  const { report, snapshot } = previous;
  for (const output of snapshot.outputs) {
    const from = resolve(snapshot.outDir, output.name);
    const to = resolve(outDir, output.name);
    if (from === to) continue;
    const temporary = temporaryPathFor(to);
    await copyFile(from, temporary).catch((error: unknown) => {
      discardFile(temporary);
      throw outputError(to, error);
    });
    commitFile(temporary, to);
  }
  const outcomesPath = join(outDir, OUTCOMES_FILE);
  await carryOutcomes(
    join(snapshot.outDir, OUTCOMES_FILE),
    outcomesPath,
    `inputs unchanged since run ${previous.runId}: not read again`,
  );
  const { totals } = report;
  const paths = snapshot.outputs.map((o) => join(outDir, o.name));
  return {
    inputs: report.inputs,
    totals: {
      read: totals.read,
      rejected: totals.rejected,
      duplicates: totals.duplicates,
      // A run that merged candidates leaves no snapshot (run.ts definitionOf): nothing merged here.
      merged: 0,
      created: 0,
      updated: 0,
      unchanged: totals.created + totals.updated + totals.unchanged,
      failed: 0,
      pending: 0,
      warnings: totals.warnings,
    },
    groups: { created: 0, existing: report.groups.created + report.groups.existing },
    customFields: { created: 0, existing: report.customFields.created + report.customFields.existing },
    issuesPath: paths[0]!,
    rejectedPaths: paths.slice(1),
    topIssues: snapshot.topIssues,
    topFields: (report.issues?.byField ?? []).map((f) => ({ ...f, examples: [] })),
    outputs: snapshot.outputs,
    outcomesPath,
  };
};

/** The files a run leaves in its out dir (issues.csv first, then the rejected files), with sizes. */
export const outputsOf = async (
  outDir: string,
  issuesPath: string,
  rejectedPaths: readonly string[],
): Promise<RunSnapshot['outputs'] | undefined> => {
  const outputs: RunSnapshot['outputs'] = [];
  for (const path of [issuesPath, ...rejectedPaths]) {
    if (dirname(resolve(path)) !== resolve(outDir)) return undefined;
    const name = basename(path);
    const size = await stat(path).then(
      (s) => s.size,
      () => undefined,
    );
    if (size === undefined) return undefined;
    outputs.push({ name, size });
  }
  return outputs;
};
