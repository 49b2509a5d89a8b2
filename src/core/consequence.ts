/**
 * Plain words for what an issue did to the data. The people who read issues.csv did
 * not write the export: a warning must say that its value was left out and the record went on,
 * an error that the record was not loaded. Messages that already say so are left as they are.
 */
const SAYS_WHAT_HAPPENED =
  /\b(left out|not loaded|was loaded|is loaded|not read|merged into|kept the|loaded with|loaded without)\b/i;

const sentence = (message: string): string => message.trim().replace(/[.;,:\s]+$/, '');

/** A warning on a value: the value was left out; the record is loaded without it, or not at all. */
export const valueLeftOut = (message: string, recordLoaded: boolean): string => {
  if (SAYS_WHAT_HAPPENED.test(message)) return message;
  return recordLoaded
    ? `${sentence(message)}. Left out; the contact is loaded without it.`
    : `${sentence(message)}. Left out (the record is not loaded: see its error).`;
};

/** An error: the record was not loaded, and, when given, why it was an error and not a warning. */
export const recordNotLoaded = (message: string, because?: string): string => {
  if (SAYS_WHAT_HAPPENED.test(message)) return message;
  return `${sentence(message)}. The record is not loaded${because === undefined ? '' : ` (${because})`}.`;
};
