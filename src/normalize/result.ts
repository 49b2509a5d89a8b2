import type { IssueCode } from '../core/errors/codes.js';

/** What every fallible normalizer returns: the normalized value, or an issue code and a message. */
export type Normalized<T> = { ok: true; value: T } | { ok: false; code: IssueCode; message: string };

export const ok = <T>(value: T): Normalized<T> => ({ ok: true, value });

export const fail = <T = never>(code: IssueCode, message: string): Normalized<T> => ({
  ok: false,
  code,
  message,
});

/** Quotes a value for a message, shortened so one bad cell cannot flood a report. */
export function quote(value: string, max = 80): string {
  const shown = value.length > max ? `${value.slice(0, max)}...` : value;
  return JSON.stringify(shown);
}
