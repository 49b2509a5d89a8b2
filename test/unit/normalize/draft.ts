import type { DraftContact } from '../../../src/mapping/types.js';

/** A DraftContact from plain values; each value's source column is named after its field. */
export const draft = (parts: {
  full?: string;
  first?: string;
  last?: string;
  emails?: string[];
  phones?: string[];
  fields?: Record<string, unknown>;
  groups?: string[];
  key?: string[];
  custom?: { name: string; value: string; fieldType?: 'input' | 'autocomplete' | 'datepicker' }[];
  reminders?: { text: string; due?: string; recurrence?: string }[];
}): DraftContact => ({
  name: {
    ...(parts.full !== undefined ? { full: { value: parts.full, field: 'Name' } } : {}),
    ...(parts.first !== undefined ? { first: { value: parts.first, field: 'First Name' } } : {}),
    ...(parts.last !== undefined ? { last: { value: parts.last, field: 'Last Name' } } : {}),
  },
  emails: (parts.emails ?? []).map((value, i) => ({ value, field: `E-mail ${i + 1}` })),
  phones: (parts.phones ?? []).map((value, i) => ({ value, field: `Phone ${i + 1}` })),
  fields: Object.fromEntries(
    Object.entries(parts.fields ?? {}).map(([k, value]) => [k, { value, field: `col:${k}` }]),
  ),
  groups: (parts.groups ?? []).map((value) => ({ value, field: 'Groups' })),
  customFields: (parts.custom ?? []).map((c) => ({
    name: c.name,
    value: c.value,
    field: `custom:${c.name}`,
    fieldType: c.fieldType ?? 'input',
  })),
  reminders: (parts.reminders ?? []).map((r) => ({
    text: { value: r.text, field: 'Reminder' },
    ...(r.due !== undefined ? { due: { value: r.due, field: 'Due' } } : {}),
    ...(r.recurrence !== undefined ? { recurrence: { value: r.recurrence, field: 'Recurrence' } } : {}),
  })),
  ...(parts.key ? { key: parts.key } : {}),
});
