import { basename } from 'node:path';
import type { IssueCount } from '../../core/types.js';
import type { FieldCount } from '../types.js';
import type { IssueSummary, RunReport } from '../run-report.js';
import type {
  CandidatesModel,
  ChangesModel,
  IssueExample,
  ProgressSample,
  ReportHeader,
  ReportModelBase,
  RunReportModel,
} from './model.js';

/** What a run collects besides report.json for its report.html. */
export interface RunHtmlExtras {
  /** Issue codes with their counts and first examples (IssuesFile.topCodes()). */
  codes: IssueCount[];
  /** Input columns with their counts and first examples (IssuesFile.topFields()). */
  fields: FieldCount[];
  issuesPath: string;
  samples: ProgressSample[];
  changes?: ChangesModel;
  candidates?: CandidatesModel;
}

const asExample = (issue: IssueExample): IssueExample => ({
  file: issue.file,
  row: issue.row,
  field: issue.field,
  value: issue.value,
  code: issue.code,
  message: issue.message,
});

/** report.json's `issues`: the counts of the tally, without examples (values stay in issues.csv). */
export const issueSummary = (codes: IssueCount[], fields: FieldCount[]): IssueSummary => ({
  byCode: codes.map((c) => ({ code: c.code, severity: c.severity, count: c.count })),
  byField: fields.map((f) => ({ field: f.field, count: f.count })),
});

/** The fields both kinds of page share: identity, status, requests, progress and issues. */
export const baseModel = (
  report: ReportHeader,
  extras: Pick<RunHtmlExtras, 'codes' | 'fields' | 'issuesPath' | 'samples'>,
): ReportModelBase => ({
  runId: report.runId,
  target: report.target,
  status: report.status,
  dryRun: report.dryRun,
  startedAt: report.startedAt,
  finishedAt: report.finishedAt,
  durationMs: report.durationMs,
  exitCode: report.exitCode,
  ...(report.exitReason ? { exitReason: report.exitReason } : {}),
  ...(report.error ? { error: { code: report.error.code, message: report.error.message } } : {}),
  requests: report.requests,
  samples: extras.samples,
  issues: {
    byCode: extras.codes.map((c) => ({
      code: c.code,
      severity: c.severity,
      count: c.count,
      examples: (c.examples ?? [c.example]).map(asExample),
    })),
    byField: extras.fields.map((f) => ({
      field: f.field,
      count: f.count,
      examples: f.examples.map(asExample),
    })),
    file: basename(extras.issuesPath),
  },
});

/** The model of a run's report.html: report.json's numbers plus the examples and samples. */
export const runModel = (report: RunReport, extras: RunHtmlExtras): RunReportModel => ({
  kind: 'run',
  ...baseModel(report, extras),
  pipeline: report.pipeline,
  inputs: report.inputs,
  totals: report.totals,
  groups: report.groups,
  customFields: report.customFields,
  reminders: report.reminders,
  ...(report.inputsUnchangedSince ? { inputsUnchangedSince: report.inputsUnchangedSince } : {}),
  ...(extras.changes ? { changes: extras.changes } : {}),
  ...(extras.candidates ? { candidates: extras.candidates } : {}),
});
