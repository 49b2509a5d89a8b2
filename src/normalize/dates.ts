import { LIMITS } from '../core/schemas/limits.js';
import { compileDateFormat, matchPattern, type CompiledDateFormat, type DateFields } from './date-formats.js';
import { fail, ok, quote, type Normalized } from './result.js';

export interface NormalizedDate {
  /** `YYYY-MM-DD`; a year-less date carries the year 1604 (docs/design.md). */
  date: string;
  yearless: boolean;
  /** The year as written; absent when the value had none. */
  year?: number;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T[\d:.,]+(?:Z|[+-][\d:]+)?)?$/i;
const ISO_BASIC_DATE = /^(\d{4})(\d{2})(\d{2})$/;
/** ISO 8601 / vCard year-less dates: `--12-22`, `--1222`. */
const ISO_YEARLESS = /^--(\d{2})-?(\d{2})$/;
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const TRAILING_TIME = /^(.*\S)(?:\s+|T)(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Formats with a month name are unambiguous, so they are read even when none is declared. */
const MONTH_NAME_FORMATS = ['D MMM YYYY', 'MMM D, YYYY', 'D. MMM YYYY']
  .map((format) => compileDateFormat(format))
  .filter((format): format is CompiledDateFormat => format !== undefined);

const YEARLESS_YEAR = LIMITS.yearlessBirthdayYear;

const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const days = month === 2 && isLeap(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
  return day <= days;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function fromIso(value: string): DateFields | undefined {
  const match = ISO_DATE.exec(value) ?? ISO_BASIC_DATE.exec(value);
  if (match) return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  const yearless = ISO_YEARLESS.exec(value);
  if (yearless) return { month: Number(yearless[1]), day: Number(yearless[2]) };
  return undefined;
}

function fromFormats(value: string, format: string | undefined): DateFields | undefined {
  const declared = format === undefined ? undefined : compileDateFormat(format);
  for (const candidate of declared ? [declared, ...MONTH_NAME_FORMATS] : MONTH_NAME_FORMATS) {
    const fields =
      matchPattern(candidate.full, value) ?? (candidate.yearless && matchPattern(candidate.yearless, value));
    if (fields) return fields;
  }
  return undefined;
}

const expected = (format: string | undefined): string =>
  format === undefined
    ? 'ISO 8601 (YYYY-MM-DD or --MM-DD)'
    : `ISO 8601 or the declared format ${quote(format)}`;

/**
 * A calendar date: ISO 8601 always, the pipeline's declared format, and month-name forms
 * ("22 Dec 2025", "Dec 22, 2025"). A date without a year (`--12-22`, `12/22` for `MM/DD/YYYY`)
 * is stored with year 1604 and `yearless`; so is a date written with 1604, the year address
 * books already use for that. Impossible dates (Feb 30) are `invalid_date`.
 */
export function normalizeDate(value: string, format?: string): Normalized<NormalizedDate> {
  const text = value.trim();
  if (format !== undefined && compileDateFormat(format) === undefined) {
    return fail(
      'invalid_date',
      `The date format ${quote(format)} is not usable: it needs a month and a day token (MM, MMM, DD...).`,
    );
  }
  const fields = fromIso(text) ?? fromFormats(text, format);
  if (fields === undefined) {
    return fail('invalid_date', `Date ${quote(value)} cannot be read; expected ${expected(format)}.`);
  }
  const yearless = fields.year === undefined || fields.year === YEARLESS_YEAR;
  const year = fields.year ?? YEARLESS_YEAR;
  if (!isRealDate(year, fields.month, fields.day)) {
    return fail(
      'invalid_date',
      `Date ${quote(value)} does not exist (month ${fields.month}, day ${fields.day}${yearless ? '' : `, year ${year}`}).`,
    );
  }
  const date = `${pad(year, 4)}-${pad(fields.month)}-${pad(fields.day)}`;
  return ok(yearless ? { date, yearless } : { date, yearless, year });
}

function offsetMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  if (hours > 23 || minutes > 59) return undefined;
  return sign * (hours * 60 + minutes);
}

interface TimeFields {
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  zone: string | undefined;
}

function toRfc3339(date: DateFields & { year: number }, time: TimeFields, value: string): Normalized<string> {
  const offset = offsetMinutes(time.zone);
  if (time.hour > 23 || time.minute > 59 || time.second > 59 || offset === undefined) {
    return fail('invalid_date', `Date-time ${quote(value)} has a time or zone out of range.`);
  }
  const utc =
    Date.UTC(date.year, date.month - 1, date.day, time.hour, time.minute, time.second, time.millisecond) -
    offset * 60_000;
  const moment = new Date(utc);
  // Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear keeps the year as written.
  if (date.year < 100) moment.setUTCFullYear(moment.getUTCFullYear() - 1900);
  return ok(moment.toISOString().replace('.000Z', 'Z'));
}

/**
 * A moment as RFC 3339 in UTC (`2025-12-22T10:30:00Z`). Accepts ISO 8601 date-times with `Z` or
 * an offset (converted to UTC), without a zone (read as UTC), and a bare date (midnight UTC); with
 * a declared format, a date in that format optionally followed by `HH:MM[:SS]` and a zone.
 */
export function normalizeDateTime(value: string, format?: string): Normalized<string> {
  const text = value.trim();
  const iso = ISO_DATE_TIME.exec(text);
  if (iso) {
    const date = { year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) };
    if (!isRealDate(date.year, date.month, date.day)) {
      return fail('invalid_date', `Date-time ${quote(value)} names a day that does not exist.`);
    }
    const fraction = (iso[7] ?? '').slice(0, 3).padEnd(3, '0');
    return toRfc3339(
      date,
      {
        hour: Number(iso[4] ?? 0),
        minute: Number(iso[5] ?? 0),
        second: Number(iso[6] ?? 0),
        millisecond: Number(fraction),
        zone: iso[8],
      },
      value,
    );
  }
  const timed = TRAILING_TIME.exec(text);
  const datePart = timed ? (timed[1] ?? '') : text;
  const parsed = normalizeDate(datePart, format);
  if (!parsed.ok || parsed.value.yearless || parsed.value.year === undefined) {
    return fail(
      'invalid_date',
      `Date-time ${quote(value)} cannot be read; expected an RFC 3339 date-time or ${expected(format)} with a year.`,
    );
  }
  const [year, month, day] = parsed.value.date.split('-').map(Number) as [number, number, number];
  const time: TimeFields = timed
    ? {
        hour: Number(timed[2]),
        minute: Number(timed[3]),
        second: Number(timed[4] ?? 0),
        millisecond: 0,
        zone: timed[5],
      }
    : { hour: 0, minute: 0, second: 0, millisecond: 0, zone: undefined };
  return toRfc3339({ year, month, day }, time, value);
}
