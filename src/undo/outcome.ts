import type { Issue } from '../core/types.js';
import type { ChangeRow } from '../report/html/model.js';
import type { OutcomeRow } from '../report/outcomes-file.js';
import type { Decision } from './decide.js';
import type { UndoTotals } from './report.js';

/** Where a decision stands: settled (sent and applied, or nothing to send), failed, or still to do. */
export type DecisionState = 'settled' | 'failed' | 'open';

export interface Tracked {
  decision: Decision;
  state: DecisionState;
  /** The service's message when its request failed. */
  error?: string;
}

/** Every settled decision counts once under its outcome, every failed one under `failed`. */
export const countOutcomes = (tracked: readonly Tracked[], totals: UndoTotals): void => {
  for (const t of tracked) {
    if (t.state === 'failed') totals.failed += 1;
    else if (t.state === 'settled') totals[t.decision.outcome] += 1;
  }
};

const place = (d: Decision) => ({ file: d.effect.file, row: d.effect.row, line: 0, stage: 'undo' as const });

const what = (d: Decision): string =>
  d.effect.kind === 'created' || d.effect.kind === 'updated'
    ? `contact ${d.effect.contactId}`
    : d.effect.kind;

/** The rows of the undo's issues.csv: conflicts, what is left as the run made it, failures. */
export const issuesOf = (t: Tracked): Issue[] => {
  const d = t.decision;
  if (t.state === 'failed') {
    return [
      {
        ...place(d),
        severity: 'error',
        field: '',
        value: d.effect.contactId,
        code: 'undo_failed',
        message: `${what(d)}: ${t.error ?? 'the request failed'}; the same command tries again`,
      },
    ];
  }
  if (t.state === 'open') return [];
  const conflicts: Issue[] = d.conflicts.map((c) => ({
    ...place(d),
    severity: 'error',
    field: c.field,
    value: c.now,
    code: 'undo_conflict',
    message: `${what(d)}: ${c.field} is "${c.now}" on the service, the run wrote "${c.wrote}"; kept, not restored`,
  }));
  const notes: Issue[] = d.notes.map((note) => ({
    ...place(d),
    severity: 'warning',
    field: note.split(/[ :]/, 1)[0] ?? '',
    value: note,
    code: 'undo_not_undone',
    message: `${what(d)}: ${note}; not undone`,
  }));
  return [...conflicts, ...notes];
};

/** The fields this undo put back (or would): changes.csv rows, old = what the run wrote. */
export const restoredRows = (t: Tracked): ChangeRow[] =>
  t.state === 'settled' && !t.decision.earlier ? t.decision.restored : [];

/** What an undo did to each contact or definition, as outcomes.csv says it. */
const UNDO_OUTCOME: Record<Decision['outcome'], { done: string; would: string }> = {
  archived: { done: 'archived', would: 'would_archive' },
  restored: { done: 'restored', would: 'would_restore' },
  conflicts: { done: 'conflict', would: 'would_conflict' },
  notUndone: { done: 'not_undone', would: 'not_undone' },
};

/**
 * The undo's outcomes.csv row of one journaled effect: archived, restored, conflict, not_undone
 * (`would_...` in a dry run), `already_undone` when an earlier undo settled it, `failed`, or
 * `pending` when the undo stopped before it.
 */
export const undoOutcomeRow = (t: Tracked, dryRun: boolean): OutcomeRow => {
  const d = t.decision;
  const { effect } = d;
  const contact = effect.kind === 'created' || effect.kind === 'updated';
  const outcome: OutcomeRow['outcome'] =
    t.state === 'failed'
      ? 'failed'
      : t.state === 'open'
        ? 'pending'
        : d.earlier
          ? 'already_undone'
          : (UNDO_OUTCOME[d.outcome][dryRun ? 'would' : 'done'] as OutcomeRow['outcome']);
  const reasons = [
    ...(t.state === 'failed' ? [`${t.error ?? 'the request failed'}; the same command tries again`] : []),
    ...(t.state === 'open' ? ['not sent: the undo stopped first; the same command sends it'] : []),
    ...(d.earlier ? [`an earlier undo ${d.outcome === 'archived' ? 'archived' : 'settled'} it`] : []),
    ...d.conflicts.map((c) => `${c.field} is "${c.now}" on the service, the run wrote "${c.wrote}"; kept`),
    ...d.restored.map((r) => `${r.field} put back to "${r.new}"`),
    ...d.notes,
  ];
  return {
    file: effect.file,
    row: effect.row,
    line: 0,
    outcome,
    contactId: effect.contactId,
    identity: contact ? effect.key : `${effect.kind === 'group' ? 'group' : 'custom field'}: ${effect.key}`,
    reason: reasons.join('; '),
  };
};
