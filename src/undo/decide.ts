import { contactWriteSchema, type ContactResponse, type ContactWrite } from '../core/schemas/index.js';
import { sameScalar, scalarText, type ScalarField, type ScalarImage } from '../load/field-changes.js';
import type { UpdateDetail } from '../load/previews.js';
import type { ChangeRow } from '../report/html/model.js';
import type { RunEffect, UndoOutcome } from '../state/index.js';

/** A field the service changed since the run wrote it: the undo keeps the service's value. */
export interface Conflict {
  field: string;
  wrote: string;
  now: string;
}

/** What an undo does with one journaled effect of the run. */
export interface Decision {
  effect: RunEffect;
  outcome: UndoOutcome;
  /** The E1 `data` that takes the effect back; absent when nothing needs sending. */
  data?: ContactWrite;
  /** Fields put back: old = what the run wrote, new = the before-image (changes.csv of the undo). */
  restored: ChangeRow[];
  conflicts: Conflict[];
  /** What is left as the run made it, in words (list entries, definitions, unknown fields). */
  notes: string[];
  /** An earlier undo settled it: nothing is sent, its outcome is repeated. */
  earlier?: boolean;
}

/** What the ledger keeps of a settled decision, so a later undo can list it again. */
export interface MarkDetail {
  conflicts: Conflict[];
  notes: string[];
}

const base = (effect: RunEffect, outcome: UndoOutcome, notes: string[] = []): Decision => ({
  effect,
  outcome,
  restored: [],
  conflicts: [],
  notes,
});

export const decideEarlier = (effect: RunEffect): Decision => {
  const mark = effect.undo!;
  const detail = (mark.detail ?? { conflicts: [], notes: [] }) as MarkDetail;
  return { ...base(effect, mark.outcome, detail.notes), conflicts: detail.conflicts, earlier: true };
};

/** Created contacts are archived (the API has no delete); created definitions are left. */
export const decideWithoutLookup = (effect: RunEffect): Decision | undefined => {
  if (effect.undo) return decideEarlier(effect);
  if (effect.kind === 'created') return { ...base(effect, 'archived'), data: { is_archived: true } };
  if (effect.kind === 'group' || effect.kind === 'custom_field') {
    const what = effect.kind === 'group' ? 'group' : 'custom field';
    return base(effect, 'notUndone', [
      `${what} "${effect.key}" (${effect.contactId}) created by the run is left`,
    ]);
  }
  const detail = effect.detail as UpdateDetail | undefined;
  if (!detail || detail.before === null) {
    return base(effect, 'notUndone', [
      'its values before the run are not known (no search answer showed them): nothing restored',
      ...leftNotes(detail),
    ]);
  }
  return undefined;
};

const leftNotes = (detail: UpdateDetail | undefined): string[] => [
  ...(detail?.lists ?? []).map((entry) => `${entry} (a list entry the API cannot remove one by one)`),
  ...(detail?.unknown ?? []).map(
    (field) => `${field} written; its earlier value is not shown by the service`,
  ),
];

/** The API refuses some empty values (`source` has no null): such a field cannot be put back. */
const writable = (field: ScalarField, value: unknown): boolean =>
  contactWriteSchema.shape[field].safeParse(value).success;

/**
 * An updated contact: each field the run changed is put back when the service still holds what
 * the run wrote, counted restored when it holds the before-image already (an undo that stopped
 * after sending), and kept as a conflict otherwise: never overwritten.
 */
export const decideUpdate = (effect: RunEffect, current: ContactResponse | undefined): Decision => {
  const detail = effect.detail as UpdateDetail;
  const notes = leftNotes(detail);
  if (!current) return base(effect, 'notUndone', ['the contact is no longer on the target', ...notes]);
  const before = detail.before as ScalarImage;
  const data: Record<string, unknown> = {};
  const restored: ChangeRow[] = [];
  const conflicts: Conflict[] = [];
  for (const field of Object.keys(detail.after) as ScalarField[]) {
    const wrote = detail.after[field];
    const now = current[field];
    const row = { file: effect.file, row: effect.row, contactId: effect.contactId, field };
    if (sameScalar(now, before[field])) {
      restored.push({ ...row, old: scalarText(wrote), new: scalarText(before[field]) });
    } else if (!sameScalar(now, wrote)) {
      conflicts.push({ field, wrote: scalarText(wrote), now: scalarText(now) });
    } else if (!writable(field, before[field])) {
      notes.push(
        `${field} cannot be set back to "${scalarText(before[field])}": the API takes no such value`,
      );
    } else {
      data[field] = before[field];
      restored.push({ ...row, old: scalarText(wrote), new: scalarText(before[field]) });
    }
  }
  const outcome: UndoOutcome =
    conflicts.length > 0 ? 'conflicts' : restored.length > 0 ? 'restored' : 'notUndone';
  return {
    effect,
    outcome,
    ...(Object.keys(data).length > 0 ? { data: data as ContactWrite } : {}),
    restored,
    conflicts,
    notes,
  };
};
