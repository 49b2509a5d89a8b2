import type { DraftContact } from './types.js';

/** A row's draft before any column is read: every concept present and empty. */
export const emptyDraft = (): DraftContact => ({
  name: {},
  emails: [],
  phones: [],
  fields: {},
  groups: [],
  customFields: [],
  reminders: [],
});
